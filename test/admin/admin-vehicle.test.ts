/**
 * `admin vehicle update --id ID [any create option]` and `--break HH:MM-HH:MM/MIN` (repeatable) on
 * create and update (operations.md "Breaks"), on both stores, through the real CLI; and
 * `admin webhook create --events route.updated`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, makeBackend, seedBackend, type Backend } from '../e2e/backends.js';
import { runCli } from '../helpers/run-cli.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`admin vehicle on ${kind}`, () => {
  let backend: Backend;
  let seeded: Awaited<ReturnType<typeof seedBackend>>;
  beforeAll(async () => {
    backend = await makeBackend(kind);
    seeded = await seedBackend(backend, { vehicles: 1 });
  });
  afterAll(async () => backend?.cleanup());

  const admin = (...args: string[]) => {
    const r = runCli(['admin', '--db', backend.db, ...args]);
    return { ...r, json: r.code === 0 ? JSON.parse(r.stdout) : undefined };
  };
  const usage = (r: { code: number | null; stderr: string; stdout: string }, pattern: RegExp) => {
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  };

  it('creates a vehicle with breaks and updates any of its options; the store keeps them', async () => {
    const c = String(seeded.company.id);
    const w = String(seeded.warehouse.id);
    const v = admin('vehicle', 'create', '--company', c, '--name', 'Break van', '--warehouse', w, '--capacity-kg', '500', '--capacity-m3', '4',
      '--shift', '07:00-17:00', '--break', '12:00-13:30/45', '--break', '09:30-10:30/15');
    expect(v.code, v.stderr).toBe(0);
    // in window order
    expect(v.json).toMatchObject({ name: 'Break van', shift: '07:00-17:00', breaks: ['09:30-10:30/15', '12:00-13:30/45'], active: true });
    const id = String(v.json.id);

    const u = admin('vehicle', 'update', '--id', id, '--name', 'Renamed', '--capacity-kg', '650', '--max-orders', '30', '--break', '11:00-12:00/30', '--inactive');
    expect(u.code, u.stderr).toBe(0);
    expect(u.json).toMatchObject({ id: v.json.id, name: 'Renamed', capacity_kg: 650, capacity_m3: 4, max_orders: 30, shift: '07:00-17:00', breaks: ['11:00-12:00/30'], active: false });
    const rows = await backend.all<{ name: string; breaks: string; active: unknown }>(`SELECT name, breaks, active FROM vehicles WHERE id = ${Number(id)}`);
    expect(JSON.parse(rows[0]!.breaks)).toEqual([{ start: '11:00', end: '12:00', minutes: 30 }]);
    expect(Boolean(rows[0]!.active)).toBe(false);

    // none clears an optional option; --active brings it back
    const cleared = admin('vehicle', 'update', '--id', id, '--break', 'none', '--max-orders', 'none', '--shift', 'none', '--active');
    expect(cleared.json).toMatchObject({ breaks: [], max_orders: null, shift: null, active: true });
    // the company may be named, and must be the vehicle's
    expect(admin('vehicle', 'update', '--id', id, '--company', c, '--name', 'Again').json).toMatchObject({ name: 'Again' });
  });

  it('refuses bad breaks and updates with one line on stderr, exit 2', async () => {
    const c = String(seeded.company.id);
    const w = String(seeded.warehouse.id);
    const base = ['vehicle', 'create', '--company', c, '--name', 'X', '--warehouse', w, '--capacity-kg', '1', '--capacity-m3', '1'];
    usage(admin(...base, '--break', '12:00-13:00'), /--break: expected HH:MM-HH:MM\/MIN/);
    usage(admin(...base, '--break', '13:00-12:00/30'), /must not be before its start/);
    usage(admin(...base, '--break', '12:00-13:00/0'), /between 1 and 720 minutes/);
    usage(admin(...base, '--break', '25:00-26:00/10'), /--break: expected/);
    usage(admin(...base, '--break', `12:00-13:00/30${' '.repeat(40)}x`), /--break: expected/);
    usage(admin(...base, ...Array.from({ length: 11 }, (_, i) => ['--break', `${String(7 + i).padStart(2, '0')}:00-${String(7 + i).padStart(2, '0')}:30/10`]).flat()), /--break: at most 10 breaks a vehicle, got 11/);
    const id = String(seeded.vehicles[0]!.id);
    usage(admin('vehicle', 'update', '--id', '999999', '--name', 'Y'), /--id: no vehicle 999999/);
    usage(admin('vehicle', 'update', '--id', id), /nothing to change/);
    usage(admin('vehicle', 'update', '--id', id, '--inactive', '--active'), /not both/);
    usage(admin('vehicle', 'update', '--id', id, '--warehouse', '999999'), /--warehouse: no warehouse 999999/);
    usage(admin('vehicle', 'update', '--id', id, '--company', '999999', '--name', 'Z'), /--company: no company 999999/);
  });

  it('a subscription may ask for route.updated', () => {
    const hook = admin('webhook', 'create', '--company', String(seeded.company.id), '--url', 'http://127.0.0.1:9/hook', '--events', 'route.updated');
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.json).toMatchObject({ events: ['route.updated'] });
  });
});
