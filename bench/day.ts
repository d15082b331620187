/**
 * A delivery day of the 500-order city (data/city/city.json, Leipzig, 20 vans), through the service
 * as a dispatcher uses it (issue 39 item 5): a SQLite store, the HTTP app in-process with a
 * simulated clock, one solver thread (`--threads 2`: two, as `serve` runs on a 2-core machine).
 * 80 % of the orders are known at 06:00 and planned by a planning job; the other 20 % arrive in
 * batches during the day (09:00 to 13:00). Which ones, and when (`--arrival`): `closing` (the
 * default, the stress case): every fifth order, each batch the orders whose window closes soonest,
 * so the 09:00 batch brings orders of 08:00-10:00 windows; `booked`: orders placed during the day
 * for a window that opens at least an hour after they are placed (or for none), as a same-day
 * booking page offers them, a fifth of the orders that could come so, spread over their batches.
 * Before each batch the vans move along their routes: every stop whose planned departure has passed
 * is confirmed through the dispatch API (at that time), and each van's position between its last
 * stop and its next is sent through the dispatch API. Then the batch is added and the day
 * re-planned (POST /planning/replan with the batch).
 *
 * The service runs as that company would set it: `--shift-reserve-min 60` (room at the end of
 * each van's shift in the morning plan, used by the re-plans).
 *
 * Reported: each re-plan's time (submit to done, wall clock: p50, p95; the process's CPU time in
 * it, all threads; each solve's orders, iterations and time: of the seed kept on more threads, on
 * the CPU clock with --cpu-clock), orders placed; the km of
 * the day (every route of the date at the end) against
 * - a morning plan with every order known (the engine on all 500, the job's budget): the price of
 *   not knowing;
 * - greedy insertion without re-planning: from the same morning plan, each late order at its
 *   cheapest feasible place at its arrival (the quote's evaluator on the day in progress), nothing
 *   else moved.
 *
 *   npx tsx bench/day.ts [--batches 5] [--late-share 0.2] [--seed 1] [--budget S] [--threads N] [--no-new-routes] [--dump DIR] [--cpu-clock [--morning-iterations N] [--replan-iterations N] [--replan-draw K] [--replan-best-of N] [--replan-budget-scale F]] [--shift-reserve-min M] [--arrival closing|booked] [--no-reference] [--no-warm-up]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/http/app.js';
import type { DayRoute, DayStop, PlanningOrder } from '../src/jobs/ports.js';
import { buildProblem, haversineProvider } from '../src/jobs/problem.js';
import { quoteWithRoute } from '../src/jobs/quote.js';
import type { SolveRunner } from '../src/pool/scheduler.js';
import { JobService, defaultBudgetSec } from '../src/jobs/service.js';
import { WARM_UP_SEC, warmUpProblem } from '../src/jobs/warm-up.js';
import { DayAxis, parseClock } from '../src/jobs/time.js';
import { SolverPool } from '../src/pool/pool.js';
import { solve } from '../src/solver/solve.js';
import { portOf } from '../src/store/sqlite/port.js';
import { Store } from '../src/store/sqlite/store.js';
import { SCOPES } from '../src/store/types.js';
import { loadCity } from './jobs-city.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const BATCHES = arg('batches', 5);
const LATE_SHARE = arg('late-share', 0.2);
const SEED = arg('seed', 1);
/** A solver budget for every job, s (default: the service's, 0: that). */
const BUDGET = arg('budget', 0);
/**
 * --shift-reserve-min M: the service's `serve --shift-reserve-min` (planning jobs plan routes back M
 * minutes before the shift ends; docs/day.md). Default 60: this day is a company's that takes
 * orders during the day and would set it (0: the service's default, the whole shift).
 */
const RESERVE_MIN = arg('shift-reserve-min', 60);
/** --no-new-routes: the re-plans give no free van a route (vehicle_ids names one van already out). */
const NO_NEW_ROUTES = process.argv.includes('--no-new-routes');
/**
 * --cpu-clock: every solve runs on this thread with the process's CPU time as its clock, so a
 * budget of 1.44 s is 1.44 s of CPU whatever else runs on the machine (for comparing variants on a
 * shared machine; the re-plan times it reports are then not wall-clock figures).
 */
const CPU_CLOCK = process.argv.includes('--cpu-clock');
/** --no-reference: no all-known plan (A/B runs of re-plan variants compare the day's km; the reference does not depend on them). */
const NO_REFERENCE = process.argv.includes('--no-reference');
/**
 * --no-warm-up: the morning plan is the first job of a cold pool, and the all-known plan the first
 * solve of this thread (until session 35 the bench always ran so). By default the service warms its
 * solver threads as `serve` does at start (JobService.warmUp, src/jobs/warm-up.ts) before the
 * morning plan, and this thread plans the same made-up day before the all-known plan: both plans
 * then run on compiled code, as a service's morning plan does once it has run.
 */
const NO_WARM_UP = process.argv.includes('--no-warm-up');
/**
 * --morning-iterations N (with --cpu-clock): the morning plan is searched for N iterations instead
 * of its time budget, so that every run of a seed starts its day from the same morning plan (A/B
 * runs of re-plan variants then differ only in the re-plans).
 */
const MORNING_ITERATIONS = arg('morning-iterations', 0);
/**
 * --replan-iterations N (with --cpu-clock): every re-plan is searched for N iterations instead of
 * its time budget, so that a run of a seed repeats exactly (A/B runs of morning-plan variants
 * compare seed for seed without the machine's noise; about 700-1,000 iterations fit a re-plan's
 * 1.3 s of CPU here).
 */
const REPLAN_ITERATIONS = arg('replan-iterations', 0);
/**
 * --replan-draw K (with --cpu-clock): the re-plans search with seed + 7919 K (the morning plan keeps
 * the seed's), so one seed's day gives several draws of the re-plans from the same morning plan:
 * A/B runs of re-plan variants compare on more pairs (one deterministic run is one draw; runs of
 * one seed's variants differ by about ±10 km where the variant changes little).
 */
const REPLAN_DRAW = arg('replan-draw', 0);
/**
 * --replan-best-of N (with --cpu-clock): every re-plan solve runs N seeds one after another on this
 * thread (its seed, then seed + 1, ...: the spare seeds the service's scheduler starts on idle
 * threads, src/pool/scheduler.ts) and keeps the best (fewest unassigned, then least distance), as
 * `serve` on N free threads would; the re-plan times it reports count all N.
 */
const REPLAN_BEST_OF = Math.max(1, Math.floor(arg('replan-best-of', 1)));
/** --replan-budget-scale F (with --cpu-clock, no --replan-iterations): every re-plan solve gets F times its budget of CPU. */
const REPLAN_BUDGET_SCALE = arg('replan-budget-scale', 1);
/**
 * --threads N (wall clock): the service's solver pool with N threads, as `serve --workers N` (its
 * default on a machine of N cores, at most 4): a re-plan then gets a spare seed on each idle thread
 * (src/pool/scheduler.ts). Default 1.
 */
const THREADS = Math.max(1, Math.floor(arg('threads', 1)));
if (CPU_CLOCK && THREADS > 1) throw new Error('--cpu-clock runs every solve on this thread: use --replan-best-of N for the spare seeds of N threads');
/** --dump DIR: every solve's problem and answer as JSON files there (to replay them offline). */
const DUMP = process.argv.includes('--dump') ? process.argv[process.argv.indexOf('--dump') + 1] : undefined;

const city = loadCity();
const date = city.date;
const axis = new DayAxis(city.company.timezone, date);
const localMs = (hhmm: string) => axis.midnightMs + axis.toAxis(parseClock(hhmm)) * 1000;
let simNow = localMs('06:00');
const clock = () => new Date(simNow);

// which orders come late, and when (--arrival):
// - closing (the default): every n-th order; handed out to the batches by when its window closes,
//   the soonest first (the 09:00 batch holds orders of 08:00-10:00 windows: the stress case);
// - booked: an order placed during the day books a window that opens at least BOOKING_LEAD after
//   it is placed (or none), as a same-day booking page offers it; LATE_SHARE of all the orders,
//   drawn evenly from those that could come so, each in one of the batches it could come in (in turn).
const ARRIVAL = (() => {
  const i = process.argv.indexOf('--arrival');
  const v = i > 0 ? process.argv[i + 1] : 'closing';
  if (v !== 'closing' && v !== 'booked') throw new Error(`--arrival closing|booked, not ${v}`);
  return v;
})();
const BOOKING_LEAD_S = 3600;
const every = Math.round(1 / LATE_SHARE);
const closes = (o: PlanningOrder) => (o.timeWindowEnd === null ? 86_400 : parseClock(o.timeWindowEnd));
const opens = (o: PlanningOrder) => (o.timeWindowStart === null ? 86_400 : parseClock(o.timeWindowStart));
const batchTimes = Array.from({ length: BATCHES }, (_, b) => `${String(9 + Math.floor((b * 4) / Math.max(1, BATCHES - 1))).padStart(2, '0')}:00`);

/** The late orders and the batch (index into batchTimes) each comes in. */
function arrivals(): Array<{ order: PlanningOrder; batch: number }> {
  if (ARRIVAL === 'closing') {
    const late = city.orders.filter((_, i) => i % every === every - 1).sort((a, b) => closes(a) - closes(b) || a.id - b.id);
    return late.map((order, k) => ({ order, batch: Math.floor((k * BATCHES) / late.length) }));
  }
  // the batches each order could come in: at least BOOKING_LEAD_S before its window opens
  const could = city.orders.map((order) => ({ order, batches: batchTimes.flatMap((t, b) => (parseClock(t) + BOOKING_LEAD_S <= opens(order) ? [b] : [])) })).filter((c) => c.batches.length > 0);
  const count = Math.min(could.length, Math.round(city.orders.length * LATE_SHARE));
  const drawn = could.filter((_, i) => Math.floor(((i + 1) * count) / could.length) > Math.floor((i * count) / could.length));
  return drawn.map((c, k) => ({ order: c.order, batch: c.batches[k % c.batches.length] }));
}
const late = arrivals();
const lateOrders = late.map((a) => a.order);
const lateIds = new Set(lateOrders.map((o) => o.id));
const earlyOrders = city.orders.filter((o) => !lateIds.has(o.id));
const batches = batchTimes.map((t, b) => ({ at: t, orders: late.filter((a) => a.batch === b).map((a) => a.order) }));

// ---- the service: SQLite, HTTP app, one solver thread, the simulated clock
const dir = mkdtempSync(join(tmpdir(), 'dp-day-'));
const port = portOf(Store.open(join(dir, 'planner.db')));
const now0 = clock().toISOString();
const company = await port.companies.create({ name: 'City', timezone: city.company.timezone }, now0);
const warehouseIds = new Map<number, number>();
for (const w of city.warehouses) warehouseIds.set(w.id, (await port.warehouses.create({ company_id: company.id, name: w.name, address: w.address, lat: w.lat, lon: w.lon }, now0)).id);
const vehicleIds = new Map<number, number>();
for (const v of city.vehicles) {
  const [start, end] = v.shift ? v.shift.split('-') : [null, null];
  const created = await port.vehicles.create(
    {
      company_id: company.id, warehouse_id: warehouseIds.get(v.warehouseId)!, name: v.name, capacity_kg: v.capacityKg, capacity_m3: v.capacityM3,
      shift_start: start, shift_end: end, max_distance_km: v.maxDistanceKm, max_duration_min: v.maxDurationMin, max_orders: v.maxOrders, features: v.features, active: true,
    },
    now0,
  );
  vehicleIds.set(v.id, created.id);
}
const key = (await port.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now0)).key;
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pool: SolveRunner & { destroy?: () => Promise<void> } = CPU_CLOCK
  ? {
      size: 1,
      run: async (task) => {
        // the morning plan (no day in progress) by iterations when asked: the same plan every run of a seed
        const iterations = task.problem.now === undefined ? MORNING_ITERATIONS : REPLAN_ITERATIONS;
        const replan = task.problem.now !== undefined;
        const seed = (task.options.seed ?? SEED) + (replan ? 7919 * REPLAN_DRAW : 0);
        const timeLimit = replan && task.options.timeLimit !== undefined ? task.options.timeLimit * REPLAN_BUDGET_SCALE : task.options.timeLimit;
        const once = (k: number) =>
          solve(task.problem, { ...task.options, validate: false, seed: seed + k, timeLimit, ...(iterations > 0 ? { timeLimit: undefined, iterations } : {}) }, { now: cpuNow });
        let best = once(0);
        for (let k = 1; replan && k < REPLAN_BEST_OF; k++) {
          const r = once(k);
          // the scheduler's rule (src/pool/scheduler.ts solve); the iterations of every seed counted
          const kept = r.unassigned.length < best.unassigned.length || (r.unassigned.length === best.unassigned.length && r.distance < best.distance) ? r : best;
          best = { ...kept, stats: { ...kept.stats, iterations: r.stats.iterations + best.stats.iterations } };
        }
        return best;
      },
    }
  : new SolverPool({ threads: THREADS });
let solves = 0;
/** Each re-plan solve's orders and iterations (the second, relaxed solve of a re-plan too). */
const replanSolves: Array<{ orders: number; iterations: number; ms: number }> = [];
const jobs = new JobService({
  store: port.planning, pool, ...(CPU_CLOCK ? { shareMatrix: false } : {}), now: clock, concurrency: 1, seed: SEED, ...(BUDGET > 0 ? { timeBudgetSec: BUDGET } : {}),
  ...(RESERVE_MIN > 0 ? { shiftReserveSec: RESERVE_MIN * 60 } : {}),
  onSolved: (info) => {
    if (info.problem.now !== undefined) replanSolves.push({ orders: info.problem.orders.length, iterations: info.result.stats.iterations, ms: info.result.stats.elapsedMs });
    if (!DUMP) return;
    mkdirSync(DUMP, { recursive: true });
    writeFileSync(join(DUMP, `${String(++solves).padStart(2, '0')}-job${info.jobId}.json`), JSON.stringify(info));
  },
});
const app = buildApp({ store: port, jobs, clock, geocoding: false, rateLimit: 0 });
await app.ready();
if (!NO_WARM_UP && !CPU_CLOCK) await jobs.warmUp();
await jobs.start();
const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
  const res = await app.inject({ method, url, headers: { authorization: `Api-Key ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, payload: body === undefined ? undefined : JSON.stringify(body) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const wire = (o: PlanningOrder) => ({
  external_id: o.externalId, address: o.address, lat: o.lat!.toFixed(6), lon: o.lon!.toFixed(6), weight: o.weightKg.toFixed(3), volume: o.volumeM3.toFixed(3),
  service_time: o.serviceTimeMin, delivery_date: date,
  ...(o.timeWindowStart ? { time_window_start: o.timeWindowStart } : {}), ...(o.timeWindowEnd ? { time_window_end: o.timeWindowEnd } : {}),
});
const addOrders = async (list: PlanningOrder[]): Promise<number[]> => (await call('POST', '/api/public/v1/orders/bulk/', list.map(wire))).results.map((r: { id: number }) => r.id);
const wait = (jobId: number) => jobs.waitFor(company.id, jobId);

// ---- the morning plan: what is known at 06:00
const earlyIds = await addOrders(earlyOrders);
const morningJob = await wait((await call('POST', '/api/public/v1/planning/jobs/', { order_ids: earlyIds })).job_id);
if (morningJob.status !== 'done') throw new Error(`morning plan failed: ${morningJob.error}`);
const morningUnassigned = (morningJob.result as { unassigned: unknown[] }).unassigned.length;
const dayRoutes = () => port.planning.openRoutesOn(company.id, date);
const kmOfDay = async () => {
  const list = await port.routes.list(company.id, { date, limit: 1000, offset: 0 });
  return list.rows.filter((r) => r.status !== 'cancelled').reduce((s, r) => s + r.planned_mileage_km, 0);
};
const routesOfDay = async () => (await port.routes.list(company.id, { date, limit: 1000, offset: 0 })).rows.filter((r) => r.status !== 'cancelled').length;
const morningKm = await kmOfDay();

// the greedy line starts from the same morning plan, in memory
const greedy: DayRoute[] = structuredClone(await dayRoutes());
const greedyKm = new Map<number, number>((await port.routes.list(company.id, { date, limit: 1000, offset: 0 })).rows.map((r) => [r.id, r.planned_mileage_km]));
const planningVehicles = await port.planning.listActiveVehicles(company.id);
const planningWarehouses = new Map((await port.planning.getWarehousesByIds(company.id, [...warehouseIds.values()])).map((w) => [w.id, w]));
const ordersById = new Map<number, PlanningOrder>();
for (const o of await port.planning.getOrdersByIds(company.id, earlyIds)) ordersById.set(o.id, o);
let nextStopId = -1;
let greedyPlaced = 0;
let greedyAdded = 0;

/** Confirms, in the greedy copy, every pending order stop whose planned departure has passed. */
function advanceGreedy(t: number): void {
  for (const r of greedy) {
    for (const s of r.stops) {
      if (s.stopType !== 'order' || s.status !== 'pending' || s.plannedDepartureAt === null || Date.parse(s.plannedDepartureAt) > t) continue;
      s.status = 'confirmed';
      s.actualArrivalAt = s.plannedArrivalAt;
      s.actualDepartureAt = s.plannedDepartureAt;
      r.status = 'active';
    }
  }
}

const replans: Array<{ at: string; ms: number; placed: number; of: number; status: string; moved: number; kept: number; solves: string; cpuMs: number; routes: string }> = [];
for (const batch of batches) {
  simNow = localMs(batch.at);
  // the vans move: stops whose departure has passed are confirmed then; each van's position now
  for (const r of await dayRoutes()) {
    const stops = r.stops;
    // a van whose planned departure has passed left then (the dispatcher starts its route)
    const depot = stops.find((s) => s.stopType === 'start_depot');
    if (r.status === 'planned' && depot?.plannedDepartureAt && Date.parse(depot.plannedDepartureAt) <= simNow) {
      await call('POST', `/api/internal/v1/routes/${r.id}/start`, { at: depot.plannedDepartureAt });
    }
    let last: DayStop | undefined;
    for (const s of stops) {
      if (s.stopType !== 'order' || s.status !== 'pending' || s.plannedDepartureAt === null || Date.parse(s.plannedDepartureAt) > simNow) continue;
      await call('POST', `/api/internal/v1/stops/${s.id}/status`, { status: 'confirmed', at: s.plannedDepartureAt });
      last = s;
    }
    const done = stops.filter((s) => s.stopType === 'order' && (s.status !== 'pending' || s === last));
    const from = done.at(-1) ?? (depot?.plannedDepartureAt && Date.parse(depot.plannedDepartureAt) <= simNow ? depot : undefined);
    // the stop after the one it left last (the list was read before this batch's confirmations)
    const next = from ? stops[stops.indexOf(from) + 1] : undefined;
    if (from && next && r.vehicleId !== null && from.plannedDepartureAt && next.plannedArrivalAt) {
      const f = Math.min(1, Math.max(0, (simNow - Date.parse(from.plannedDepartureAt)) / Math.max(1, Date.parse(next.plannedArrivalAt) - Date.parse(from.plannedDepartureAt))));
      await call('POST', `/api/internal/v1/vehicles/${r.vehicleId}/positions`, {
        lat: from.lat + (next.lat - from.lat) * f, lon: from.lon + (next.lon - from.lon) * f, timestamp: new Date(simNow - 1000).toISOString(),
      });
    }
  }
  const ids = await addOrders(batch.orders);
  for (const o of await port.planning.getOrdersByIds(company.id, ids)) ordersById.set(o.id, o);
  // the van of each pending stop before the re-plan (kept orders moved to another van, after it)
  // and the open routes (planned or active) with an order stop, from the same read
  const vanOf = async () => {
    const routes = await dayRoutes();
    const vans = new Map(routes.flatMap((r) => r.stops.filter((x) => x.stopType === 'order' && x.status === 'pending').map((x) => [x.orderId!, r.vehicleId] as const)));
    return { vans, routes: routes.filter((r) => r.stops.some((x) => x.stopType === 'order')).length };
  };
  const { vans: vansBefore, routes: routesBefore } = await vanOf();
  const solvesBefore = replanSolves.length;
  const t0 = performance.now();
  const cpu0 = cpuNow();
  const busyVan = (await dayRoutes())[0]?.vehicleId;
  const job = await wait((await call('POST', '/api/internal/v1/planning/replan', { date, order_ids: ids, ...(NO_NEW_ROUTES && busyVan ? { vehicle_ids: [busyVan] } : {}) })).job_id);
  const ms = performance.now() - t0;
  const cpuMs = cpuNow() - cpu0;
  const unassigned = job.status === 'done' ? (job.result as { unassigned: unknown[] }).unassigned.length : ids.length;
  const { vans: vansAfter, routes: routesAfter } = await vanOf();
  const moved = [...vansBefore].filter(([o, v]) => vansAfter.has(o) && vansAfter.get(o) !== v).length;
  replans.push({ at: batch.at, ms, placed: ids.length - unassigned, of: ids.length, status: job.status === 'done' ? 'done' : `failed: ${job.error}`, moved, kept: vansBefore.size,
    cpuMs,
    routes: `${routesBefore} -> ${routesAfter}`,
    solves: replanSolves.slice(solvesBefore).map((x) => `${x.orders} orders, ${x.iterations} iterations, ${x.ms.toFixed(0)} ms`).join('; ') });

  // greedy: each new order at its cheapest feasible place now, nothing else moved
  advanceGreedy(simNow);
  for (const id of ids) {
    const o = ordersById.get(id)!;
    const q = await quoteWithRoute(
      {
        companyId: company.id, timeZone: city.company.timezone, speedFactor: 1, date, now: clock().toISOString(),
        routes: greedy.filter((r) => r.status === 'planned' || r.status === 'active'), vehicles: planningVehicles, warehouses: planningWarehouses, positions: [],
        ordersOf: async (wanted) => wanted.map((w) => ordersById.get(w)!).filter((x) => x !== undefined),
        candidate: { lat: o.lat!, lon: o.lon!, weightKg: o.weightKg, volumeM3: o.volumeM3, serviceTimeMin: o.serviceTimeMin, timeWindowStart: o.timeWindowStart, timeWindowEnd: o.timeWindowEnd },
      },
      haversineProvider(),
    );
    if (!q.feasible || !q.rewrite) continue;
    greedyPlaced++;
    greedyAdded += q.added_km;
    const route = greedy.find((r) => r.id === q.route_id)!;
    const old = new Map(route.stops.map((s) => [s.id, s]));
    route.stops = q.rewrite.stops.map((s) => ({
      ...s,
      id: s.id ?? nextStopId--,
      orderId: s.orderId === 0 ? id : s.orderId,
      status: s.id !== undefined ? (old.get(s.id)?.status ?? 'pending') : 'pending',
      actualArrivalAt: s.id !== undefined ? (old.get(s.id)?.actualArrivalAt ?? null) : null,
      actualDepartureAt: s.id !== undefined ? (old.get(s.id)?.actualDepartureAt ?? null) : null,
    }));
    greedyKm.set(route.id, q.rewrite.plannedMileageKm);
  }
}
const dayKm = await kmOfDay();
const dayRouteCount = await routesOfDay();
const greedyTotal = [...greedyKm.values()].reduce((a, b) => a + b, 0);

// ---- every order known in the morning: the engine on all 500 with the morning job's budget
const { problem, context } = buildProblem({
  jobId: 0, companyId: 1, timeZone: city.company.timezone, date, orders: city.orders, vehicles: city.vehicles,
  warehouses: new Map(city.warehouses.map((w) => [w.id, w])), warehouseOverride: null,
});
// this thread's solver code compiled first, as the pool's was (--no-warm-up: not)
if (!NO_REFERENCE && !NO_WARM_UP && !CPU_CLOCK) solve(await warmUpProblem(), { timeLimit: WARM_UP_SEC, seed: SEED });
const allKnown = NO_REFERENCE ? { distance: NaN, routes: [], unassigned: [] } : solve({ ...problem, matrix: await haversineProvider()(context.points) }, { timeLimit: defaultBudgetSec(city.orders.length), seed: SEED }, CPU_CLOCK ? { now: cpuNow } : {});
const allKnownKm = allKnown.distance / 1000;

await app.close();
await jobs.close();
await pool.destroy?.();
await port.close();
rmSync(dir, { recursive: true, force: true });

const sorted = replans.map((r) => r.ms).sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
console.log(`city: ${city.orders.length} orders, ${earlyOrders.length} known at 06:00 (morning plan: ${morningKm.toFixed(1)} km, ${morningUnassigned} unassigned), ${lateOrders.length} late in ${BATCHES} batches`);
for (const r of replans) console.log(`  re-plan at ${r.at}: ${r.ms.toFixed(0)} ms (CPU ${r.cpuMs.toFixed(0)} ms), placed ${r.placed}/${r.of} (${r.status}), open routes ${r.routes}, kept stops moved to another van ${r.moved}/${r.kept}; solve: ${r.solves}`);
console.log(`kept stops moved to another van: ${replans.reduce((a, r) => a + r.moved, 0)} over the day`);
console.log(`re-plan time: p50 ${pct(0.5).toFixed(0)} ms, p95 ${pct(0.95).toFixed(0)} ms`);
const placed = replans.reduce((a, r) => a + r.placed, 0);
console.log(`km of the day, re-planned:      ${dayKm.toFixed(1)} km, ${dayRouteCount} routes, late orders placed ${placed}/${late.length}`);
console.log(`km, greedy insertion:           ${greedyTotal.toFixed(1)} km, late orders placed ${greedyPlaced}/${late.length}, the insertions' added km ${greedyAdded.toFixed(1)} (${(((dayKm - greedyTotal) / greedyTotal) * 100).toFixed(1)} % re-planned against it)`);
console.log(`km, all known in the morning:   ${allKnownKm.toFixed(1)} km, ${allKnown.routes.length} routes, ${city.orders.length - allKnown.unassigned.length}/${city.orders.length} placed (re-planned day ${(((dayKm - allKnownKm) / allKnownKm) * 100).toFixed(1)} % above it)`);
