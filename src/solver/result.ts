/** Turns the search solution into the public, immutable SolveResult. */
import type { BreakResult, ReloadResult, RouteResult, SolveOptions, SolveResult, StopResult, UnassignedReason } from '../model/input.js';
import type { Problem } from '../model/problem.js';
import type { SearchSolution } from '../route/search-solution.js';

export function exportRoutes(p: Problem, sol: SearchSolution): RouteResult[] {
  const n = p.nLoc;
  const out: RouteResult[] = [];
  for (const r of sol.routes) {
    const v = r.vehicle;
    const fixed = p.input.vehicles[v].progress?.fixedStops ?? [];
    if (r.nOrd === 0 && fixed.length === 0) continue;
    const underway = p.vFixed[v] >= 0;
    // The earliest start that achieves the route's minimal duration: no needless waiting. A route
    // under way started when it left its depot, and goes on from its start when it can.
    const start = underway ? p.vDepartedAt[v] : r.fE[r.size + 1];
    let t = underway ? p.vShiftStart[v] : start;
    let prev = p.vStartLoc[v];
    let dist = p.vDistDone[v];
    // with trips, what is on board is the load of the current trip (up to the next reload)
    const tripLoad = (from: number): [number, number] => {
      let w = 0;
      let vol = 0;
      // up to the next reload node (break nodes weigh nothing)
      for (let i = from; i <= r.size && (r.ord[i] < p.nOrders || r.ord[i] >= p.nBreakFirst); i++) {
        w += p.oW[r.ord[i]];
        vol += p.oV[r.ord[i]];
      }
      return [w, vol];
    };
    let [remW, remV] = r.reloads > 0 ? tripLoad(1) : [r.weight, r.volume];
    const stops: StopResult[] = [];
    const reloads: ReloadResult[] = [];
    const breaks: BreakResult[] = [];
    if (fixed.length > 0) {
      // the fixed stops as given; the distance along them from the start depot
      const row = (loc: number) => (p.matrix.index === undefined ? loc : p.matrix.index[loc]);
      let at = row(p.input.depots.find((d) => d.id === p.input.vehicles[v].startDepot)!.location);
      let fd = 0;
      for (const f of fixed) {
        fd += p.dist[at * n + row(f.location)];
        at = row(f.location);
        stops.push({ orderId: f.orderId, location: f.location, arrival: f.arrival, start: f.start, departure: f.departure, load: { weight: r.weight, volume: r.volume }, distance: fd });
      }
    }
    for (let i = 1; i <= r.size; i++) {
      const o = r.ord[i];
      if (o >= p.nBreakFirst) {
        // taken on the arc to the next stop: up to that drive may come before it (see SearchRoute)
        let j = i + 1;
        while (j <= r.size && r.ord[j] >= p.nBreakFirst) j++;
        const next = j <= r.size ? p.oLoc[r.ord[j]] : p.vEndLoc[v];
        const drive = j === i + 1 ? p.dur[prev * n + next] : 0;
        const reached = t + p.dur[prev * n + prev];
        dist += p.dist[prev * n + prev];
        const from = Math.max(reached, p.oEarly[o] - drive);
        const begin = Math.max(from, p.oEarly[o]);
        const b = p.input.vehicles[v].breaks![o - p.vBreakFirst[v]];
        breaks.push({ ...(b.id !== undefined ? { id: b.id } : {}), after: stops.length, start: begin, end: begin + p.oService[o] });
        t = from + p.oService[o];
        continue;
      }
      const L = p.oLoc[o];
      const arrival = t + p.dur[prev * n + L];
      dist += p.dist[prev * n + L];
      if (o >= p.nOrders) {
        [remW, remV] = tripLoad(i + 1);
        const departure = arrival + p.oService[o];
        reloads.push({
          depotId: p.input.vehicles[v].startDepot,
          location: p.rowLocation[L],
          after: stops.length,
          arrival,
          departure,
          load: { weight: clean(remW), volume: clean(remV) },
          distance: dist,
        });
        t = departure;
        prev = L;
        continue;
      }
      const begin = Math.max(arrival, p.oEarly[o]);
      const departure = begin + p.oService[o];
      remW -= p.oW[o];
      remV -= p.oV[o];
      stops.push({
        orderId: p.orderIds[o],
        location: p.rowLocation[L],
        arrival,
        start: begin,
        departure,
        load: { weight: clean(remW), volume: clean(remV) },
        distance: dist,
      });
      t = departure;
      prev = L;
    }
    const end = t + p.dur[prev * n + p.vEndLoc[v]];
    dist += p.dist[prev * n + p.vEndLoc[v]];
    const route: RouteResult = {
      vehicleId: p.vehicleIds[v],
      start,
      end,
      stops,
      distance: dist,
      duration: end - start,
      load: { weight: r.weight, volume: r.volume },
    };
    if (reloads.length > 0) route.reloads = reloads;
    if (breaks.length > 0) route.breaks = breaks;
    if (underway) route.fixed = fixed.length;
    out.push(route);
  }
  return out;
}

function clean(x: number): number {
  return Math.abs(x) < 1e-9 ? 0 : x;
}

export function buildResult(
  p: Problem,
  sol: SearchSolution,
  reasons: Array<{ orderId: string; reason: UnassignedReason }>,
  stats: { elapsedMs: number; iterations: number },
): SolveResult {
  const routes = exportRoutes(p, sol);
  let distance = 0;
  let duration = 0;
  for (const r of routes) {
    distance += r.distance;
    duration += r.duration;
  }
  return { routes, distance, duration, vehicles: routes.length, unassigned: reasons, stats };
}

/** How a solve ranks results, lower first: fewer unassigned, then the objective, then distance. */
export type ResultScore = [number, number, number];

export function resultScore(r: SolveResult, objective: SolveOptions['objective']): ResultScore {
  if (objective === 'vehicles') return [r.unassigned.length, r.vehicles, r.distance];
  if (objective === 'duration') return [r.unassigned.length, r.duration, r.distance];
  return [r.unassigned.length, r.distance, 0];
}

export function betterScore(a: ResultScore, b: ResultScore): boolean {
  for (let i = 0; i < 3; i++) if (Math.abs(a[i] - b[i]) > 1e-9) return a[i] < b[i];
  return false;
}

/** A result's routes as the warm start of another solve (`initialRoutes`), reloads included. */
export function warmRoutes(r: Pick<SolveResult, 'routes'>): NonNullable<SolveOptions['initialRoutes']> {
  return r.routes.map((x) => ({
    vehicleId: x.vehicleId,
    orderIds: x.stops.map((s) => s.orderId),
    ...(x.reloads ? { reloadsAfter: x.reloads.map((y) => y.after) } : {}),
  }));
}
