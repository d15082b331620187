import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/admin.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { Store } from '../../src/store/sqlite/store.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dp-admin-'));
const db = join(dir, 'admin.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function admin(...args: string[]) {
  const r = runCli(['admin', '--db', db, ...args]);
  return { ...r, json: r.code === 0 ? JSON.parse(r.stdout) : undefined };
}

function expectUsage(r: { code: number | null; stderr: string; stdout: string }, pattern: RegExp) {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

describe('admin CLI', () => {
  it('creates a company, keys, a warehouse, vehicles and a webhook, each printed as one JSON object', () => {
    const company = admin('company', 'create', '--name', 'Acme Deliveries', '--timezone', 'Europe/Berlin');
    expect(company.code).toBe(0);
    expect(company.stdout.trim().split('\n')).toHaveLength(1);
    expect(company.json).toEqual({ id: 1, name: 'Acme Deliveries', timezone: 'Europe/Berlin', speed_factor: 1 });
    expect(admin('company', 'create', '--name', 'Plain').json).toMatchObject({ timezone: 'UTC' });

    const key = admin('key', 'create', '--company', '1', '--scopes', 'orders:read,orders:write');
    expect(key.json).toMatchObject({ id: 1, company_id: 1, scopes: ['orders:read', 'orders:write'] });
    expect(key.json.key).toMatch(/^dpk_[\w-]{43}$/);

    const wh = admin('warehouse', 'create', '--company', '1', '--name', 'Main', '--lat', '52.52', '--lon', '13.405', '--address', 'Alexanderplatz 1');
    expect(wh.json).toEqual({ id: 1, company_id: 1, name: 'Main', address: 'Alexanderplatz 1', lat: 52.52, lon: 13.405 });

    const v = admin('vehicle', 'create', '--company', '1', '--name', 'Van 1', '--warehouse', '1', '--capacity-kg', '800', '--capacity-m3', '6.5',
      '--shift', '08:00-18:00', '--max-distance-km', '250', '--max-duration-min', '600', '--max-orders', '40', '--features', 'fridge,lift');
    expect(v.json).toEqual({
      id: 1, company_id: 1, warehouse_id: 1, name: 'Van 1', capacity_kg: 800, capacity_m3: 6.5, shift: '08:00-18:00',
      max_distance_km: 250, max_duration_min: 600, max_orders: 40, features: ['fridge', 'lift'], max_trips: 1, reload_min: 15, breaks: [], active: true,
    });
    const inactive = admin('vehicle', 'create', '--company', '1', '--name', 'Old', '--warehouse', '1', '--capacity-kg', '100', '--capacity-m3', '1', '--inactive');
    expect(inactive.json).toMatchObject({ active: false, shift: null, max_orders: null, features: [] });
    const reloading = admin('vehicle', 'create', '--company', '1', '--name', 'City van', '--warehouse', '1', '--capacity-kg', '600', '--capacity-m3', '4',
      '--max-trips', '3', '--reload-min', '20');
    expect(reloading.json).toMatchObject({ name: 'City van', max_trips: 3, reload_min: 20 });

    const hook = admin('webhook', 'create', '--company', '1', '--url', 'http://127.0.0.1:9999/hook', '--events', 'planning_job.finished,order.status_changed');
    expect(hook.json).toMatchObject({ id: 1, url: 'http://127.0.0.1:9999/hook', events: ['planning_job.finished', 'order.status_changed'] });
    expect(hook.json.secret).toMatch(/^[0-9a-f]{64}$/);

    const revoked = admin('key', 'revoke', '--id', '1');
    expect(revoked.json).toMatchObject({ id: 1, company_id: 1 });
    expect(revoked.json.revoked_at).toMatch(/Z$/);

    const store = Store.open(db);
    try {
      expect(store.apiKeys.authenticate(key.json.key)).toBeUndefined();
      const row = store.db.prepare('SELECT key_hash FROM api_keys WHERE id = 1').get() as { key_hash: Buffer };
      expect(row.key_hash.toString('utf8')).not.toContain(key.json.key);
      expect(store.vehicles.get(1, 1)?.features).toEqual(['fridge', 'lift']);
      expect(store.vehicles.get(1, reloading.json.id)).toMatchObject({ max_trips: 3, reload_min: 20 });
    } finally {
      store.close();
    }
  });

  it('lists keys (never the key) and webhooks; disables, enables and rotates a webhook secret', () => {
    const c = admin('company', 'create', '--name', 'Lister').json.id as number;
    const k1 = admin('key', 'create', '--company', String(c), '--scopes', 'orders:read', '--label', 'shop').json;
    const k2 = admin('key', 'create', '--company', String(c), '--scopes', 'routes:read').json;
    expect(admin('key', 'revoke', '--id', String(k2.id)).code).toBe(0);
    const keys = admin('key', 'list', '--company', String(c));
    expect(keys.code).toBe(0);
    expect(keys.json).toEqual({
      company_id: c,
      keys: [
        { id: k1.id, scopes: ['orders:read'], label: 'shop', created_at: expect.any(String), revoked_at: null },
        { id: k2.id, scopes: ['routes:read'], label: '', created_at: expect.any(String), revoked_at: expect.any(String) },
      ],
    });
    expect(keys.stdout).not.toContain(k1.key);
    expect(keys.stdout).not.toContain('dpk_');

    const hook = admin('webhook', 'create', '--company', String(c), '--url', 'http://127.0.0.1:9/hook', '--events', 'planning_job.finished').json;
    const shown = { id: hook.id, url: 'http://127.0.0.1:9/hook', events: ['planning_job.finished'] };
    expect(admin('webhook', 'list', '--company', String(c)).json).toEqual({ company_id: c, webhooks: [{ ...shown, active: true }] });
    const off = admin('webhook', 'disable', '--id', String(hook.id));
    expect(off.json).toEqual({ ...shown, active: false });
    expect(off.stdout).not.toContain(hook.secret);
    expect(admin('webhook', 'enable', '--id', String(hook.id)).json).toEqual({ ...shown, active: true });
    const rotated = admin('webhook', 'rotate-secret', '--id', String(hook.id)).json;
    expect(rotated).toEqual({ id: hook.id, secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(rotated.secret).not.toBe(hook.secret);
    const store = Store.open(db);
    try {
      expect(store.webhooks.get(hook.id)!.secret).toBe(rotated.secret);
    } finally {
      store.close();
    }
    expectUsage(admin('webhook', 'enable', '--id', '9999'), /--id: no webhook subscription 9999/);
    expectUsage(admin('key', 'list'), /key list: missing --company/);
    expectUsage(admin('webhook', 'list', '--company', 'x'), /--company: not an integer/);
  });

  it('refuses a webhook URL with a user or password, without echoing the password (issue 38)', () => {
    const c = admin('company', 'create', '--name', 'Creds').json.id as number;
    for (const url of ['https://ops:hunter2pw@hooks.example/in', 'http://ops@hooks.example/in', 'http://:hunter2pw@hooks.example/in']) {
      const r = admin('webhook', 'create', '--company', String(c), '--url', url, '--events', 'order.status_changed');
      expectUsage(r, /--url: must not hold a user name or password/);
      expect(r.stderr).not.toContain('hunter2pw');
    }
    const badUrl = admin('webhook', 'create', '--company', String(c), '--url', 'http://ops:hunter2pw@[bad', '--events', 'order.status_changed');
    expectUsage(badUrl, /not a URL/);
    expect(badUrl.stderr).not.toContain('hunter2pw');
    expect(admin('webhook', 'list', '--company', String(c)).json.webhooks).toEqual([]);
  });

  it('takes negative numbers as option values (west of Greenwich, south of the equator)', () => {
    const c = admin('company', 'create', '--name', 'Madrid').json.id as number;
    const wh = admin('warehouse', 'create', '--company', String(c), '--name', 'Sur', '--lat', '-33.45', '--lon', '-3.7');
    expect(wh.code, wh.stderr).toBe(0);
    expect(wh.json).toMatchObject({ lat: -33.45, lon: -3.7 });
    expect(admin('warehouse', 'create', '--company', String(c), '--name', 'Eq', '--lat=-0.5', '--lon', '-.25').json).toMatchObject({ lat: -0.5, lon: -0.25 });
    // an option, not a number, after an option that needs a value is still refused
    expectUsage(admin('warehouse', 'create', '--company', String(c), '--name', 'X', '--lat', '--lon', '1'), /--lat/);
  });

  it('exits 2 with one line on bad arguments (real command)', () => {
    expectUsage(admin(), /missing command/);
    expectUsage(admin('company', 'create', '--name', 'X', '--bogus', '1'), /Unknown option '--bogus'/);
    expectUsage(admin('key', 'create', '--company', '99', '--scopes', 'orders:read'), /no company 99/);
    const van = ['vehicle', 'create', '--company', '1', '--name', 'V', '--warehouse', '1', '--capacity-kg', '1', '--capacity-m3', '1'];
    expectUsage(admin(...van, '--max-trips', '0'), /--max-trips: must be at least 1/);
    expectUsage(admin(...van, '--reload-min', 'soon'), /--reload-min: not an integer: 'soon'/);
  });

  it('refuses every kind of bad argument with a UsageError that names it', async () => {
    const bad = async (pattern: RegExp, ...args: string[]) => {
      const error = await main(['--db', db, ...args]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, args.join(' ')).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(pattern);
      expect((error as Error).message).not.toContain('\n');
    };
    await bad(/unknown command 'company explode'/, 'company', 'explode');
    await bad(/missing --name/, 'company', 'create');
    await bad(/--name: must not be blank/, 'company', 'create', '--name', '  ');
    await bad(/unknown IANA time zone/, 'company', 'create', '--name', 'X', '--timezone', 'Mars/Base');
    await bad(/unexpected option --url/, 'company', 'create', '--name', 'X', '--url', 'http://x');
    await bad(/unknown root/, 'key', 'create', '--company', '1', '--scopes', 'orders:read,root');
    await bad(/give at least one/, 'key', 'create', '--company', '1', '--scopes', ',');
    await bad(/not an integer/, 'key', 'create', '--company', 'abc', '--scopes', 'orders:read');
    await bad(/no API key 999/, 'key', 'revoke', '--id', '999');
    await bad(/--lat: must be between/, 'warehouse', 'create', '--company', '1', '--name', 'W', '--lat', '91', '--lon', '0');
    await bad(/--lat: not a number/, 'warehouse', 'create', '--company', '1', '--name', 'W', '--lat', 'north', '--lon', '0');
    const base = ['vehicle', 'create', '--company', '1', '--name', 'V', '--capacity-kg', '1', '--capacity-m3', '1'];
    await bad(/no warehouse 77/, ...base, '--warehouse', '77');
    await bad(/--shift: the end must be later/, ...base, '--warehouse', '1', '--shift', '18:00-08:00');
    await bad(/--shift: expected HH:MM-HH:MM/, ...base, '--warehouse', '1', '--shift', '8-18');
    await bad(/--max-orders: must be at least 1/, ...base, '--warehouse', '1', '--max-orders', '0');
    await bad(/--max-trips: must be at least 1/, ...base, '--warehouse', '1', '--max-trips', '0');
    await bad(/--max-trips: must be at most 50/, ...base, '--warehouse', '1', '--max-trips', '51');
    await bad(/--max-trips: not an integer: '2.5'/, ...base, '--warehouse', '1', '--max-trips', '2.5');
    await bad(/--reload-min: not an integer: '-5'/, ...base, '--warehouse', '1', '--reload-min', '-5');
    await bad(/--reload-min: must be at most 1440/, ...base, '--warehouse', '1', '--reload-min', '2000');
    await bad(/--capacity-kg: not a number/, 'vehicle', 'create', '--company', '1', '--name', 'V', '--warehouse', '1', '--capacity-kg', 'lots', '--capacity-m3', '1');
    await bad(/must be http or https/, 'webhook', 'create', '--company', '1', '--url', 'ftp://x', '--events', 'order.status_changed');
    await bad(/not a URL/, 'webhook', 'create', '--company', '1', '--url', 'nope', '--events', 'order.status_changed');
    await bad(/unknown order.created/, 'webhook', 'create', '--company', '1', '--url', 'http://x', '--events', 'order.created');
  });
});
