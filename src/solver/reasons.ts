/**
 * Why an order is unassigned. First the reasons that hold for the order alone, found by filtering
 * the fleet constraint by constraint (the first filter that leaves no vehicle names the reason):
 * unroutable, requirements, capacity, time_window, max_distance, max_duration, max_orders. An
 * order that would fit some vehicle alone but was left out gets the constraint that blocks its
 * cheapest insertion positions in the final solution. `no_vehicle` when there is no vehicle.
 * Deterministic: it depends only on the problem and the final routes.
 *
 * Trips: `capacity` means one trip's capacity (the alone stage: no single trip of any vehicle can
 * carry the order). Where an insertion position breaks its trip's capacity and the vehicle may
 * reload, the position is judged with a reload next to the order instead, so an order kept out
 * because every trip is full and no further trip fits in the shift gets `time_window` (or the
 * limit that blocks the extra trip). Only when an extra trip would break nothing but the
 * vehicle's maxTrips is the answer `capacity` (the trips the vehicle is allowed are full).
 */
import type { UnassignedReason } from '../model/input.js';
import { NO_ROAD } from '../model/matrix.js';
import type { Problem } from '../model/problem.js';
import { RouteProbe } from '../route/probe.js';
import { EPS } from '../route/search-route.js';
import type { SearchSolution } from '../route/search-solution.js';

type Violation = 'capacity' | 'time_window' | 'max_distance' | 'max_duration' | 'max_orders';
const ORDER: Violation[] = ['capacity', 'max_orders', 'time_window', 'max_distance', 'max_duration'];

function violations(p: Problem, probe: RouteProbe, out: Set<Violation>): void {
  const v = probe.vehicle;
  out.clear();
  if (probe.excessWeight() > EPS || probe.excessVolume() > EPS) out.add('capacity');
  if (probe.cnt > p.vMaxOrders[v]) out.add('max_orders');
  if (probe.tw > EPS) out.add('time_window');
  if (probe.dist > p.vMaxDist[v] + EPS) out.add('max_distance');
  if (probe.d > p.vMaxDur[v] + EPS) out.add('max_duration');
}

/** The reason that holds for order o alone, or null when some vehicle could serve it alone. */
export function aloneReason(p: Problem, o: number, probe: RouteProbe): UnassignedReason | null {
  if (p.nVehicles === 0) return 'no_vehicle';
  const n = p.nLoc;
  const L = p.oLoc[o];
  let vs: number[] = [];
  for (let v = 0; v < p.nVehicles; v++) vs.push(v);
  const stage = (reason: UnassignedReason, keep: (v: number) => boolean): UnassignedReason | null => {
    vs = vs.filter(keep);
    return vs.length === 0 ? reason : null;
  };
  const set = new Set<Violation>();
  const alone = (v: number) => {
    probe.depot(v).order(o).finish();
    violations(p, probe, set);
    // with breaks: the order alone with the breaks before or after it, the split that breaks least
    const nb = p.vBreakCount[v];
    for (let k = 0; k <= nb && nb > 0; k++) {
      probe.depot(v);
      for (let b = 0; b < nb; b++) {
        if (b === k) probe.order(o);
        probe.order(p.vBreakFirst[v] + b);
      }
      if (k === nb) probe.order(o);
      probe.finish();
      const other = new Set<Violation>();
      violations(p, probe, other);
      if (k === 0 || other.size < set.size) {
        set.clear();
        for (const x of other) set.add(x);
      }
    }
    return set;
  };
  return (
    stage('unroutable', (v) => p.dist[p.vStartLoc[v] * n + L] < NO_ROAD / 2 && p.dist[L * n + p.vEndLoc[v]] < NO_ROAD / 2) ??
    stage('requirements', (v) => p.compat[o * p.nVehicles + v] === 1) ??
    stage('capacity', (v) => !alone(v).has('capacity')) ??
    stage('time_window', (v) => !alone(v).has('time_window')) ??
    stage('max_distance', (v) => !alone(v).has('max_distance')) ??
    stage('max_duration', (v) => !alone(v).has('max_duration')) ??
    stage('max_orders', (v) => p.vMaxOrders[v] >= 1)
  );
}

/** How many of the cheapest positions are looked at to name what blocks an insertion. */
const CHEAPEST = 5;

export function unassignedReason(sol: SearchSolution, o: number, probe = new RouteProbe(sol.p, sol.costs)): UnassignedReason {
  const p = sol.p;
  const alone = aloneReason(p, o, probe);
  if (alone !== null) return alone;
  // Fits alone: look at its cheapest positions in the final routes (every compatible vehicle,
  // used or not) and name the constraint they break most often.
  const cand: Array<{ delta: number; v: Violation[] }> = [];
  const set = new Set<Violation>();
  const withReload = new Set<Violation>();
  for (const r of sol.routes) {
    if (!sol.compatible(o, r)) continue;
    const v = r.vehicle;
    const reload = p.vMaxTrips[v] > 1 ? p.vReloadFirst[v] : -1;
    const noTripLeft = reload >= 0 && sol.spareReload(r) < 0;
    for (let pos = 0; pos <= r.size; pos++) {
      probe.prefix(r, pos).order(o).finishSuffix(r, pos + 1);
      violations(p, probe, set);
      if (set.size === 0) continue; // feasible: only reachable if the search stopped early
      let delta = probe.cost - r.cost;
      if (reload >= 0 && set.has('capacity')) {
        // the trip is full: what blocks going back to load next to the order?
        let best: Violation[] | null = null;
        for (const before of [true, false]) {
          if (before) probe.prefix(r, pos).order(reload).order(o).finishSuffix(r, pos + 1);
          else probe.prefix(r, pos).order(o).order(reload).finishSuffix(r, pos + 1);
          violations(p, probe, withReload);
          if (withReload.size === 0 && noTripLeft) withReload.add('capacity');
          if (withReload.size === 0) continue; // feasible: only if the search stopped early
          const list = ORDER.filter((x) => withReload.has(x));
          // a reload that leaves a trip overloaded is in the wrong place: prefer one that fixes it
          const rank = (l: Violation[]) => (l.includes('capacity') ? 100 : 0) + l.length;
          if (best === null || rank(list) < rank(best)) {
            best = list;
            delta = probe.cost - r.cost;
          }
        }
        if (best !== null) {
          cand.push({ delta, v: best });
          continue;
        }
      }
      cand.push({ delta, v: ORDER.filter((x) => set.has(x)) });
    }
  }
  cand.sort((a, b) => a.delta - b.delta);
  const count = new Map<Violation, number>();
  for (const c of cand.slice(0, CHEAPEST)) for (const x of c.v) count.set(x, (count.get(x) ?? 0) + 1);
  let best: Violation = 'capacity';
  let bestCount = -1;
  for (const x of ORDER) {
    const c = count.get(x) ?? 0;
    if (c > bestCount) {
      best = x;
      bestCount = c;
    }
  }
  return best;
}
