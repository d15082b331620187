import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/sqlite/store.js';
import { startFakeNominatim } from '../geocode/fake-nominatim.js';
import { runCli } from '../helpers/run-cli.js';
import { api, startServe, type Served } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'dp-serve-'));
const running: Served[] = [];
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function serve(args: string[]) {
  const s = await startServe(args);
  running.push(s);
  return s;
}

describe('serve (the real process on loopback)', () => {
  it('--demo prints a key, a curl line and the listening line; logs are JSON lines with a request id', async () => {
    const db = join(dir, 'demo.db');
    const s = await serve(['--db', db, '--demo']);
    const out = s.stdout.join('\n');
    expect(out).toMatch(/demo company 1 "Demo Deliveries" \(Europe\/Berlin\) created: warehouse 1, vehicles 1, 2, 3/);
    const key = /demo API key \(every scope, shown once\): (dpk_\S+)/.exec(out)![1]!;
    expect(out).toContain(`curl -s -H 'Authorization: Api-Key ${key}'`);
    expect(s.stdout.at(-1)).toBe(`listening on ${s.url}`);
    const created = await api(s, key, 'POST', '/orders/', { address: 'Alexanderplatz 1, 10178 Berlin', external_id: 'D-1' });
    expect(created.status).toBe(201);
    s.proc.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    const lines = s.stderr().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.msg === 'request completed' && typeof l.reqId === 'string')).toBe(true);
    expect(lines.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);

    // a second --demo start keeps the company and prints a new key that works
    const again = await serve(['--db', db, '--demo']);
    const out2 = again.stdout.join('\n');
    expect(out2).not.toContain('created:');
    const key2 = /Api-Key (dpk_\S+?)'/.exec(out2)![1]!;
    expect(key2).not.toBe(key);
    const list = await api(again, key2, 'GET', '/orders/');
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toMatchObject({ external_id: 'D-1', lat: '52.521918', lon: '13.413215' });
    again.proc.kill('SIGINT');
    expect((await again.exited).code).toBe(0);
  });

  it('kill -9 loses no accepted order and no pending geocoding', async () => {
    const db = join(dir, 'crash.db');
    const nominatim = await startFakeNominatim(() => 'hang'); // the provider never answers
    try {
      // the lookups claimed by this process are its own for 1 s: after the kill, the restart takes them over
      const first = await serve(['--db', db, '--demo', '--geocoder', 'nominatim', '--geocoder-url', nominatim.url, '--lease-seconds', '1']);
      const key = /demo API key \(every scope, shown once\): (dpk_\S+)/.exec(first.stdout.join('\n'))![1]!;
      const bulk = await api(first, key, 'POST', '/orders/bulk/', [
        { address: 'Potsdamer Platz 1, 10785 Berlin', external_id: 'K-1' },
        { address: 'Kurfürstendamm 21, 10719 Berlin', external_id: 'K-2' },
        { address: 'Nowhere 99', external_id: 'K-3' },
      ]);
      expect(bulk.body.summary).toEqual({ created: 3, existing: 0, failed: 0 });
      // concurrent creates with one external_id over real connections: exactly one order
      const same = await Promise.all(
        Array.from({ length: 12 }, (_, i) => api(first, key, 'POST', '/orders/', { address: `Torstraße 1, 10119 Berlin`, external_id: 'SAME', name: `n${i}` })),
      );
      expect(same.filter((r) => r.status === 201)).toHaveLength(1);
      expect(same.filter((r) => r.status === 200)).toHaveLength(11);
      const cancelled = await api(first, key, 'POST', `/orders/${bulk.body.results[2].id}/cancel/`);
      expect(cancelled.status).toBe(200);

      first.proc.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');

      const store = Store.open(db);
      try {
        const pending = store.geocodeQueue.pending().map((t) => t.address).sort();
        expect(pending).toEqual(['Kurfürstendamm 21, 10719 Berlin', 'Potsdamer Platz 1, 10785 Berlin', 'Torstraße 1, 10119 Berlin']);
      } finally {
        store.close();
      }

      // restart with the table geocoder (the demo address book): the pending work completes
      const second = await serve(['--db', db, '--demo']);
      const key2 = /demo API key \(every scope, shown once\): (dpk_\S+)/.exec(second.stdout.join('\n'))![1]!;
      let orders: { external_id: string; lat: string | null; status: string }[] = [];
      for (let i = 0; i < 100; i++) {
        orders = (await api(second, key2, 'GET', '/orders/')).body.results;
        if (orders.filter((o) => o.lat !== null).length === 3) break;
        await sleep(50);
      }
      const byExt = Object.fromEntries(orders.map((o) => [o.external_id, o]));
      expect(Object.keys(byExt).sort()).toEqual(['K-1', 'K-2', 'K-3', 'SAME']);
      expect(orders).toHaveLength(4);
      expect(byExt['K-1']).toMatchObject({ lat: '52.509648', status: 'new' });
      expect(byExt['K-2']).toMatchObject({ lat: '52.503480' });
      expect(byExt['SAME']).toMatchObject({ lat: '52.528400' });
      expect(byExt['K-3']).toMatchObject({ lat: null, status: 'archived' });
      const history = await api(second, key2, 'GET', `/orders/${bulk.body.results[2].id}/events/`);
      expect(history.body.events.map((e: { status: string }) => e.status)).toEqual(['new', 'archived']);
      second.proc.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
    } finally {
      await nominatim.close();
    }
  });

  it('two server processes on one database still make exactly one order per external_id', async () => {
    const db = join(dir, 'two.db');
    const a = await serve(['--db', db, '--demo', '--geocoder', 'none']);
    const key = /demo API key \(every scope, shown once\): (dpk_\S+)/.exec(a.stdout.join('\n'))![1]!;
    const b = await serve(['--db', db, '--geocoder', 'none']);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => api(i % 2 === 0 ? a : b, key, 'POST', '/orders/', { address: `Main ${i}`, external_id: 'TWO' })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(15);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect((await api(b, key, 'GET', '/orders/?external_id=TWO')).body.count).toBe(1);
    a.proc.kill('SIGTERM');
    b.proc.kill('SIGTERM');
    expect((await a.exited).code).toBe(0);
    expect((await b.exited).code).toBe(0);
  });

  it('SIGTERM stops at once even with a geocoding lookup hanging; the task stays queued', async () => {
    const db = join(dir, 'term.db');
    const nominatim = await startFakeNominatim(() => 'hang');
    try {
      const s = await serve(['--db', db, '--demo', '--geocoder', 'nominatim', '--geocoder-url', nominatim.url]);
      const key = /demo API key \(every scope, shown once\): (dpk_\S+)/.exec(s.stdout.join('\n'))![1]!;
      expect((await api(s, key, 'POST', '/orders/', { address: 'Somewhere 1' })).status).toBe(201);
      while (nominatim.seen.length === 0) await sleep(20);
      s.proc.kill('SIGTERM');
      expect(await s.exited).toEqual({ code: 0, signal: null });
      const store = Store.open(db);
      try {
        expect(store.geocodeQueue.pending()).toMatchObject([{ address: 'Somewhere 1', attempts: 0 }]);
      } finally {
        store.close();
      }
    } finally {
      await nominatim.close();
    }
  });

  it('SIGTERM lets an in-flight request finish before exiting 0', async () => {
    const db = join(dir, 'inflight.db');
    const s = await serve(['--db', db, '--demo', '--geocoder', 'none']);
    const key = /demo API key \(every scope, shown once\): (dpk_\S+)/.exec(s.stdout.join('\n'))![1]!;
    const body = Array.from({ length: 500 }, (_, i) => ({ address: `Street ${i}`, external_id: `F-${i}`, notes: 'n'.repeat(2000) }));
    const pending = api(s, key, 'POST', '/orders/bulk/', body);
    while (!s.stderr().includes('"url":"/api/public/v1/orders/bulk/"')) await sleep(5);
    s.proc.kill('SIGTERM');
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.body.summary).toEqual({ created: 500, existing: 0, failed: 0 });
    expect(await s.exited).toEqual({ code: 0, signal: null });
    const store = Store.open(db);
    try {
      expect(store.orders.list(1, { limit: 1, offset: 0 }).count).toBe(500);
    } finally {
      store.close();
    }
  });

  it('--rate-limit N limits each key to N requests a minute (429 with Retry-After past it)', async () => {
    const s = await serve(['--db', join(dir, 'limit.db'), '--demo', '--rate-limit', '2']);
    const key = /demo API key \(every scope, shown once\): (dpk_\S+)/.exec(s.stdout.join('\n'))![1]!;
    const get = () => fetch(`${s.url}/api/public/v1/orders/`, { headers: { authorization: `Api-Key ${key}` } });
    const answers = [await get(), await get(), await get()];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBe('2');
    expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(((await answers[2]!.json()) as { detail: string }).detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/);
    s.proc.kill('SIGTERM');
    expect((await s.exited).code).toBe(0);
  });

  it('an idle server creates no timer more often than about once a second', async () => {
    const counter = fileURLToPath(new URL('../helpers/count-timers.mjs', import.meta.url));
    const s = await startServe(['--db', join(dir, 'idle.db'), '--demo'], ['--import', counter]);
    running.push(s);
    const count = async () => {
      const before = s.stderr().length;
      s.proc.kill('SIGUSR2');
      for (;;) {
        const m = /\{"timers":(\d+)\}/.exec(s.stderr().slice(before));
        if (m) return Number(m[1]);
        await sleep(20);
      }
    };
    // start-up settles: the solver warm-up (2 s of a made-up day, its tasks' guards are timers) ends
    while (!/solver warm-up (done|stopped)/.test(s.stderr())) await sleep(50);
    await sleep(500);
    const first = await count();
    await sleep(3_000);
    const created = (await count()) - first;
    // the webhook loop looks at its outbox once a second; everything else sleeps until it has work
    // (before the fix, the loop re-armed setTimeout(NaN) about every millisecond: thousands)
    expect(created).toBeLessThanOrEqual(8);
    s.proc.kill('SIGTERM');
    expect((await s.exited).code).toBe(0);
  });

  it('a port already taken: exit 1 with one line naming it, every time (no thread torn down half-loaded)', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const port = (holder.address() as { port: number }).port;
    try {
      for (let i = 0; i < 4; i++) {
        const r = runCli(['serve', '--host', '127.0.0.1', '--port', String(port), '--db', join(dir, `taken${i}.db`)]);
        expect(r.code, r.stderr).toBe(1);
        const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('{'));
        expect(lines).toEqual([expect.stringMatching(new RegExp(`^delivery-planner: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`))]);
      }
    } finally {
      holder.close();
    }
  });

  it('exits 2 with one line on bad arguments', () => {
    for (const [args, pattern] of [
      [['--port', 'abc'], /--port: expected 0 to 65535/],
      [['--geocoder', 'google'], /--geocoder: expected table, nominatim or none/],
      [['--address-book', join(dir, 'missing.csv')], /--address-book: no such file/],
      [['--bogus'], /Unknown option '--bogus'/],
      [['--rate-limit', 'many'], /--rate-limit: expected requests a minute per key/],
    ] as const) {
      const r = runCli(['serve', '--db', join(dir, 'x.db'), ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    }
  });
});
