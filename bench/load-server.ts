/**
 * The server side of bench/load.ts: the real app and planning runtime (as `serve` wires them) on
 * a fresh SQLite file, seeded with 5 companies of 4 API keys each, a warehouse, 3 vans and 300
 * orders per company. Prints `{"url","keys":[{key,company}],"orders":{...}}` as one line when it
 * listens; on SIGTERM prints the event-loop delay it measured (perf_hooks) as one JSON line.
 * Uses only APIs that predate the hardening issue, so the same file runs on older commits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/http/app.js';
import { ServiceEvents } from '../src/service/events.js';
import { createPlanningRuntime } from '../src/service/planning.js';
import { Store } from '../src/store/sqlite/store.js';
import { SCOPES } from '../src/store/types.js';

const dir = mkdtempSync(join(tmpdir(), 'dp-load-'));
// the service's setting (src/store/open.ts): group commit (NORMAL, the WAL synced off the event loop
// before each answer, checkpoints on a thread); LOAD_SQLITE_SYNC=FULL: a sync in every COMMIT. A
// commit before group commit ignores the option (FULL).
const group = process.env.LOAD_SQLITE_SYNC !== 'FULL' && process.env.LOAD_SQLITE_SYNC !== 'NORMAL';
const store = Store.open(join(dir, 'load.db'), { synchronous: group ? 'group' : 'full' } as Parameters<typeof Store.open>[1]);
// LOAD_SQLITE_SYNC=NORMAL: commits without an fsync (WAL; durable to a killed process, not to a power cut)
if (process.env.LOAD_SQLITE_SYNC === 'NORMAL') store.db.pragma('synchronous = NORMAL');
// LOAD_SQLITE_CHECKPOINT=thread: no checkpoint on a commit of the API's connection (each one writes
// and fsyncs the database file on the event loop); a worker thread's connection checkpoints instead
if (process.env.LOAD_SQLITE_CHECKPOINT === 'thread') {
  store.db.pragma('wal_autocheckpoint = 0');
  const { Worker } = await import('node:worker_threads');
  const { createRequire } = await import('node:module');
  const driver = createRequire(import.meta.url).resolve(Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20');
  const checkpointer = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.pragma('busy_timeout = 1000');
     setInterval(() => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} }, 500);`,
    { eval: true, workerData: { file: join(dir, 'load.db'), driver } },
  );
  checkpointer.unref();
}
const now = new Date().toISOString();
const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const keys: Array<{ key: string; company: number }> = [];
const orders: Record<number, number[]> = {};
for (let c = 0; c < 5; c++) {
  const company = store.companies.create({ name: `Load ${c}`, timezone: 'UTC' }, now);
  for (let k = 0; k < 4; k++) keys.push({ key: store.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now).key, company: company.id });
  const wh = store.warehouses.create({ company_id: company.id, name: 'W', address: 'x', lat: 52.52, lon: 13.405 }, now);
  for (let v = 0; v < 3; v++) {
    store.vehicles.create(
      { company_id: company.id, warehouse_id: wh.id, name: `Van ${v}`, capacity_kg: 800, capacity_m3: 8, shift_start: '08:00', shift_end: '18:00',
        max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: true },
      now,
    );
  }
}
const events = new ServiceEvents();
const runtime = createPlanningRuntime({ store, events, workers: 1, jobTimeLimitSec: 2 });
const app = buildApp({ store, events, jobs: runtime.jobs, geocoding: false, rateLimit: 600_000 } as Parameters<typeof buildApp>[0]);
await runtime.start();
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address() as { port: number };
const url = `http://127.0.0.1:${address.port}`;
// orders through the API (the seeding is not measured)
for (const { key, company } of keys.filter((_, i) => i % 4 === 0)) {
  const body = Array.from({ length: 300 }, (_, i) => ({
    external_id: `L${company}-${i}`, address: `Street ${i}`, delivery_date: date,
    lat: (52.45 + ((i * 37) % 100) / 700).toFixed(6), lon: (13.3 + ((i * 53) % 200) / 700).toFixed(6), weight: '5', volume: '0.05',
  }));
  const res = await fetch(`${url}/api/public/v1/orders/bulk/`, { method: 'POST', headers: { authorization: `Api-Key ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  orders[company] = ((await res.json()) as { results: Array<{ id: number }> }).results.map((r) => r.id);
}
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
// t0_us: the monotonic clock (µs) at which the measured window begins (bench/long-tasks.ts --from-us)
process.stdout.write(JSON.stringify({ url, date, keys, orders, t0_us: Number(process.hrtime.bigint() / 1000n) }) + '\n');
process.on('SIGTERM', () => {
  loop.disable();
  // the share of the loop's delay samples over 100 ms (the percentile where the delay passes it)
  let over100 = 0;
  for (const [percentile, ns] of loop.percentiles) if (ns > 100e6) { over100 = 100 - percentile; break; }
  process.stdout.write(JSON.stringify({ loop: { p50_ms: loop.percentile(50) / 1e6, p99_ms: loop.percentile(99) / 1e6, p999_ms: loop.percentile(99.9) / 1e6, max_ms: loop.max / 1e6, over_100ms_pct: over100, samples: loop.count } }) + '\n');
  const sync = (store as { durability?: { stats: { syncs: number; commits: number; syncMs: number; maxSyncMs: number; waits: number; waitMs: number; maxWaitMs: number } } }).durability?.stats;
  if (sync) process.stderr.write(`group commit: ${sync.commits} commits, ${sync.syncs} syncs, ${(sync.syncMs / Math.max(1, sync.syncs)).toFixed(1)} ms a sync on average, longest ${sync.maxSyncMs.toFixed(1)} ms; ${sync.waits} waits, ${(sync.waitMs / Math.max(1, sync.waits)).toFixed(1)} ms each on average, longest ${sync.maxWaitMs.toFixed(1)} ms\n`);
  void app.close().then(() => runtime.stop()).then(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
