/** Turns the search solution into the public, immutable SolveResult. */
import type { ReloadResult, RouteResult, SolveOptions, SolveResult, StopResult, UnassignedReason } from '../model/input.js';
import type { Problem } from '../model/problem.js';
import type { SearchSolution } from '../route/search-solution.js';

export function exportRoutes(p: Problem, sol: SearchSolution): RouteResult[] {
  const n = p.nLoc;
  const out: RouteResult[] = [];
  for (const r of sol.routes) {
    if (r.nOrd === 0) continue;
    const v = r.vehicle;
    // The earliest start that achieves the route's minimal duration: no needless waiting.
    const start = r.fE[r.size + 1];
    let t = start;
    let prev = p.vStartLoc[v];
    let dist = 0;
    // with trips, what is on board is the load of the current trip (up to the next reload)
    const tripLoad = (from: number): [number, number] => {
      let w = 0;
      let vol = 0;
      for (let i = from; i <= r.size && r.ord[i] < p.nOrders; i++) {
        w += p.oW[r.ord[i]];
        vol += p.oV[r.ord[i]];
      }
      return [w, vol];
    };
    let [remW, remV] = r.reloads > 0 ? tripLoad(1) : [r.weight, r.volume];
    const stops: StopResult[] = [];
    const reloads: ReloadResult[] = [];
    for (let i = 1; i <= r.size; i++) {
      const o = r.ord[i];
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
