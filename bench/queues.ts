/**
 * The queue looks over a tenant-made backlog (issue 38, item 2): the webhook outbox's look (`due`
 * with a lease, then `nextDue`, as the dispatcher does every pass) over 200,000 pending deliveries
 * (a dead subscription holding 9/10, the oldest; a paused one 1/10; a few healthy ones), and the
 * geocoding worker's look (`due` with a lease, `nextDueAt`) over 100,000 tasks of one company's
 * bulk uploads and a few companies' one task each; on SQLite and on PostgreSQL. Each look's claim
 * is handed back after it (release), so every run looks at the same backlog.
 *
 *   npx tsx bench/queues.ts [--deliveries 200000] [--tasks 100000] [--runs 50] [--postgres URL|none]
 *
 * Figures: bench/RESULTS.md ("Queue looks").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { StorePort } from '../src/store/port.js';
import { PgStore } from '../src/store/postgres/index.js';
import { GEOCODE_DUE_SQL, GEOCODE_NEXT_DUE_SQL } from '../src/store/postgres/geocode-queue.js';
import { OUTBOX_DUE_SQL, OUTBOX_NEXT_DUE_SQL } from '../src/store/postgres/outbox.js';
import { SqliteStorePort } from '../src/store/sqlite/port.js';
import { Store } from '../src/store/sqlite/store.js';
import { seedBacklog, T0, type Backlog } from '../test/helpers/queue-backlog.js';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '200000' },
    tasks: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '50' },
    postgres: { type: 'string', default: process.env.DP_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const DELIVERIES = Number(values.deliveries);
const TASKS = Number(values.tasks);
const RUNS = Number(values.runs);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const ms = (x: number) => x.toFixed(2);

/** Times `look`; `after` (untimed) hands its claims back. */
async function time(look: () => Promise<unknown>, after: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await look().then(after); // warm: statements prepared, pages cached
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await look();
    out.push(performance.now() - t);
    await after();
  }
  return out;
}

async function measure(kind: string, store: StorePort, b: Backlog): Promise<void> {
  const now = T0 + DELIVERIES + 1_000;
  const paused = new Set([b.paused]);
  const owner = 'bench';
  let claimed: string[] = [];
  // the dispatcher's pass: claim up to 8 (2 per subscription), then see when the next is due
  const outboxLook = async (lease: boolean) => {
    const got = await store.outbox.due(now, 8, new Set(), { perSubscription: 2, paused, lease: lease ? { owner, until: now + 30_000 } : undefined });
    await store.outbox.nextDue(paused, now);
    if (got.length !== 2 + b.healthy.length) throw new Error(`outbox look: ${got.length} deliveries`);
    claimed = got.map((d) => d.id);
  };
  const outboxBack = async () => {
    for (const id of claimed) await store.outbox.release(id, owner);
  };
  const geoNow = new Date(T0 + 10_000).toISOString();
  // the geocoding worker's pass: claim a batch of 50, then see when the next is due
  const geocodeLook = async (lease: boolean) => {
    const got = await store.geocodeQueue.due(geoNow, 50, lease ? { owner, until: new Date(T0 + 60_000).toISOString() } : undefined);
    await store.geocodeQueue.nextDueAt(geoNow);
    if (got.length !== 50) throw new Error(`geocoding look: ${got.length} tasks`);
  };
  const geocodeBack = () => store.geocodeQueue.releaseAll(owner);
  for (const [name, look, back] of [
    [`outbox look, claiming (${DELIVERIES.toLocaleString('en')} pending)`, () => outboxLook(true), outboxBack],
    [`outbox look, read only`, () => outboxLook(false), async () => {}],
    [`geocoding look, claiming (${TASKS.toLocaleString('en')} tasks)`, () => geocodeLook(true), geocodeBack],
    [`geocoding look, read only`, () => geocodeLook(false), async () => {}],
  ] as const) {
    const load = loadavg()[0]!.toFixed(2);
    const t = await time(look, back);
    console.log(`${kind.padEnd(9)} ${name.padEnd(45)} median ${ms(quantile(t, 0.5))} ms  p90 ${ms(quantile(t, 0.9))} ms  max ${ms(Math.max(...t))} ms  (${RUNS} runs, load ${load})`);
  }
  if (store instanceof PgStore) {
    // the server's own time for each statement (EXPLAIN ANALYZE), apart from round trips, commit and the load's scheduling
    for (const [name, sql, args] of [
      ['outbox due', `${OUTBOX_DUE_SQL} SELECT id FROM chosen`, [now, [...paused], 2, owner, [], 8, 2]],
      ['outbox nextDue', OUTBOX_NEXT_DUE_SQL, [now, [...paused]]],
      ['geocoding due', `${GEOCODE_DUE_SQL} SELECT id FROM chosen`, [geoNow, owner, 50]],
      ['geocoding nextDueAt', GEOCODE_NEXT_DUE_SQL, [geoNow]],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const { rows } = await store.pool.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, args as unknown as unknown[]);
        times.push(rows[0]!['QUERY PLAN'][0]!['Execution Time']);
      }
      console.log(`${kind.padEnd(9)} ${`${name}: server execution (EXPLAIN ANALYZE)`.padEnd(45)} median ${ms(quantile(times, 0.5))} ms  max ${ms(Math.max(...times))} ms  (10 runs)`);
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'dp-bench-queues-'));
try {
  const sqlite = new SqliteStorePort(Store.open(join(dir, 'planner.db')));
  let t = performance.now();
  const b = await seedBacklog(sqlite, { deliveries: DELIVERIES, tasks: TASKS });
  console.log(`sqlite     seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await measure('sqlite', sqlite, b);
  await sqlite.close();

  if (values.postgres !== 'none') {
    const name = `dp_bench_queues_${process.pid}`;
    const admin = new pg.Client({ connectionString: values.postgres });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(values.postgres);
    url.pathname = `/${name}`;
    try {
      const store = await PgStore.open(url.toString());
      t = performance.now();
      const pb = await seedBacklog(store, { deliveries: DELIVERIES, tasks: TASKS });
      console.log(`postgres   seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      await measure('postgres', store, pb);
      await store.close();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
