import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/sqlite/migrations.js';
import { Store } from '../../src/store/sqlite/store.js';
import type { OrderFields } from '../../src/store/types.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dp-store-'));
  path = join(dir, 'nested', 'planner.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NOW = '2026-01-01T00:00:00.000Z';
const fields = (over: Partial<OrderFields> = {}): OrderFields => ({
  name: '', recipient: '', phone: '', address: 'Main 1', lat_e6: null, lon_e6: null, time_window_start: null,
  time_window_end: null, weight_g: 0, volume_l: 0, service_time: 10, notes: '', order_type: 'one_time',
  delivery_date: '2026-01-02', ...over,
});

describe('SQLite store', () => {
  it('the database, its WAL and shared-memory files are the owner\'s only (0600), even under a lax umask', () => {
    const old = process.umask(0o022);
    try {
      writeFileSync(join(dir, 'lax.db'), ''); // an existing file of an older version: tightened too
      for (const file of [path, join(dir, 'lax.db')]) {
        const store = Store.open(file);
        store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
        for (const f of [file, `${file}-wal`, `${file}-shm`]) expect((statSync(f).mode & 0o777).toString(8), f).toBe('600');
        store.close();
      }
    } finally {
      process.umask(old);
    }
  });

  it('creates the file and its folder, uses WAL with synchronous=FULL, and migrates once', () => {
    const store = Store.open(path);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    const versions = store.db.prepare('SELECT version FROM schema_migrations').all();
    expect(versions).toEqual(migrations.map((m) => ({ version: m.version })));
    store.close();
    const again = Store.open(path, {
      migrations: [{ version: 1000, name: 'test table', sql: 'CREATE TABLE later_issue (id INTEGER PRIMARY KEY)' }],
    });
    const rows = again.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
    expect(rows.map((r) => r.version)).toEqual([...migrations.map((m) => m.version), 1000]);
    again.close();
  });

  it('keeps every aggregate scoped by company', () => {
    const store = Store.open(path);
    const a = store.companies.create({ name: 'A', timezone: 'Europe/Berlin' }, NOW);
    const b = store.companies.create({ name: 'B', timezone: 'UTC' }, NOW);
    const w = store.warehouses.create({ company_id: a.id, name: 'W', address: '', lat: 52.5, lon: 13.4 }, NOW);
    const v = store.vehicles.create(
      { company_id: a.id, warehouse_id: w.id, name: 'V', capacity_kg: 500, capacity_m3: 4, shift_start: '08:00', shift_end: '17:00',
        max_distance_km: null, max_duration_min: 480, max_orders: null, features: ['fridge'], active: true },
      NOW,
    );
    const o = store.orders.insert(a.id, 'EXT', fields(), NOW);
    expect(store.warehouses.get(b.id, w.id)).toBeUndefined();
    expect(store.vehicles.get(b.id, v.id)).toBeUndefined();
    expect(store.orders.get(b.id, o.id)).toBeUndefined();
    expect(store.orders.findByExternalId(b.id, 'EXT')).toBeUndefined();
    expect(store.orders.findByIds(b.id, [o.id])).toEqual([]);
    expect(store.vehicles.get(a.id, v.id)).toMatchObject({ features: ['fridge'], active: true, shift_start: '08:00' });
    store.vehicles.setActive(a.id, v.id, false);
    expect(store.vehicles.list(a.id)).toEqual([]);
    expect(store.vehicles.list(a.id, { includeInactive: true })).toHaveLength(1);
    expect(store.vehicles.findActive(a.id, [v.id])).toEqual([]);
    store.close();
  });

  it('orders: insert writes the first history entry; transition guards the status and appends history', () => {
    const store = Store.open(path);
    const c = store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
    const o = store.orders.insert(c.id, null, fields({ weight_g: 12_500 }), NOW);
    expect(o).toMatchObject({ status: 'new', weight_g: 12_500, external_id: null });
    const moved = store.orders.transition(c.id, o.id, ['new'], 'in_route', '2026-01-01T01:00:00.000Z');
    expect(moved).toMatchObject({ changed: true, previous: 'new', order: { status: 'in_route' } });
    const refused = store.orders.transition(c.id, o.id, ['new'], 'archived', NOW);
    expect(refused).toMatchObject({ changed: false, previous: 'in_route' });
    expect(store.orders.transition(c.id, 999, ['new'], 'archived', NOW)).toBeUndefined();
    expect(store.orders.history(o.id).map((h) => [h.status, h.previous_status])).toEqual([
      ['new', null],
      ['in_route', 'new'],
    ]);
    store.close();
  });

  it('external_id is not unique in storage; lookups return the oldest; findByExternalIds lists all', () => {
    const store = Store.open(path);
    const c = store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
    const first = store.orders.insert(c.id, 'DUP', fields(), NOW);
    const second = store.orders.insert(c.id, 'DUP', fields(), NOW);
    expect(store.orders.findByExternalId(c.id, 'DUP')!.id).toBe(first.id);
    expect(store.orders.findByExternalIds(c.id, ['DUP', 'NONE'])).toEqual(new Map([['DUP', [first, second]], ['NONE', []]]));
    store.close();
  });

  it('rolls back a multi-row change that throws', () => {
    const store = Store.open(path);
    const c = store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
    expect(() =>
      store.transaction(() => {
        store.orders.insert(c.id, 'R', fields(), NOW);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.orders.list(c.id, { limit: 10, offset: 0 }).count).toBe(0);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM order_status_history').get()).toEqual({ n: 0 });
    store.close();
  });

  it('api keys: hashed, found by the secret only, revocable', () => {
    const store = Store.open(path);
    const c = store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
    const { record, key } = store.apiKeys.create({ company_id: c.id, scopes: ['orders:read'] }, NOW);
    expect(store.apiKeys.authenticate(key)).toMatchObject({ id: record.id, scopes: ['orders:read'] });
    expect(store.apiKeys.authenticate(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
    expect(store.apiKeys.authenticate('')).toBeUndefined();
    const raw = store.db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(JSON.stringify(raw)).not.toContain(key.slice(12));
    store.apiKeys.revoke(record.id, NOW);
    expect(store.apiKeys.authenticate(key)).toBeUndefined();
    store.close();
  });

  it('geocoding queue: one pending task per order, due order, retry later, persisted across reopen', () => {
    let store = Store.open(path);
    const c = store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
    const o = store.orders.insert(c.id, null, fields(), NOW);
    store.geocodeQueue.enqueue(o.id, 'Main 1', NOW);
    store.geocodeQueue.enqueue(o.id, 'Main 2', NOW);
    expect(store.geocodeQueue.pending().map((t) => t.address)).toEqual(['Main 2']);
    const [task] = store.geocodeQueue.due(NOW, 10);
    store.geocodeQueue.retryLater(task!.id, '2026-01-01T00:05:00.000Z', 'HTTP 503');
    expect(store.geocodeQueue.due(NOW, 10)).toEqual([]);
    expect(store.geocodeQueue.nextDueAt()).toBe('2026-01-01T00:05:00.000Z');
    store.close();
    store = Store.open(path);
    expect(store.geocodeQueue.pending()).toMatchObject([{ order_id: o.id, address: 'Main 2', attempts: 1, last_error: 'HTTP 503' }]);
    expect(store.orders.applyGeocode(o.id, 'Main 9', 1, 2, NOW)).toBe(false);
    store.orders.update(c.id, o.id, { address: 'Main 2' }, NOW);
    expect(store.orders.applyGeocode(o.id, 'Main 2', 52_000_000, 13_000_000, NOW)).toBe(true);
    expect(store.orders.get(c.id, o.id)).toMatchObject({ lat_e6: 52_000_000, lon_e6: 13_000_000 });
    store.close();
  });

  it('webhook subscriptions keep a secret and filter by event', () => {
    const store = Store.open(path);
    const c = store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
    const s = store.webhooks.create({ company_id: c.id, url: 'http://127.0.0.1/x', events: ['order.status_changed'] }, NOW);
    expect(s.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(store.webhooks.forEvent(c.id, 'order.status_changed').map((x) => x.id)).toEqual([s.id]);
    expect(store.webhooks.forEvent(c.id, 'planning_job.finished')).toEqual([]);
    store.close();
  });
});

describe('order counts (migration 101)', () => {
  it('stay equal to COUNT(*) through inserts, status changes from any connection, and deletes', () => {
    const store = Store.open(path);
    const c = store.companies.create({ name: 'A', timezone: 'UTC' }, NOW);
    const d = store.companies.create({ name: 'B', timezone: 'UTC' }, NOW);
    const ids = Array.from({ length: 7 }, (_, i) => store.orders.insert(i < 5 ? c.id : d.id, null, fields(), NOW).id);
    store.orders.transition(c.id, ids[0]!, ['new'], 'archived', NOW);
    store.db.prepare("UPDATE orders SET status = 'in_route' WHERE id = ?").run(ids[1]);
    store.db.prepare("UPDATE orders SET name = 'x' WHERE id = ?").run(ids[2]);
    store.db.prepare('DELETE FROM order_status_history WHERE order_id = ?').run(ids[3]);
    store.db.prepare('DELETE FROM orders WHERE id = ?').run(ids[3]);
    for (const company of [c.id, d.id]) {
      for (const status of [undefined, 'new', 'archived', 'in_route', 'confirmed'] as const) {
        const real = store.db
          .prepare(`SELECT COUNT(*) AS n FROM orders WHERE company_id = ?${status ? ' AND status = ?' : ''}`)
          .get(...(status ? [company, status] : [company])) as { n: number };
        expect(store.orders.list(company, { status, limit: 1, offset: 0 }).count, `${company} ${status}`).toBe(real.n);
      }
    }
    store.close();
  });
});
