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
import type { ProblemInput, SolveResult, UnassignedReason } from '../model/input.js';
import { buildProblem as buildEngineProblem, costModel } from '../model/problem.js';
import { scaleTravelTimes } from '../model/travel-time.js';
import { bestInRoute, newChoice } from '../route/insertion.js';
import { RouteProbe } from '../route/probe.js';
import { SearchSolution } from '../route/search-solution.js';
import { exportRoutes } from '../solver/result.js';
import { unassignedReason } from '../solver/reasons.js';
import { buildDayProblem, toDayOutcome } from './day.js';
import type { DayPosition, DayRoute, PlanningOrder, PlanningStore, PlanningVehicle, Warehouse } from './ports.js';
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
  /** The orders on the routes' stops. */
  orders: Map<number, PlanningOrder>;
  candidate: { lat: number; lon: number; weightKg: number; volumeM3: number; serviceTimeMin: number; timeWindowStart: string | null; timeWindowEnd: string | null };
}

export type Quote =
  | { feasible: true; route_id: number; position: number; eta: string; added_km: number; added_min: number }
  | { feasible: false; reason: UnassignedReason };

/** The candidate's id in the small problems (no order has id 0). */
const CANDIDATE = 0;

export async function quote(input: QuoteInput, matrixOf: MatrixProvider): Promise<Quote> {
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
  const orders = new Map(input.orders).set(CANDIDATE, candidate);
  let best: (Quote & { feasible: true }) | undefined;
  let bestDelta = Infinity;
  let reason: UnassignedReason = 'no_vehicle';
  for (const route of input.routes) {
    const vehicle = route.vehicleId === null ? undefined : vehicles.get(route.vehicleId);
    if (!vehicle || !input.warehouses.has(vehicle.warehouseId)) continue;
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
    const problem: ProblemInput = { ...partial, matrix: scaleTravelTimes(await matrixOf(context.points), input.speedFactor) };
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
    const written = toDayOutcome(result, context).rewrites[0].stops;
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
  const orderIds = routes.flatMap((r) => r.stops.filter((s) => s.orderId !== null && s.status === 'pending').map((s) => s.orderId!));
  const orders = new Map((await store.getOrdersByIds(companyId, orderIds)).map((o) => [o.id, o]));
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
      orders,
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
