/**
 * The service end to end: time from POST /planning/jobs/ to the `planning_job.finished` webhook
 * for 100 and 500 orders, and the latency of GET /orders/ while a planning job runs (against the
 * same requests with the planner idle).
 *
 * The real server: `serve` as a child process on 127.0.0.1 (from source through tsx) with a temp
 * SQLite file, seeded with the generated city (data/city/city.json: 2 depots, 20 vehicles, 500
 * orders with coordinates, so no geocoding), a real local webhook receiver subscribed to the event.
 *
 *   npx tsx bench/flow.ts [--runs 5] [--budget S (default: the service's, scaled by orders)] [--workers 2]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Store } from '../src/store/sqlite/store.js';
import { SCOPES } from '../src/store/types.js';

interface CityOrder {
  id: number;
  address: string;
  lat: number;
  lon: number;
  weightKg: number;
  volumeM3: number;
  serviceTimeMin: number;
  timeWindowStart: string | null;
  timeWindowEnd: string | null;
}
interface City {
  date: string;
  company: { timezone: string };
  warehouses: Array<{ id: number; name: string; address: string; lat: number; lon: number }>;
  vehicles: Array<{ id: number; name: string; warehouseId: number; capacityKg: number; capacityM3: number; shift: string | null; maxDistanceKm: number | null; maxDurationMin: number | null; maxOrders: number | null; features: string[] }>;
  orders: CityOrder[];
}

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, budget: { type: 'string' }, workers: { type: 'string', default: '2' } },
});
const runs = Number(values.runs);
const root = fileURLToPath(new URL('..', import.meta.url));
const city = JSON.parse(readFileSync(new URL('../data/city/city.json', import.meta.url), 'utf8')) as City;

// seed
const dir = mkdtempSync(join(tmpdir(), 'dp-bench-flow-'));
const dbPath = join(dir, 'planner.db');
const finished = new Map<number, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (body.event === 'planning_job.finished') finished.set(body.data.job_id, at);
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const store = Store.open(dbPath);
const now = new Date().toISOString();
const company = store.companies.create({ name: 'Bench City', timezone: city.company.timezone }, now);
const depot = new Map<number, number>();
for (const w of city.warehouses) depot.set(w.id, store.warehouses.create({ company_id: company.id, name: w.name, address: w.address, lat: w.lat, lon: w.lon }, now).id);
for (const v of city.vehicles) {
  const [start, end] = v.shift ? v.shift.split('-') : [null, null];
  store.vehicles.create(
    {
      company_id: company.id,
      warehouse_id: depot.get(v.warehouseId)!,
      name: v.name,
      capacity_kg: v.capacityKg,
      capacity_m3: v.capacityM3,
      shift_start: start ?? null,
      shift_end: end ?? null,
      max_distance_km: v.maxDistanceKm,
      max_duration_min: v.maxDurationMin,
      max_orders: v.maxOrders,
      features: v.features,
      active: true,
    },
    now,
  );
}
const key = store.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now).key;
store.webhooks.create({ company_id: company.id, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, events: ['planning_job.finished'] }, now);
store.close();

// serve
const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'src/cli.ts'), 'serve', '--port', '0', '--db', dbPath, '--geocoder', 'none', '--log-level', 'warn', ...(values.budget === undefined ? [] : ['--job-time-limit', values.budget]), '--workers', values.workers],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const base = await new Promise<string>((resolve) => {
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    const m = /listening on (\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
});

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Api-Key ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

let day = 0;
/** Uploads `n` city orders on a fresh date (vehicles are free again) and returns their ids. */
async function upload(n: number): Promise<number[]> {
  const d = new Date(`${city.date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + day++);
  const date = d.toISOString().slice(0, 10);
  const items = city.orders.slice(0, n).map((o) => ({
    external_id: `B${day}-${o.id}`,
    address: o.address,
    lat: o.lat.toFixed(6),
    lon: o.lon.toFixed(6),
    weight: o.weightKg.toFixed(3),
    volume: o.volumeM3.toFixed(3),
    service_time: o.serviceTimeMin,
    time_window_start: o.timeWindowStart,
    time_window_end: o.timeWindowEnd,
    delivery_date: date,
  }));
  const res = await api('POST', '/api/public/v1/orders/bulk/', items);
  return res.results.map((r: { id: number }) => r.id);
}

async function jobToEvent(n: number): Promise<{ ms: number; routes: number; unassigned: number }> {
  const ids = await upload(n);
  const t0 = performance.now();
  const job = await api('POST', '/api/public/v1/planning/jobs/', { order_ids: ids });
  while (!finished.has(job.job_id)) await new Promise((r) => setTimeout(r, 2));
  const ms = finished.get(job.job_id)! - t0;
  const view = await api('GET', `/api/public/v1/planning/jobs/${job.job_id}/`);
  if (view.status !== 'done') throw new Error(`job failed: ${view.error}`);
  return { ms, routes: view.result.summary.route_count, unassigned: view.result.summary.unassigned_count };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** GET /orders/?page_size=50 from 4 concurrent clients until `stop()` says so. */
async function latencies(stop: () => boolean, minRequests = 200): Promise<number[]> {
  const out: number[] = [];
  const client = async () => {
    while (!stop() || out.length < minRequests) {
      const t = performance.now();
      const res = await fetch(`${base}/api/public/v1/orders/?page_size=50`, { headers: { authorization: `Api-Key ${key}` } });
      await res.arrayBuffer();
      out.push(performance.now() - t);
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  return out;
}

const lines: string[] = [];
const log = (s: string) => {
  lines.push(s);
  console.log(s);
};
log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; serve --workers ${values.workers} --job-time-limit ${values.budget ?? 'default'}`);

await jobToEvent(20); // warm-up: worker threads, statements
for (const n of [100, 500]) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await jobToEvent(n));
  const ms = results.map((r) => r.ms);
  log(
    `POST -> planning_job.finished, ${n} orders, ${runs} runs: p50 ${(pct(ms, 50) / 1000).toFixed(2)} s, p95 ${(pct(ms, 95) / 1000).toFixed(2)} s ` +
      `(min ${(Math.min(...ms) / 1000).toFixed(2)}, max ${(Math.max(...ms) / 1000).toFixed(2)}); routes ${results.map((r) => r.routes).join('/')}, unassigned ${results.map((r) => r.unassigned).join('/')}`,
  );
}

// API latency: idle, then while a 500-order job runs
const idleUntil = performance.now() + 3000;
const idle = await latencies(() => performance.now() > idleUntil);
const ids = await upload(500);
const job = await api('POST', '/api/public/v1/planning/jobs/', { order_ids: ids });
const busy = await latencies(() => finished.has(job.job_id), 50);
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} requests)`;
log(`GET /orders/?page_size=50, 4 clients, planner idle: ${fmt(idle)}`);
log(`GET /orders/?page_size=50, 4 clients, during a 500-order job: ${fmt(busy)}`);

child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
receiver.close();
rmSync(dir, { recursive: true, force: true });
