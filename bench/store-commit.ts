/**
 * What a planning job costs the database: the time of `commitPlan` for one job of N orders (one
 * transaction: the job row and its lease, the orders checked and moved to in_route with history,
 * the routes and stops, the webhook rows of a subscribed company), and of a bulk upload of the same
 * orders, on SQLite and on PostgreSQL. The first bottleneck of many workers on one database is
 * these writes: a worker host adds solver capacity, the database takes every job's commit.
 *
 *   npx tsx bench/store-commit.ts [--orders 200] [--runs 20] [--postgres postgres://postgres@127.0.0.1:5432/postgres]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { commitPlan } from '../src/jobs/commit.js';
import type { NewRoute } from '../src/jobs/ports.js';
import { openStore } from '../src/store/open.js';
import type { StorePort } from '../src/store/port.js';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '200' },
    runs: { type: 'string', default: '20' },
    postgres: { type: 'string', default: process.env.DP_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const N = Number(values.orders);
const RUNS = Number(values.runs);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(store: StorePort): Promise<{ bulk: number[]; commit: number[] }> {
  const now = new Date().toISOString();
  const company = await store.companies.create({ name: 'Bench', timezone: 'UTC' }, now);
  const warehouse = await store.warehouses.create({ company_id: company.id, name: 'D', address: 'D', lat: 52.5, lon: 13.4 }, now);
  await store.webhooks.create({ company_id: company.id, url: 'http://127.0.0.1:9/hook', events: ['planning_job.finished', 'order.status_changed'] }, now);
  const bulk: number[] = [];
  const commit: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const vehicle = await store.vehicles.create(
      { company_id: company.id, warehouse_id: warehouse.id, name: `V${run}`, capacity_kg: 1e6, capacity_m3: 1e6, shift_start: null, shift_end: null, max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: true },
      now,
    );
    let t = performance.now();
    const orders = await store.transaction(async (tx) => {
      const out = [];
      for (let i = 0; i < N; i++) {
        out.push(
          await tx.orders.insert(
            company.id,
            `R${run}-${i}`,
            { name: '', recipient: '', phone: '', address: `S ${i}`, lat_e6: 52_500_000 + i, lon_e6: 13_400_000 + i, time_window_start: null, time_window_end: null, weight_g: 1000, volume_l: 10, service_time: 5, notes: '', order_type: 'one_time', delivery_date: '2027-01-01' },
            now,
          ),
        );
      }
      return out;
    });
    bulk.push(performance.now() - t);
    const job = await store.planning.createJob(company.id, { order_ids: orders.map((o) => o.id), vehicle_ids: [vehicle.id], warehouse_id: null }, now);
    const claimed = await store.planning.claimJob('bench', now, new Date(Date.now() + 60_000).toISOString());
    if (claimed?.id !== job.id) throw new Error('claim failed');
    const depot = (position: number, stopType: 'start_depot' | 'end_depot') => ({ position, stopType, orderId: null, orderExternalId: null, warehouseId: warehouse.id, address: 'D', lat: 52.5, lon: 13.4, plannedArrivalAt: now, plannedDepartureAt: now });
    const route: NewRoute = {
      jobId: job.id, companyId: company.id, vehicleId: vehicle.id, name: `R${run}`, date: '2027-01-01', plannedMileageKm: 10, plannedDurationMin: 60, totalWeightKg: N, totalVolumeM3: 1,
      stops: [depot(1, 'start_depot'), ...orders.map((o, i) => ({ position: i + 2, stopType: 'order' as const, orderId: o.id, orderExternalId: o.external_id, warehouseId: null, address: o.address, lat: 52.5, lon: 13.4, plannedArrivalAt: now, plannedDepartureAt: now })), depot(N + 2, 'end_depot')],
    };
    t = performance.now();
    await commitPlan(store.planning, { jobId: job.id, companyId: company.id, at: now, routes: [route], unassigned: [], owner: 'bench', versions: Object.fromEntries(orders.map((o) => [o.id, 0])) });
    commit.push(performance.now() - t);
  }
  return { bulk, commit };
}

console.log(`# one job of ${N} orders, ${RUNS} runs: median ms (the commit writes ${N} stops, ${N} order updates and history rows, ${N + 1} webhook rows)`);
console.log('| store | bulk insert of the orders | commitPlan |');
console.log('|---|---:|---:|');
{
  const dir = mkdtempSync(join(tmpdir(), 'dp-bench-commit-'));
  const store = await openStore(join(dir, 'planner.db'));
  const r = await measure(store);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`| SQLite (WAL, synchronous=FULL) | ${median(r.bulk).toFixed(1)} | ${median(r.commit).toFixed(1)} |`);
}
{
  const name = `dp_bench_commit_${process.pid}`;
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(values.postgres!);
  url.pathname = `/${name}`;
  try {
    const store = await openStore(url.toString());
    const r = await measure(store);
    await store.close();
    console.log(`| PostgreSQL 15 (loopback, default settings) | ${median(r.bulk).toFixed(1)} | ${median(r.commit).toFixed(1)} |`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
