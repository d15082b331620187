/**
 * An independent feasibility checker. It recomputes everything from the raw ProblemInput and the
 * reported SolveResult and imports nothing from the solver: its own matrix arithmetic, its own
 * schedule simulation. Returns a list of problems found (empty when the solution is valid).
 *
 * Trips: a route's `reloads` split its stops into trips. Each reload is at the vehicle's start
 * depot, after at least one order of its trip and before at least one of the next (no empty
 * trip), lasts the vehicle's reload time, and there are at most maxTrips - 1 of them. The load
 * holds per trip (it resets at each reload) and each stop reports what is left of its own trip.
 *
 * Breaks: a used vehicle with breaks reports each once (by id, or in input order without ids), of its length, starting
 * inside its window, after the stop it follows (`after`) has been served and with time left on
 * that arc to drive it: the next arrival is no earlier than the departure plus the drive plus the
 * breaks taken on the way. A day in progress: a vehicle's fixed stops open its route unchanged
 * (ids, places, times), the rest leaves from its start no earlier than the start time and `now`,
 * no break comes before the end of the fixed stops, and no kept order (`currentVehicle`) is left
 * unassigned.
 */
import turfDistance from '@turf/distance';
import { DEFAULT_TRAVEL_CURVE } from '../../src/model/travel-time.js';
import type { ProblemInput, SolveResult } from '../../src/model/input.js';

const TOL = 1e-6;
/**
 * The tolerance of a time comparison against `limit`: TOL relative to the time (0.04 s at 11:00 in
 * seconds of the day). A haversine matrix's times are 32-bit floats (docs/engine.md): this checker
 * writes the travel curve out again, and its arithmetic may land a 32-bit unit away on an arc (at
 * most 2^-23 of it), which adds up along a route; an absolute 1e-6 would flag a route that waits
 * exactly until a window's end.
 */
const tolAt = (limit: number) => TOL * Math.max(1, Math.abs(limit));

function arcs(p: ProblemInput): (i: number, j: number) => { d: number; t: number } | null {
  const m = p.matrix;
  if (m.kind === 'euclidean') {
    return (i, j) => {
      const [xi, yi] = m.coordinates[i];
      const [xj, yj] = m.coordinates[j];
      let d = Math.hypot(xi - xj, yi - yj);
      if (i === j) d = 0;
      if (m.rounding === 'trunc1') d = Math.floor(d * 10 + 1e-9) / 10;
      return { d, t: d / (m.speed ?? 1) };
    };
  }
  if (m.kind === 'haversine') {
    return (i, j) => {
      const [la1, lo1] = m.coordinates[i];
      const [la2, lo2] = m.coordinates[j];
      // each value rounded to a 32-bit float, as documented (docs/engine.md, model/matrix.ts)
      const d = i === j ? 0 : Math.fround(turfDistance([lo1, la1], [lo2, la2], { units: 'meters' }) * (m.detourFactor ?? 1.3));
      // the travel curve written out again (model/travel-time.ts), so that a slip there shows here
      const { townKmh, roadKmh, transitionM } = DEFAULT_TRAVEL_CURVE;
      const curve = d / (roadKmh / 3.6) + transitionM * (3.6 / townKmh - 3.6 / roadKmh) * (1 - Math.exp(-d / transitionM));
      const t = m.speedKmh === undefined ? curve : d / (m.speedKmh / 3.6);
      return { d, t: Math.fround(t * (m.timeFactor ?? 1)) };
    };
  }
  return (i, j) => {
    if (i === j) return { d: 0, t: 0 };
    const d = m.distance[i][j];
    const t = m.duration[i][j];
    return d === null || t === null ? null : { d, t };
  };
}

const near = (a: number, b: number) => Math.abs(a - b) <= TOL * Math.max(1, Math.abs(a), Math.abs(b));

export function checkSolution(p: ProblemInput, r: SolveResult): string[] {
  const errs: string[] = [];
  const arc = arcs(p);
  const orders = new Map(p.orders.map((o) => [o.id, o]));
  const vehicles = new Map(p.vehicles.map((v) => [v.id, v]));
  const depots = new Map(p.depots.map((d) => [d.id, d.location]));
  const seen = new Map<string, number>();
  const usedVehicles = new Set<string>();
  let total = 0;
  let totalDur = 0;
  r.routes.forEach((route, ri) => {
    const where = `route ${ri} (${route.vehicleId})`;
    const v = vehicles.get(route.vehicleId);
    if (!v) {
      errs.push(`${where}: unknown vehicle`);
      return;
    }
    if (usedVehicles.has(v.id)) errs.push(`${where}: vehicle used twice`);
    usedVehicles.add(v.id);
    if (route.stops.length === 0) errs.push(`${where}: empty route reported`);
    const features = new Set(v.features ?? []);
    let loc = depots.get(v.startDepot)!;
    let t = route.start;
    if (t < v.shift[0] - tolAt(v.shift[0])) errs.push(`${where}: starts ${t} before the shift ${v.shift[0]}`);
    let dist = 0;
    // a day in progress: the fixed stops as given, then the rest from the vehicle's start
    const fixed = v.progress?.fixedStops ?? [];
    if (v.progress === undefined && p.now !== undefined && t < p.now - tolAt(p.now)) errs.push(`${where}: starts ${t} before now ${p.now}`);
    if (v.progress !== undefined) {
      if (route.fixed !== fixed.length) errs.push(`${where}: reports ${route.fixed} fixed stops, the vehicle has ${fixed.length}`);
      fixed.forEach((f, k) => {
        const s = route.stops[k];
        if (!s || s.orderId !== f.orderId || s.location !== f.location || s.arrival !== f.arrival || s.start !== f.start || s.departure !== f.departure)
          errs.push(`${where}: fixed stop ${k} (${f.orderId}) changed`);
        const a = arc(loc, f.location);
        if (a) dist += a.d;
        loc = f.location;
        if (s && !near(s.distance, dist)) errs.push(`${where}: fixed stop ${f.orderId} distance reported ${s.distance}, recomputed ${dist}`);
      });
      const a = arc(loc, v.progress.start.location);
      if (a) dist += a.d;
      loc = v.progress.start.location;
      const first = fixed[0];
      const departedAt = v.progress.departedAt ?? (first ? first.arrival - (arc(depots.get(v.startDepot)!, first.location)?.t ?? 0) : v.progress.start.time);
      if (!near(route.start, departedAt)) errs.push(`${where}: start reported ${route.start}, the route left at ${departedAt}`);
      t = Math.max(v.progress.start.time, p.now ?? -Infinity);
    } else if (route.fixed !== undefined) errs.push(`${where}: reports fixed stops for a vehicle not under way`);
    // breaks: each once, of its length, inside its window, in order after the fixed stops
    const wanted = v.breaks ?? [];
    const taken = route.breaks ?? [];
    if (route.breaks !== undefined && taken.length === 0) errs.push(`${where}: empty breaks list reported`);
    if (taken.length !== wanted.length) errs.push(`${where}: ${taken.length} breaks taken, the driver has ${wanted.length}`);
    // matched by id when the breaks have ids, else in input order
    const byId = wanted.every((w) => w.id !== undefined);
    if (byId && new Set(taken.map((b) => b.id)).size !== taken.length) errs.push(`${where}: a break is taken twice`);
    taken.forEach((b, k) => {
      const w = byId ? wanted.find((x) => x.id === b.id) : wanted[k];
      if (!w) {
        errs.push(`${where}: break ${k} ('${b.id}') is not one of the driver's`);
        return;
      }
      if (b.start < w.window[0] - tolAt(w.window[0]) || b.start > w.window[1] + tolAt(w.window[1])) errs.push(`${where}: break ${k} starts ${b.start} outside its window [${w.window}]`);
      if (!near(b.end - b.start, w.duration)) errs.push(`${where}: break ${k} lasts ${b.end - b.start}, not ${w.duration}`);
      if (!Number.isInteger(b.after) || b.after < fixed.length || b.after > route.stops.length) errs.push(`${where}: break ${k} after ${b.after} stops: not after the fixed stops and within the route`);
      if (k > 0 && (b.after < taken[k - 1].after || b.start < taken[k - 1].end - tolAt(taken[k - 1].end))) errs.push(`${where}: break ${k} overlaps or comes before break ${k - 1}`);
    });
    /**
     * Takes the breaks on the arc before stop `si` (or the end depot) from time `from`, those ending
     * by `until` when given (a reload at si: the breaks before it); returns their total length.
     */
    const used = new Set<number>();
    const onArc = (si: number, from: number, until = Infinity): { total: number; end: number } => {
      let total = 0;
      let end = from;
      for (const [k, b] of taken.entries())
        if (b.after === si && !used.has(k) && b.end <= until + tolAt(until)) {
          used.add(k);
          if (b.start < end - tolAt(end)) errs.push(`${where}: a break starts ${b.start} before the driver is free at ${end}`);
          total += b.end - b.start;
          end = b.end;
        }
      return { total, end };
    };
    let w = 0;
    let vol = 0;
    for (const s of route.stops) w += orders.get(s.orderId)?.weight ?? 0;
    for (const s of route.stops) vol += orders.get(s.orderId)?.volume ?? 0;
    if (!near(route.load.weight, w) || !near(route.load.volume, vol)) errs.push(`${where}: reported load differs`);
    // trips: the stop indexes where each trip starts
    const reloads = route.reloads ?? [];
    if (route.reloads !== undefined && reloads.length === 0) errs.push(`${where}: empty reloads list reported`);
    if (reloads.length > (v.maxTrips ?? 1) - 1) errs.push(`${where}: ${reloads.length + 1} trips > maxTrips ${v.maxTrips ?? 1}`);
    const cuts = [0, ...reloads.map((x) => x.after), route.stops.length];
    for (let k = 1; k < cuts.length; k++)
      if (!Number.isInteger(cuts[k]) || cuts[k] <= cuts[k - 1]) errs.push(`${where}: trip ${k} is empty or out of order (reload after ${cuts[k]} stops)`);
    const tripLoads = cuts.slice(1).map((end, k) => {
      let tw = 0;
      let tv = 0;
      for (const s of route.stops.slice(cuts[k], end)) {
        tw += orders.get(s.orderId)?.weight ?? 0;
        tv += orders.get(s.orderId)?.volume ?? 0;
      }
      return [tw, tv];
    });
    tripLoads.forEach(([tw, tv], k) => {
      const trip = reloads.length > 0 ? ` (trip ${k + 1})` : '';
      if (tw > v.capacity.weight + TOL) errs.push(`${where}: weight ${tw} > capacity ${v.capacity.weight}${trip}`);
      if (tv > v.capacity.volume + TOL) errs.push(`${where}: volume ${tv} > capacity ${v.capacity.volume}${trip}`);
    });
    let [remW, remV] = tripLoads[0] ?? [0, 0];
    const startLoc = depots.get(v.startDepot)!;
    let trip = 0;
    for (const [si, s] of route.stops.entries()) {
      if (si < fixed.length) continue;
      if (trip < reloads.length && reloads[trip].after === si) {
        // back to the start depot to load the next trip
        const x = reloads[trip];
        const a = arc(loc, startLoc);
        if (!a) {
          errs.push(`${where}: no road from ${loc} back to the depot for reload ${trip + 1}`);
          return;
        }
        if (x.depotId !== v.startDepot || x.location !== startLoc) errs.push(`${where}: reload ${trip + 1} not at the start depot`);
        if (!near(remW, 0) || !near(remV, 0)) errs.push(`${where}: reload ${trip + 1} with load still on board`);
        dist += a.d;
        const pause = onArc(si, t, x.arrival);
        let arrival = t + a.t;
        if (pause.total > 0) {
          if (x.arrival < t + a.t + pause.total - tolAt(x.arrival)) errs.push(`${where}: reload ${trip + 1} reached before the drive and the breaks`);
          arrival = x.arrival;
        }
        const departure = arrival + (v.reloadTime ?? 0);
        trip++;
        [remW, remV] = tripLoads[trip];
        if (!near(x.arrival, arrival) || !near(x.departure, departure))
          errs.push(`${where}: reload ${trip} times reported ${x.arrival}/${x.departure}, recomputed ${arrival}/${departure}`);
        if (!near(x.distance, dist)) errs.push(`${where}: reload ${trip} distance reported ${x.distance}, recomputed ${dist}`);
        if (!near(x.load.weight, remW) || !near(x.load.volume, remV)) errs.push(`${where}: reload ${trip} load reported wrong`);
        t = departure;
        loc = startLoc;
      }
      const o = orders.get(s.orderId);
      if (!o) {
        errs.push(`${where}: unknown order ${s.orderId}`);
        continue;
      }
      seen.set(o.id, (seen.get(o.id) ?? 0) + 1);
      for (const f of o.requiredFeatures ?? []) if (!features.has(f)) errs.push(`${where}: order ${o.id} needs feature ${f}`);
      const a = arc(loc, o.location);
      if (!a) {
        errs.push(`${where}: no road from ${loc} to ${o.location}`);
        return;
      }
      dist += a.d;
      const pause = onArc(si, t);
      let arrival = t + a.t;
      if (pause.total > 0) {
        // with breaks on the way the reported arrival stands if there was time to drive and rest
        if (s.arrival < t + a.t + pause.total - tolAt(s.arrival) || s.arrival < pause.end - tolAt(pause.end))
          errs.push(`${where}: order ${o.id} reached at ${s.arrival}, before ${t} + drive ${a.t} + breaks ${pause.total}`);
        arrival = s.arrival;
      }
      const start = Math.max(arrival, o.timeWindow ? o.timeWindow[0] : -Infinity);
      if (o.timeWindow && start > o.timeWindow[1] + tolAt(o.timeWindow[1])) errs.push(`${where}: order ${o.id} served at ${start} after its window ends ${o.timeWindow[1]}`);
      const departure = start + o.serviceTime;
      remW -= o.weight;
      remV -= o.volume;
      if (!near(s.arrival, arrival) || !near(s.start, start) || !near(s.departure, departure))
        errs.push(`${where}: order ${o.id} times reported ${s.arrival}/${s.start}/${s.departure}, recomputed ${arrival}/${start}/${departure}`);
      if (!near(s.distance, dist)) errs.push(`${where}: order ${o.id} distance reported ${s.distance}, recomputed ${dist}`);
      if (!near(s.load.weight, remW) || !near(s.load.volume, remV)) errs.push(`${where}: order ${o.id} load after stop reported wrong`);
      t = departure;
      loc = o.location;
    }
    const back = arc(loc, depots.get(v.endDepot)!);
    if (!back) {
      errs.push(`${where}: no road back to the end depot`);
      return;
    }
    dist += back.d;
    const pause = onArc(route.stops.length, t);
    let end = t + back.t;
    if (pause.total > 0) {
      if (route.end < t + back.t + pause.total - tolAt(route.end) || route.end < pause.end - tolAt(pause.end)) errs.push(`${where}: end ${route.end} leaves no time for the drive back and the breaks`);
      end = route.end;
    }
    if (end > v.shift[1] + tolAt(v.shift[1])) errs.push(`${where}: ends ${end} after the shift ${v.shift[1]}`);
    if (!near(route.end, end)) errs.push(`${where}: end reported ${route.end}, recomputed ${end}`);
    if (!near(route.distance, dist)) errs.push(`${where}: distance reported ${route.distance}, recomputed ${dist}`);
    if (!near(route.duration, end - route.start)) errs.push(`${where}: duration reported ${route.duration}, recomputed ${end - route.start}`);
    if (v.maxDistance !== undefined && dist > v.maxDistance + TOL) errs.push(`${where}: distance ${dist} > max ${v.maxDistance}`);
    if (v.maxDuration !== undefined && end - route.start > v.maxDuration + tolAt(end)) errs.push(`${where}: duration ${end - route.start} > max ${v.maxDuration}`);
    if (v.maxOrders !== undefined && route.stops.length > v.maxOrders) errs.push(`${where}: ${route.stops.length} orders > max ${v.maxOrders}`);
    if (taken.some((b) => b.end > end + tolAt(end))) errs.push(`${where}: a break ends after the route`);
    total += dist;
    totalDur += end - route.start;
  });
  for (const v of p.vehicles)
    if ((v.progress?.fixedStops.length ?? 0) > 0 && !usedVehicles.has(v.id)) errs.push(`vehicle ${v.id}: its fixed stops are not reported`);
  for (const u of r.unassigned) {
    if (!orders.has(u.orderId)) errs.push(`unassigned: unknown order ${u.orderId}`);
    if (orders.get(u.orderId)?.currentVehicle !== undefined) errs.push(`unassigned: kept order ${u.orderId} (on ${orders.get(u.orderId)!.currentVehicle}) dropped`);
    seen.set(u.orderId, (seen.get(u.orderId) ?? 0) + 1);
  }
  for (const o of p.orders) {
    const c = seen.get(o.id) ?? 0;
    if (c !== 1) errs.push(`order ${o.id} appears ${c} times (routes + unassigned)`);
  }
  if (!near(r.distance, total)) errs.push(`total distance reported ${r.distance}, recomputed ${total}`);
  if (!near(r.duration, totalDur)) errs.push(`total duration reported ${r.duration}, recomputed ${totalDur}`);
  if (r.vehicles !== r.routes.length) errs.push(`vehicles reported ${r.vehicles}, routes ${r.routes.length}`);
  return errs;
}

/** Throws with every problem found; use on every solution a test produces. */
export function assertFeasible(p: ProblemInput, r: SolveResult): void {
  const errs = checkSolution(p, r);
  if (errs.length > 0) throw new Error(`infeasible solution:\n${errs.slice(0, 20).join('\n')}`);
}
