/**
 * Builders for the engine's day features: breaks for every driver, and a day in progress cut
 * from a solved plan at a time `now` (what has been driven is fixed, the rest kept, new orders
 * added), as the service will hand them to the engine.
 */
import type { BreakInput, OrderInput, ProblemInput, SolveOptions, SolveResult } from '../../src/model/input.js';
import { lcg } from './problems.js';

/** Gives every vehicle the same breaks (windows on the problem's time axis). */
export function withBreaks(input: ProblemInput, breaks: BreakInput[]): ProblemInput {
  return { ...input, vehicles: input.vehicles.map((v) => ({ ...v, breaks: breaks.map((b) => ({ ...b })) })) };
}

/**
 * The day of `plan` at time `now`: a stop the van has left for (or reached) is fixed, with its
 * times; the rest of a started route goes on from its last fixed stop at that stop's departure
 * (the plan, so the kept routes stay feasible); breaks begun before `now` are dropped; the orders still
 * to serve are kept on their vehicles; `added` new orders come in. Returns the problem and the
 * warm start (the kept routes).
 */
export function dayAt(
  input: ProblemInput,
  plan: SolveResult,
  now: number,
  added: OrderInput[] = [],
): { problem: ProblemInput; initialRoutes: NonNullable<SolveOptions['initialRoutes']> } {
  const byId = new Map(input.orders.map((o) => [o.id, o]));
  const routes = new Map(plan.routes.map((r) => [r.vehicleId, r]));
  const orders: OrderInput[] = [];
  const initialRoutes: NonNullable<SolveOptions['initialRoutes']> = [];
  const vehicles = input.vehicles.map((v) => {
    const r = routes.get(v.id);
    if (r === undefined || r.start > now) {
      // not left yet: its orders are kept, its day starts when it can
      for (const s of r?.stops ?? []) orders.push({ ...byId.get(s.orderId)!, currentVehicle: v.id });
      if (r) initialRoutes.push({ vehicleId: v.id, orderIds: r.stops.map((s) => s.orderId) });
      return { ...v };
    }
    // the van left for every stop whose predecessor it has left by now
    let fixed = 1;
    while (fixed < r.stops.length && r.stops[fixed - 1].departure <= now) fixed++;
    const last = r.stops[fixed - 1];
    const rest = r.stops.slice(fixed);
    for (const s of rest) orders.push({ ...byId.get(s.orderId)!, currentVehicle: v.id });
    initialRoutes.push({ vehicleId: v.id, orderIds: rest.map((s) => s.orderId) });
    // (breaks are told apart by id: give them ids)
    const taken = new Set((r.breaks ?? []).filter((b) => b.after < fixed || b.start < now).map((b) => b.id));
    const breaks = (v.breaks ?? []).filter((b) => !taken.has(b.id));
    return {
      ...v,
      ...(v.breaks ? { breaks } : {}),
      progress: {
        fixedStops: r.stops.slice(0, fixed).map((s) => ({ orderId: s.orderId, location: s.location, arrival: s.arrival, start: s.start, departure: s.departure })),
        start: { location: last.location, time: Math.max(last.departure, now) },
        departedAt: r.start,
      },
    };
  });
  for (const u of plan.unassigned) orders.push({ ...byId.get(u.orderId)! });
  return { problem: { ...input, vehicles, orders: [...orders, ...added], now }, initialRoutes };
}

/** `n` new orders on the plane of a random problem (euclidean coordinates appended), windows after `from`. */
export function newOrders(input: ProblemInput, n: number, from: number, seed: number): { problem: ProblemInput; added: OrderInput[] } {
  if (input.matrix.kind !== 'euclidean') throw new Error('newOrders: euclidean problems only');
  const rnd = lcg(seed);
  const coordinates = input.matrix.coordinates.slice();
  const added: OrderInput[] = [];
  for (let i = 0; i < n; i++) {
    coordinates.push([Math.round(rnd() * 100), Math.round(rnd() * 100)]);
    const start = from + Math.round(rnd() * 300);
    added.push({ id: `new${i + 1}`, location: coordinates.length - 1, weight: 1 + Math.floor(rnd() * 10), volume: 0.5, serviceTime: 5, timeWindow: [start, start + 150] });
  }
  return { problem: { ...input, matrix: { ...input.matrix, coordinates } }, added };
}
