/**
 * `allRows` (src/store/sqlite/db.ts, issue 38): rows built from the driver's arrays are the objects
 * the driver itself builds, key for key and value for value, and the order list reads through it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allRows } from '../../src/store/sqlite/db.js';
import { Store } from '../../src/store/sqlite/store.js';

const dir = mkdtempSync(join(tmpdir(), 'dp-allrows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('allRows', () => {
  it('gives what the driver gives: same keys in the same order, nulls, numbers and odd text', () => {
    const store = Store.open(join(dir, 'a.db'));
    const now = new Date().toISOString();
    const c = store.companies.create({ name: 'x', timezone: 'UTC' }, now);
    for (let i = 0; i < 7; i++) {
      store.orders.insert(c.id, i % 2 ? null : `E"${i}\\`, {
        name: `n ${'ж'.repeat(i)}`, recipient: 'r', phone: '', address: `a "quoted" ${i}`, lat_e6: i % 3 ? 52_500_000 + i : null, lon_e6: i % 3 ? -13_400_000 : null,
        time_window_start: i % 2 ? '08:00:00' : null, time_window_end: i % 2 ? '18:00:00' : null, weight_g: 2 ** 40 + i, volume_l: 0, service_time: i, notes: '\u0000x', order_type: 'one_time', delivery_date: '2026-12-01',
      } as never, now);
    }
    const sql = 'SELECT * FROM orders WHERE company_id = ? ORDER BY id DESC LIMIT ? OFFSET ?';
    for (const [limit, offset] of [[50, 0], [3, 2], [1, 6], [5, 7]]) {
      const ours = allRows<Record<string, unknown>>(store.db, sql, c.id, limit, offset);
      const driver = store.db.prepare(sql).all(c.id, limit, offset) as Array<Record<string, unknown>>;
      expect(ours).toEqual(driver);
      for (let i = 0; i < ours.length; i++) expect(Object.keys(ours[i]!)).toEqual(Object.keys(driver[i]!));
    }
    const page = store.orders.list(c.id, { limit: 4, offset: 1 } as never);
    expect(page.count).toBe(7);
    expect(page.rows).toEqual(store.db.prepare(sql).all(c.id, 4, 1));
    expect(() => allRows(store.db, 'SELECT 1 AS "__proto__"')).toThrow(/cannot hold/);
    expect(() => allRows(store.db, 'SELECT 1 AS a, 2 AS a')).toThrow(/cannot hold/);
    store.close();
  });
});
