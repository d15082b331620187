/**
 * An ETA quote (operations.md "Re-planning a day", POST /planning/quote): the cheapest feasible
 * place for one more order on a date's planned and active routes, changing nothing.
 *
 * Each route is its own small problem: the day in progress of that one vehicle (src/jobs/day.ts:
 * fixed stops, where and when the rest starts, breaks still to take), its pending stops in their
 * order, and the candidate. The engine's insertion evaluator (src/route/insertion.ts `bestInRoute`,
 * O(1) a position over the route's cached segments) finds the cheapest feasible position; the
 * route with the candidate there is exported and read back as the re-plan would write it (its
 * stop position and planned start of service). One problem of the whole day would cost a matrix
 * of every stop to every stop: 100 ms for 800 stops, measured; a route's is 40 x 40.
 */
import type { ProblemInput, RouteResult, SolveResult, UnassignedReason } from '../model/input.js';
import { buildProblem as buildEngineProblem, costModel } from '../model/problem.js';
import { scaleTravelTimes } from '../model/travel-time.js';
import { bestInRoute, newChoice } from '../route/insertion.js';
import { RouteProbe } from '../route/probe.js';
import { SearchSolution } from '../route/search-solution.js';
import { exportRoutes } from '../solver/result.js';
import { unassignedReason } from '../solver/reasons.js';
import { buildDayProblem, toDayOutcome } from './day.js';
import { relaxLateKept } from './replan.js';
import type { DayPosition, DayRoute, PlanningOrder, PlanningStore, PlanningVehicle, RouteRewrite, Warehouse } from './ports.js';
import type { MatrixProvider } from './problem.js';

export interface QuoteInput {
  companyId: number;
  timeZone: string;
  speedFactor: number;
  date: string;
  now: string;
  routes: DayRoute[];
  vehicles: PlanningVehicle[];
  warehouses: Map<number, Warehouse>;
  positions: DayPosition[];
  /** The orders on a route's pending stops (read only for the routes evaluated). */
  ordersOf: (ids: number[]) => Promise<PlanningOrder[]>;
  candidate: { lat: number; lon: number; weightKg: number; volumeM3: number; serviceTimeMin: number; timeWindowStart: string | null; timeWindowEnd: string | null };
}

export type Quote =
  | { feasible: true; route_id: number; position: number; eta: string; added_km: number; added_min: number }
  | { feasible: false; reason: UnassignedReason };

/** The candidate's id in the small problems (no order has id 0). */
const CANDIDATE = 0;

export async function quote(input: QuoteInput, matrixOf: MatrixProvider): Promise<Quote> {
  const { rewrite: _rewrite, problem: _problem, route: _route, ...answer } = await quoteWithRoute(input, matrixOf);
  return answer as Quote;
}

/**
 * The quote and, when feasible, the route as a re-plan would write it with the candidate (order
 * id 0) in its place: what a greedy insertion applies (bench/day.ts).
 */
export async function quoteWithRoute(
  input: QuoteInput,
  matrixOf: MatrixProvider,
): Promise<Quote & { rewrite?: RouteRewrite; problem?: ProblemInput; route?: RouteResult }> {
  const vehicles = new Map(input.vehicles.map((v) => [v.id, v]));
  const candidate: PlanningOrder = {
    id: CANDIDATE,
    companyId: input.companyId,
    externalId: null,
    status: 'new',
    address: '',
    lat: input.candidate.lat,
    lon: input.candidate.lon,
    weightKg: input.candidate.weightKg,
    volumeM3: input.candidate.volumeM3,
    serviceTimeMin: input.candidate.serviceTimeMin,
    timeWindowStart: input.candidate.timeWindowStart,
    timeWindowEnd: input.candidate.timeWindowEnd,
    deliveryDate: input.date,
  };
  const orders = new Map<number, PlanningOrder>([[CANDIDATE, candidate]]);
  let best: (Quote & { feasible: true; rewrite: RouteRewrite; problem: ProblemInput; route: RouteResult }) | undefined;
  let bestDelta = Infinity;
  let reason: UnassignedReason = 'no_vehicle';
  // Routes by a bound on what the candidate adds to them: the least straight-line detour over
  // their pending legs. On great-circle matrices (haversine, the default) the engine's distance is
  // that times the detour factor, so a route whose bound is above the best found cannot win and
  // is not evaluated; on road matrices the bound only orders the routes.
  const bounds = input.routes.map((route) => ({ route, bound: detourBound(route, input.candidate) })).sort((a, b) => a.bound - b.bound);
  let scale: number | undefined;
  for (const { route, bound } of bounds) {
    if (scale !== undefined && bound * scale >= bestDelta) break;
    const vehicle = route.vehicleId === null ? undefined : vehicles.get(route.vehicleId);
    if (!vehicle || !input.warehouses.has(vehicle.warehouseId)) continue;
    for (const o of await input.ordersOf(route.stops.filter((s) => s.orderId !== null && s.status === 'pending').map((s) => s.orderId!))) orders.set(o.id, o);
    const { problem: partial, context } = buildDayProblem({
      jobId: 0,
      companyId: input.companyId,
      timeZone: input.timeZone,
      date: input.date,
      now: input.now,
      routes: [route],
      vehicles: [vehicle],
      busy: new Set([vehicle.id]),
      warehouses: input.warehouses,
      positions: input.positions.filter((p) => p.vehicleId === vehicle.id),
      orders,
      fresh: [candidate],
    });
    const matrix = await matrixOf(context.points);
    if (matrix.kind === 'haversine') scale = (matrix.detourFactor ?? 1.3) * 0.999;
    // a van behind its plan serves the stops it can no longer make in time late (as a re-plan would)
    const problem: ProblemInput = relaxLateKept({ ...partial, matrix: scaleTravelTimes(matrix, input.speedFactor) });
    const p = buildEngineProblem(problem);
    const costs = costModel(p, 'distance');
    const sol = new SearchSolution(p, costs);
    const probe = new RouteProbe(p, costs);
    const r = sol.routes[0];
    const index = new Map(p.orderIds.map((id, i) => [id, i]));
    const o = index.get(String(CANDIDATE))!;
    sol.setRoute(
      r,
      problem.orders.filter((x) => x.currentVehicle !== undefined).map((x) => index.get(x.id)!),
    );
    const before = exportRoutes(p, sol)[0];
    const choice = bestInRoute(sol, probe, o, r, newChoice());
    if (choice.route === null || !Number.isFinite(choice.delta)) {
      reason = unassignedReason(sol, o, probe);
      continue;
    }
    sol.insert(o, r, choice.pos);
    const after = exportRoutes(p, sol)[0];
    if (!after.stops.some((s) => s.orderId === String(CANDIDATE))) continue;
    const addedKm = (after.distance - (before?.distance ?? 0)) / 1000;
    if (addedKm >= bestDelta) continue;
    const result: SolveResult = { routes: [after], distance: after.distance, duration: after.duration, vehicles: 1, unassigned: [], stats: { elapsedMs: 0, iterations: 0 } };
    const rewrite = toDayOutcome(result, context).rewrites[0];
    const written = rewrite.stops;
    const stop = written.find((s) => s.orderId === CANDIDATE)!;
    const minutes = (x: { start: number; end: number } | undefined) => (x ? (x.end - x.start) / 60 : 0);
    bestDelta = addedKm;
    best = {
      feasible: true,
      route_id: route.id,
      position: stop.position,
      eta: stop.plannedArrivalAt,
      added_km: Math.round(addedKm * 100) / 100,
      added_min: Math.round((minutes(after) - minutes(before)) * 10) / 10,
      rewrite,
      problem,
      route: after,
    };
  }
  return best ?? { feasible: false, reason };
}

/** What the quote endpoint asks (src/contract/dispatch.ts QuoteRequest, in the service's units). */
export interface QuoteAsk {
  date: string;
  lat: number;
  lon: number;
  weightKg?: number;
  volumeM3?: number;
  serviceTimeMin?: number;
  timeWindowStart?: string;
  timeWindowEnd?: string;
}

/** Reads the date's routes, vehicles, positions and orders from the planning port and quotes. */
export async function quoteFromStore(store: PlanningStore, matrixOf: MatrixProvider, companyId: number, ask: QuoteAsk, now: string): Promise<Quote> {
  const company = await store.getCompany(companyId);
  if (!company) return { feasible: false, reason: 'no_vehicle' };
  const routes = await store.openRoutesOn(companyId, ask.date);
  if (routes.length === 0) return { feasible: false, reason: 'no_vehicle' };
  const vehicleIds = routes.map((r) => r.vehicleId).filter((v): v is number => v !== null);
  const vehicles = (await store.getVehiclesByIds(companyId, vehicleIds)).filter((v) => v.active);
  const warehouses = new Map((await store.getWarehousesByIds(companyId, [...new Set(vehicles.map((v) => v.warehouseId))])).map((w) => [w.id, w]));
  const positions = await store.lastPositions(companyId, vehicleIds, new Date(Date.parse(now) + 5 * 60_000).toISOString());
  const clock = (t: string | undefined) => (t === undefined ? null : t.length === 5 ? `${t}:00` : t);
  return quote(
    {
      companyId,
      timeZone: company.timezone,
      speedFactor: company.speedFactor ?? 1,
      date: ask.date,
      now,
      routes,
      vehicles,
      warehouses,
      positions,
      ordersOf: async (ids) => store.getOrdersByIds(companyId, ids),
      candidate: {
        lat: ask.lat,
        lon: ask.lon,
        weightKg: ask.weightKg ?? 0,
        volumeM3: ask.volumeM3 ?? 0,
        serviceTimeMin: ask.serviceTimeMin ?? 10,
        timeWindowStart: clock(ask.timeWindowStart),
        timeWindowEnd: clock(ask.timeWindowEnd),
      },
    },
    matrixOf,
  );
}

/** Great-circle km between two points. */
function greatCircleKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The least straight-line detour (km) of the candidate over the route's legs after its last fixed stop. */
function detourBound(route: DayRoute, x: { lat: number; lon: number }): number {
  const stops = route.stops;
  let from = 0;
  for (let i = 0; i < stops.length; i++) if (stops[i].stopType === 'order' && stops[i].status !== 'pending') from = i;
  let best = Infinity;
  for (let i = from; i + 1 < stops.length; i++) {
    const a = stops[i];
    const b = stops[i + 1];
    best = Math.min(best, greatCircleKm(a, x) + greatCircleKm(x, b) - greatCircleKm(a, b));
  }
  // a van under way may start from a reported position: the detour from there is at least 0
  return route.status === 'active' ? Math.min(best, 0) : Math.max(0, best);
}
