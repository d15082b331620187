/**
 * A day in progress (operations.md "Re-planning a day"): the date's planned and active routes, the
 * vehicles' last positions and the new orders -> the engine's problem (src/model/input.ts: fixed
 * prefixes, starts, kept orders, breaks still to take, `now`), and the engine's answer -> the
 * routes rewritten (kept stops keep their ids), new routes for free vehicles, the orders placed,
 * unassigned or sent back to `new`. Pure: no store, no clock.
 *
 * - Fixed stops: order stops `in_progress`, `visited`, `confirmed`, `rejected` or `skipped`; they
 *   come first on their route, in their order, with their times (actual ones when reported).
 * - The rest of a route that has started (status active, or a fixed stop) starts after its last
 *   fixed stop, or at the vehicle's last reported position when that is newer, never before now.
 * - Pending order stops are kept orders (`currentVehicle`): they may move to another route, never
 *   be dropped. Those of an unavailable vehicle (from `from` on) are not kept: placed elsewhere
 *   when they fit, else they go back to `new`.
 * - A break of the vehicle counts as taken when the route's planned break of the same rank began
 *   before now; breaks whose window closed before now are not asked for any more.
 */
import type { FixedStopInput, OrderInput, ProblemInput, RouteResult, SolveResult, UnassignedReason, VehicleInput } from '../model/input.js';
import type { DayPosition, DayRoute, DayStop, NewStop, ReplanCommit, PlanningOrder, PlanningVehicle, RewrittenStop, RouteRewrite, Warehouse } from './ports.js';
import { buildProblem, routeFigures } from './problem.js';
import { DayAxis } from './time.js';

const FIXED = new Set(['in_progress', 'visited', 'confirmed', 'rejected', 'skipped']);
const FINAL = new Set(['confirmed', 'rejected', 'skipped']);

/** What a re-plan of one date reads. */
export interface DayInput {
  jobId: number;
  companyId: number;
  timeZone: string;
  date: string;
  /** The re-plan's now (UTC). */
  now: string;
  /** The date's planned and active routes. */
  routes: DayRoute[];
  /** Active vehicles of the company. */
  vehicles: PlanningVehicle[];
  /** Vehicles with a route (any status but cancelled) on the date. */
  busy: Set<number>;
  /** Free vehicles allowed new routes (absent: every free one). */
  allowFree?: Set<number>;
  warehouses: Map<number, Warehouse>;
  positions: DayPosition[];
  /** Every order on a stop of `routes` (any status), and the new ones. */
  orders: Map<number, PlanningOrder>;
  /** New orders to place (status new, coordinates known). */
  fresh: PlanningOrder[];
  unavailable?: { vehicleId: number; from: string };
  keptMoveCost?: number;
  /** What share of keptMoveCost each kept order pays to move (default: all of it, every order). */
  keptMoveRule?: KeptMoveRule;
}

/**
 * The share of `keptMoveCost` a kept order pays to move to another van (the engine's
 * OrderInput.keptMoveWeight): `notStarted` on a route whose van has not left (its parcel is not
 * loaded), else 1 for a stop planned to start within `horizonSec` of now, `beyond` after that.
 */
export interface KeptMoveRule {
  notStarted: number;
  horizonSec: number;
  beyond: number;
}

interface RoutePlan {
  route: DayRoute;
  vehicle: PlanningVehicle | undefined;
  /** Order stops fixed in place, in route order. */
  fixed: DayStop[];
  /** Pending order stops kept on the vehicle (re-planned). */
  kept: DayStop[];
  /** Pending order stops left untouched (an unavailable vehicle's stops before `from`). */
  stay: DayStop[];
  /** Pending order stops that must leave (an unavailable or missing vehicle). */
  displaced: DayStop[];
  started: boolean;
}

export interface DayContext {
  input: DayInput;
  axis: DayAxis;
  points: Array<[number, number]>;
  plans: RoutePlan[];
  /** Order id -> its pending stop now (kept and displaced), for stop ids to carry over. */
  pendingStop: Map<number, DayStop>;
  /** Orders displaced from an unavailable vehicle (back to new when unplaced). */
  displaced: Set<number>;
}

const fixedId = (stopId: number) => `s${stopId}`;

/** The engine's problem of the day (without its matrix) and what is needed to read its answer. */
export function buildDayProblem(input: DayInput): { problem: Omit<ProblemInput, 'matrix'>; context: DayContext } {
  const axis = new DayAxis(input.timeZone, input.date);
  const t = (utc: string) => (Date.parse(utc) - axis.midnightMs) / 1000;
  const now = t(input.now);
  const vehicleById = new Map(input.vehicles.map((v) => [v.id, v]));
  const plans: RoutePlan[] = input.routes.map((route) => {
    const out = route.vehicleId === input.unavailable?.vehicleId;
    const vehicle = out || route.vehicleId === null ? undefined : vehicleById.get(route.vehicleId);
    const orderStops = route.stops.filter((s) => s.stopType === 'order');
    const fixed = orderStops.filter((s) => FIXED.has(s.status));
    const pending = orderStops.filter((s) => s.status === 'pending');
    const from = out ? t(input.unavailable!.from) : -Infinity;
    const stay = out ? pending.filter((s) => s.plannedArrivalAt !== null && t(s.plannedArrivalAt) < from) : [];
    const leaving = pending.filter((s) => !stay.includes(s));
    return {
      route,
      vehicle,
      fixed,
      kept: vehicle ? leaving : [],
      stay,
      displaced: vehicle ? [] : leaving,
      started: route.status === 'active' || fixed.length > 0,
    };
  });
  // the engine's vehicles: those of the routes (in route order), then the free ones
  const taken = new Set(plans.filter((p) => p.vehicle).map((p) => p.vehicle!.id));
  const free = input.vehicles.filter(
    (v) => !input.busy.has(v.id) && !taken.has(v.id) && v.id !== input.unavailable?.vehicleId && (input.allowFree === undefined || input.allowFree.has(v.id)),
  );
  const fleet = [...plans.filter((p) => p.vehicle).map((p) => p.vehicle!), ...free];
  const wanted = new Set(fleet.map((v) => v.warehouseId));
  const warehouses = new Map([...input.warehouses].filter(([id]) => wanted.has(id)));
  // the plain problem of these vehicles and orders: depots, shifts, capacities, windows, breaks
  const rule = input.keptMoveRule;
  const weightOf = (plan: RoutePlan, s: DayStop): number => {
    if (!rule) return 1;
    if (!plan.started) return rule.notStarted;
    return s.plannedArrivalAt !== null && t(s.plannedArrivalAt) > now + rule.horizonSec ? rule.beyond : 1;
  };
  const keptOrders = plans.flatMap((p) => p.kept.map((s) => ({ order: input.orders.get(s.orderId!)!, vehicle: p.vehicle!.id, weight: weightOf(p, s) })));
  const displacedOrders = plans.flatMap((p) => p.displaced.map((s) => input.orders.get(s.orderId!)!));
  const all = [...keptOrders.map((k) => k.order), ...displacedOrders, ...input.fresh];
  const { problem, context } = buildProblem({
    jobId: input.jobId,
    companyId: input.companyId,
    timeZone: input.timeZone,
    date: input.date,
    orders: all,
    vehicles: fleet,
    warehouses,
    warehouseOverride: null,
  });
  const points = context.points;
  const at = (lat: number, lon: number) => {
    points.push([lat, lon]);
    return points.length - 1;
  };
  const keptOn = new Map(keptOrders.map((k) => [String(k.order.id), k]));
  const orders: OrderInput[] = problem.orders.map((o) => {
    const k = keptOn.get(o.id);
    if (!k) return o;
    return k.weight === 1 ? { ...o, currentVehicle: String(k.vehicle) } : { ...o, currentVehicle: String(k.vehicle), keptMoveWeight: k.weight };
  });
  const positions = new Map(input.positions.map((p) => [p.vehicleId, p]));
  const planOf = new Map(plans.filter((p) => p.vehicle).map((p) => [String(p.vehicle!.id), p]));
  const vehicles = problem.vehicles.map((v): VehicleInput => {
    const plan = planOf.get(v.id);
    let breaks = v.breaks;
    let progress: VehicleInput['progress'];
    if (plan) {
      // breaks the driver has taken (their planned break began before now) are not asked again
      const planned = plan.route.breaks;
      breaks = breaks?.filter((_, k) => !(planned[k] !== undefined && t(planned[k].start) < now));
    }
    if (plan?.started) {
      const depot = plan.route.stops.find((s) => s.stopType === 'start_depot');
      const fixedStops: FixedStopInput[] = plan.fixed.map((s) => {
        const arrival = t(s.actualArrivalAt ?? s.plannedArrivalAt ?? s.actualDepartureAt ?? input.now);
        const departure = Math.max(arrival, t(s.actualDepartureAt ?? s.plannedDepartureAt ?? s.actualArrivalAt ?? input.now));
        return { orderId: fixedId(s.id), location: at(s.lat, s.lon), arrival, start: arrival, departure };
      });
      const departedAt = plan.route.actualStartAt !== null ? t(plan.route.actualStartAt) : depot?.plannedDepartureAt ? t(depot.plannedDepartureAt) : now;
      const last = fixedStops.at(-1);
      const lastStop = plan.fixed.at(-1);
      // the rest of the route is driven in the vehicle's shift: a route started early (a stop
      // confirmed before its day, or before the shift opens) goes on when the shift opens
      const opens = Math.max(now, v.shift[0]);
      let start = last
        ? { location: last.location, time: Math.max(last.departure, opens) }
        : { location: problem.depots.find((d) => d.id === v.startDepot)!.location, time: Math.max(departedAt, opens) };
      const position = positions.get(plan.vehicle!.id);
      // a position reported after the last fixed stop was left says where the van is now
      if (position && t(position.timestamp) > (last?.departure ?? departedAt) && lastStop?.status !== 'in_progress') {
        start = { location: at(position.lat, position.lon), time: Math.max(t(position.timestamp), opens) };
      }
      progress = { fixedStops, start, departedAt: Math.min(departedAt, fixedStops[0]?.arrival ?? departedAt, start.time) };
    }
    const from = Math.max(progress?.start.time ?? -Infinity, now);
    breaks = breaks?.filter((b) => b.window[1] >= from);
    const out: VehicleInput = { ...v };
    if (breaks && breaks.length > 0) out.breaks = breaks;
    else delete out.breaks;
    if (progress) out.progress = progress;
    return out;
  });
  const pendingStop = new Map<number, DayStop>();
  for (const p of plans) for (const s of [...p.kept, ...p.displaced]) pendingStop.set(s.orderId!, s);
  return {
    problem: { ...problem, name: `re-plan job ${input.jobId} ${input.date}`, vehicles, orders, now, ...(input.keptMoveCost ? { keptMoveCost: input.keptMoveCost } : {}) },
    context: { input, axis, points, plans, pendingStop, displaced: new Set(displacedOrders.map((o) => o.id)) },
  };
}

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

/** The commit's content of a day re-planned (src/jobs/commit.ts commitReplan). */
export interface DayOutcome {
  rewrites: RouteRewrite[];
  changed: number[];
  newRoutes: ReplanCommit['newRoutes'];
  placed: number[];
  backToNew: Array<{ id: number; externalId: string | null }>;
  unassigned: Array<{ order_id: number; reason: UnassignedReason }>;
}

/** A kept order the engine left out (no route could take it): the re-plan fails rather than drop it. */
export class KeptOrderDroppedError extends Error {
  constructor(readonly orderIds: number[]) {
    super(`Orders on a route now fit on no route of the day any more: ${orderIds.join(', ')}. Nothing was changed.`);
  }
}

/** The engine's answer -> the routes of the day rewritten and the new ones. */
export function toDayOutcome(result: SolveResult, context: DayContext): DayOutcome {
  const { input, axis, plans, pendingStop, displaced } = context;
  const utc = (x: number) => axis.toUtc(x);
  const byVehicle = new Map(result.routes.map((r) => [r.vehicleId, r]));
  const dropped = result.unassigned.map((u) => Number(u.orderId)).filter((id) => pendingStop.has(id) && !displaced.has(id));
  if (dropped.length > 0) throw new KeptOrderDroppedError(dropped.sort((a, b) => a - b));

  const orderStop = (o: PlanningOrder, arrival: string, departure: string): NewStop => ({
    position: 0,
    stopType: 'order',
    orderId: o.id,
    orderExternalId: o.externalId,
    warehouseId: null,
    address: o.address,
    lat: o.lat!,
    lon: o.lon!,
    plannedArrivalAt: arrival,
    plannedDepartureAt: departure,
  });
  const depotStop = (w: Warehouse, stopType: NewStop['stopType'], arrival: string, departure = arrival): NewStop => ({
    position: 0,
    stopType,
    orderId: null,
    orderExternalId: null,
    warehouseId: w.id,
    address: w.address,
    lat: w.lat,
    lon: w.lon,
    plannedArrivalAt: arrival,
    plannedDepartureAt: departure,
  });
  /** The engine route's stops after its fixed ones, with reloads, as stops (kept ids carried over). */
  const tail = (r: RouteResult, w: Warehouse, oldMid: DayStop[]): RewrittenStop[] => {
    const out: RewrittenStop[] = [];
    const reloads = r.reloads ?? [];
    let next = 0;
    let mid = 0;
    for (let k = r.fixed ?? 0; k < r.stops.length; k++) {
      while (next < reloads.length && reloads[next].after === k) {
        const x = reloads[next++];
        const old = oldMid[mid++];
        out.push({ ...depotStop(w, 'mid_depot', utc(x.arrival), utc(x.departure)), ...(old ? { id: old.id } : {}) });
      }
      const s = r.stops[k];
      const id = Number(s.orderId);
      const was = pendingStop.get(id);
      out.push({ ...orderStop(input.orders.get(id)!, utc(s.start), utc(s.departure)), ...(was ? { id: was.id } : {}) });
    }
    while (next < reloads.length) {
      const x = reloads[next++];
      const old = oldMid[mid++];
      out.push({ ...depotStop(w, 'mid_depot', utc(x.arrival), utc(x.departure)), ...(old ? { id: old.id } : {}) });
    }
    return out;
  };
  const keep = (s: DayStop): RewrittenStop => ({
    id: s.id,
    position: 0,
    stopType: s.stopType,
    orderId: s.orderId,
    orderExternalId: s.orderExternalId,
    warehouseId: s.warehouseId,
    address: s.address,
    lat: s.lat,
    lon: s.lon,
    plannedArrivalAt: s.plannedArrivalAt ?? '',
    plannedDepartureAt: s.plannedDepartureAt ?? '',
  });
  const totals = (stops: RewrittenStop[]) => {
    let weight = 0;
    let volume = 0;
    for (const s of stops) {
      if (s.orderId === null) continue;
      const o = input.orders.get(s.orderId);
      weight += o?.weightKg ?? 0;
      volume += o?.volumeM3 ?? 0;
    }
    return { totalWeightKg: round(weight, 3), totalVolumeM3: round(volume, 3) };
  };
  const breaksOf = (r: RouteResult | undefined, plan: RoutePlan | undefined) => {
    const planned = plan?.route.breaks ?? [];
    const now = (Date.parse(input.now) - axis.midnightMs) / 1000;
    const taken = planned.filter((b) => (Date.parse(b.start) - axis.midnightMs) / 1000 < now);
    return [...taken, ...(r?.breaks ?? []).map((b) => ({ start: utc(b.start), end: utc(b.end) }))];
  };

  const rewrites: RouteRewrite[] = [];
  const changed: number[] = [];
  for (const plan of plans) {
    const stops = plan.route.stops;
    const startDepot = stops.find((s) => s.stopType === 'start_depot');
    const endDepot = stops.find((s) => s.stopType === 'end_depot');
    const oldMid = stops.filter((s) => s.stopType === 'mid_depot' && s.status === 'pending');
    const doneMid = stops.filter((s) => s.stopType === 'mid_depot' && s.status !== 'pending');
    const r = plan.vehicle ? byVehicle.get(String(plan.vehicle.id)) : undefined;
    const w = input.warehouses.get(startDepot?.warehouseId ?? plan.vehicle?.warehouseId ?? -1) ?? (plan.vehicle ? input.warehouses.get(plan.vehicle.warehouseId) : undefined);
    let list: RewrittenStop[];
    let mileage: number;
    let duration: number;
    if (r && r.stops.length > (r.fixed ?? 0) && w) {
      const start = startDepot ? keep(startDepot) : depotStop(w, 'start_depot', utc(r.start));
      if (!plan.started) {
        start.plannedArrivalAt = utc(r.start);
        start.plannedDepartureAt = utc(r.start);
      }
      const end = { ...depotStop(w, 'end_depot', utc(r.end)), ...(endDepot ? { id: endDepot.id } : {}) };
      list = [start, ...doneMid.map(keep), ...plan.fixed.map(keep), ...tail(r, w, oldMid), end];
      ({ plannedMileageKm: mileage, plannedDurationMin: duration } = routeFigures(r));
    } else {
      // nothing left to plan on this route: its fixed stops (and those staying) only
      const rest = [...plan.fixed, ...plan.stay].sort((a, b) => a.position - b.position);
      // the way back to the depot is timed again when the engine planned it (from where the van is)
      const back = endDepot ? keep(endDepot) : undefined;
      if (back && r && plan.stay.length === 0) back.plannedArrivalAt = back.plannedDepartureAt = utc(r.end);
      list = [...(startDepot ? [keep(startDepot)] : []), ...doneMid.map(keep), ...rest.map(keep), ...(back ? [back] : [])];
      ({ plannedMileageKm: mileage, plannedDurationMin: duration } = r ? routeFigures(r) : { plannedMileageKm: 0, plannedDurationMin: 0 });
      if (!r && w && plan.stay.length === 0) {
        // the unavailable van's route: the kilometres and minutes it has done
        mileage = 0;
        duration = 0;
      }
    }
    list.forEach((s, i) => (s.position = i + 1));
    const orderStops = list.filter((s) => s.stopType === 'order');
    const status: RouteRewrite['status'] =
      orderStops.length === 0 ? 'cancelled' : orderStops.every((s) => FINAL.has(stops.find((x) => x.id === s.id)?.status ?? 'pending')) ? 'completed' : undefined;
    const before = stops.map((s) => s.id).join(',');
    const after = list.map((s) => s.id ?? 'new').join(',');
    if (before !== after) changed.push(plan.route.id);
    rewrites.push({
      routeId: plan.route.id,
      stops: list,
      ...(status ? { status } : {}),
      plannedMileageKm: mileage,
      plannedDurationMin: Math.max(0, duration),
      ...totals(list),
      breaks: breaksOf(r, plan),
    });
  }

  // routes of free vehicles
  const routeVehicles = new Set(plans.filter((p) => p.vehicle).map((p) => String(p.vehicle!.id)));
  const vehicles = new Map(input.vehicles.map((v) => [String(v.id), v]));
  const newRoutes: DayOutcome['newRoutes'] = [];
  for (const r of result.routes) {
    if (routeVehicles.has(r.vehicleId) || r.stops.length === 0) continue;
    const vehicle = vehicles.get(r.vehicleId)!;
    const w = input.warehouses.get(vehicle.warehouseId)!;
    // a kept stop moved here keeps its id (commitReplan inserts the route, then writes its stops)
    const list: RewrittenStop[] = [depotStop(w, 'start_depot', utc(r.start)), ...tail(r, w, []), depotStop(w, 'end_depot', utc(r.end))];
    list.forEach((s, i) => (s.position = i + 1));
    newRoutes.push({
      jobId: input.jobId,
      companyId: input.companyId,
      vehicleId: vehicle.id,
      name: `${input.date} ${vehicle.name}`,
      date: input.date,
      ...routeFigures(r),
      ...totals(list),
      stops: list,
      ...(r.breaks && r.breaks.length > 0 ? { breaks: breaksOf(r, undefined) } : {}),
    });
  }
  const freshIds = new Set(input.fresh.map((o) => o.id));
  const placedIds = new Set(result.routes.flatMap((r) => r.stops.slice(r.fixed ?? 0).map((s) => Number(s.orderId))));
  const placed = [...freshIds].filter((id) => placedIds.has(id)).sort((a, b) => a - b);
  const backToNew = [...displaced]
    .filter((id) => !placedIds.has(id))
    .sort((a, b) => a - b)
    .map((id) => ({ id, externalId: input.orders.get(id)!.externalId }));
  const unassigned = result.unassigned
    .map((u) => ({ order_id: Number(u.orderId), reason: u.reason }))
    .filter((u) => freshIds.has(u.order_id) || displaced.has(u.order_id))
    .sort((a, b) => a.order_id - b.order_id);
  return { rewrites, changed, newRoutes, placed, backToNew, unassigned };
}

/**
 * Room kept for orders that come during the day (`serve --shift-reserve-min`, docs/day.md): a
 * planning job plans each van's route to end `reserveSec` before its shift ends, so that the
 * re-plans of the day (which have the whole shift) find time on vans already out for the late
 * orders instead of sending a van back out or a long detour. A van never loses more than half its
 * shift to it, and never a break it could still take. 0: the whole shift (the default).
 */
export function withShiftReserve<P extends Pick<ProblemInput, 'vehicles'>>(problem: P, reserveSec: number): P {
  if (!(reserveSec > 0)) return problem;
  const vehicles = problem.vehicles.map((v): VehicleInput => {
    const [start, end] = v.shift;
    const breaksNeed = Math.max(-Infinity, ...(v.breaks ?? []).map((b) => b.window[0] + b.duration));
    const cut = Math.max(end - reserveSec, start + (end - start) / 2, breaksNeed);
    return cut >= end ? v : { ...v, shift: [start, cut] };
  });
  return { ...problem, vehicles };
}

/**
 * The plan with a shift reserve left orders out that only the reserve could take: the problem
 * with whole shifts, warm-started from that plan (its routes as kept orders that move freely), so
 * that the search places the rest and keeps the routes found (src/jobs/plan-date.ts).
 */
export function warmWithWholeShifts(problem: ProblemInput, reserved: SolveResult): ProblemInput {
  const at = new Map<string, { vehicle: string; k: number }>();
  for (const r of reserved.routes) r.stops.forEach((s, k) => at.set(s.orderId, { vehicle: r.vehicleId, k }));
  const orders = problem.orders
    .map((o, i) => ({ o, i, a: at.get(o.id) }))
    .sort((x, y) => (x.a?.k ?? Infinity) - (y.a?.k ?? Infinity) || x.i - y.i)
    .map(({ o, a }) => (a ? { ...o, currentVehicle: a.vehicle, keptMoveWeight: 0 } : o));
  return { ...problem, orders };
}
