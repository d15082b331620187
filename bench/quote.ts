/**
 * The ETA quote's answer time (issue 39: p99 under 50 ms on a day of 20 routes of 40 stops): a
 * SQLite store with 20 vans, each with a planned route of 40 stops tomorrow (orders around Berlin,
 * one sector a van, 12 minutes apart from 08:00), and the real HTTP path: POST
 * /api/internal/v1/planning/quote through the app (auth, body, the store reads, one small engine
 * problem a route, the insertion evaluator). Prints p50, p95, p99 and max over `--n` quotes at
 * random points, after `--warm` unmeasured ones, and how many were feasible.
 *
 *   npx tsx bench/quote.ts [--n 500] [--warm 50] [--routes 20] [--stops 40]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/http/app.js';
import { JobService } from '../src/jobs/service.js';
import type { NewRoute } from '../src/jobs/ports.js';
import { portOf } from '../src/store/sqlite/port.js';
import { Store } from '../src/store/sqlite/store.js';
import { SCOPES } from '../src/store/types.js';
import { mulberry32 } from './jobs-city.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('n', 500);
const WARM = arg('warm', 50);
const ROUTES = arg('routes', 20);
const STOPS = arg('stops', 40);

const dir = mkdtempSync(join(tmpdir(), 'dp-quote-'));
const store = Store.open(join(dir, 'planner.db'));
const port = portOf(store);
const now = new Date().toISOString();
const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const company = await port.companies.create({ name: 'Bench', timezone: 'UTC' }, now);
const depot = { lat: 52.52, lon: 13.405 };
const warehouse = await port.warehouses.create({ company_id: company.id, name: 'Depot', address: 'Depot', ...depot }, now);
const key = (await port.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now)).key;
const rnd = mulberry32(7);
for (let v = 0; v < ROUTES; v++) {
  const van = await port.vehicles.create(
    {
      company_id: company.id, warehouse_id: warehouse.id, name: `Van ${v + 1}`, capacity_kg: 1500, capacity_m3: 12, shift_start: '07:00', shift_end: '20:00',
      max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: true,
    },
    now,
  );
  const stops: NewRoute['stops'] = [];
  const at = (min: number) => new Date(Date.parse(`${date}T08:00:00Z`) + min * 60_000).toISOString().replace('.000Z', 'Z');
  stops.push({ position: 1, stopType: 'start_depot', orderId: null, orderExternalId: null, warehouseId: warehouse.id, address: 'Depot', ...depot, plannedArrivalAt: at(0), plannedDepartureAt: at(0) });
  const angle = (2 * Math.PI * v) / ROUTES;
  for (let i = 0; i < STOPS; i++) {
    const r = 2 + 10 * rnd();
    const a = angle + ((rnd() - 0.5) * 2 * Math.PI) / ROUTES;
    const lat = depot.lat + (r / 111.2) * Math.cos(a);
    const lon = depot.lon + (r / 68) * Math.sin(a);
    const order = await port.orders.insert(
      company.id,
      `Q-${v}-${i}`,
      {
        name: '', recipient: '', phone: '', address: `Street ${v}-${i}`, lat_e6: Math.round(lat * 1e6), lon_e6: Math.round(lon * 1e6),
        time_window_start: null, time_window_end: null, weight_g: 10_000, volume_l: 50, service_time: 5, notes: '', order_type: 'one_time', delivery_date: date,
      },
      now,
    );
    stops.push({ position: i + 2, stopType: 'order', orderId: order.id, orderExternalId: order.external_id, warehouseId: null, address: order.address, lat, lon, plannedArrivalAt: at(12 * i + 10), plannedDepartureAt: at(12 * i + 15) });
  }
  stops.push({ position: STOPS + 2, stopType: 'end_depot', orderId: null, orderExternalId: null, warehouseId: warehouse.id, address: 'Depot', ...depot, plannedArrivalAt: at(12 * STOPS + 10), plannedDepartureAt: at(12 * STOPS + 10) });
  await port.planning.commitTransaction(async (tx) =>
    tx.insertRoute({ jobId: 0, companyId: company.id, vehicleId: van.id, name: `${date} Van ${v + 1}`, date, plannedMileageKm: 0, plannedDurationMin: 0, totalWeightKg: 400, totalVolumeM3: 2, stops }, now),
  );
}

// the quote runs no job: a pool that is never asked
const jobs = new JobService({ store: port.planning, pool: { size: 1, run: () => Promise.reject(new Error('no solves here')) }, runJobs: false });
const app = buildApp({ store: port, jobs, geocoding: false, rateLimit: 0 });
await app.ready();

const times: number[] = [];
let feasible = 0;
for (let k = 0; k < WARM + N; k++) {
  const body = { date, lat: depot.lat + (rnd() - 0.5) * 0.2, lon: depot.lon + (rnd() - 0.5) * 0.3, weight: 5, service_time: 5 };
  const t0 = performance.now();
  const res = await app.inject({ method: 'POST', url: '/api/internal/v1/planning/quote', headers: { authorization: `Api-Key ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`quote answered ${res.statusCode}: ${res.body}`);
  if (k < WARM) continue;
  times.push(ms);
  if (res.json().feasible) feasible++;
}
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!.toFixed(1);
console.log(`quote over ${ROUTES} routes x ${STOPS} stops (SQLite, HTTP inject): n=${N}  p50 ${q(0.5)} ms  p95 ${q(0.95)} ms  p99 ${q(0.99)} ms  max ${times.at(-1)!.toFixed(1)} ms  feasible ${feasible}/${N}`);
await app.close();
await port.close();
rmSync(dir, { recursive: true, force: true });
