/**
 * Clarke and Wright savings, parallel version, for heterogeneous fleets with time windows.
 *
 * Every order that fits a vehicle alone starts on a route of its own; the savings of joining the
 * route ending in i to the route starting with j are popped from a priority queue, largest first,
 * and a merge happens when the joined route is feasible for at least one vehicle class (capacity,
 * time windows, shift, max distance / duration / orders, features). Merges are judged in O(1) from
 * each route's duration segment. The routes are then given to vehicles, largest first; orders left
 * out (no vehicle free, or unfit alone) are returned for the insertion step.
 */
import FastPriorityQueue from 'fastpriorityqueue';
import { NO_ROAD } from '../model/matrix.js';
import type { Problem } from '../model/problem.js';
import { DurationSegment } from '../eval/duration-segment.js';
import { EPS } from '../route/search-route.js';
import type { SearchSolution } from '../route/search-solution.js';

interface VRoute {
  first: number;
  last: number;
  seg: DurationSegment;
  dist: number;
  w: number;
  vol: number;
  cnt: number;
  /** fits[c] = 1 when the route is feasible for vehicle class c. */
  fits: Uint8Array;
  alive: boolean;
}

/** Whether a route with these totals is feasible on vehicle v (depots added around seg). */
function fitsVehicle(p: Problem, v: number, first: number, last: number, seg: DurationSegment, dist: number, w: number, vol: number, cnt: number, scratch: DurationSegment): boolean {
  if (cnt > p.vMaxOrders[v] || w > p.vCapW[v] + EPS || vol > p.vCapV[v] + EPS) return false;
  const n = p.nLoc;
  const s = p.vStartLoc[v];
  const e = p.vEndLoc[v];
  const a1 = s * n + p.oLoc[first];
  const a2 = p.oLoc[last] * n + e;
  const total = dist + p.dist[a1] + p.dist[a2];
  if (total > p.vMaxDist[v] + EPS || total >= NO_ROAD / 2) return false;
  scratch.set(0, 0, p.vShiftStart[v], p.vShiftEnd[v]);
  scratch.append(p.dur[a1], seg.d, seg.tw, seg.e, seg.l);
  scratch.append(p.dur[a2], 0, 0, p.vShiftStart[v], p.vShiftEnd[v]);
  return scratch.tw <= EPS && scratch.d <= p.vMaxDur[v] + EPS;
}

/**
 * Fills `sol` (assumed empty) with savings routes. `pairs(i)` lists the orders j considered for
 * joining after i (a granular neighbourhood or everyone). Returns the orders left out.
 */
export function savingsConstruct(sol: SearchSolution, neighbours: { k: number; list: Int32Array }): number[] {
  const p = sol.p;
  const nV = p.nVehicles;
  const n = p.nLoc;
  // vehicle classes and one representative each
  const reps: number[] = [];
  const classCount = new Map<number, number>();
  for (let v = 0; v < nV; v++) {
    const c = p.vClass[v];
    if (reps[c] === undefined) reps[c] = v;
    classCount.set(c, (classCount.get(c) ?? 0) + 1);
  }
  const nC = reps.length;
  const scratch = new DurationSegment();
  const routes: VRoute[] = [];
  const routeOf = new Int32Array(p.nOrders).fill(-1);
  const next = new Int32Array(p.nOrders).fill(-1);
  const left: number[] = [];
  for (let o = 0; o < p.nOrders; o++) {
    const seg = new DurationSegment(p.oService[o], 0, p.oEarly[o], p.oLate[o]);
    const fits = new Uint8Array(nC);
    let any = false;
    for (let c = 0; c < nC; c++) {
      const v = reps[c];
      if (p.compat[o * nV + v] !== 1) continue;
      if (fitsVehicle(p, v, o, o, seg, 0, p.oW[o], p.oV[o], 1, scratch)) {
        fits[c] = 1;
        any = true;
      }
    }
    if (!any) {
      left.push(o);
      continue;
    }
    routeOf[o] = routes.length;
    // dist starts as -0, a double field from the start (see DOUBLE in route/search-route.ts)
    routes.push({ first: o, last: o, seg, dist: -0, w: p.oW[o], vol: p.oV[o], cnt: 1, fits, alive: true });
  }
  if (nV === 0) return Array.from({ length: p.nOrders }, (_, o) => o);

  // savings relative to the most common class's depots
  let main = 0;
  for (const [c, count] of classCount) if (count > (classCount.get(main) ?? 0)) main = c;
  const S = p.vStartLoc[reps[main]];
  const E = p.vEndLoc[reps[main]];
  const k = neighbours.k;
  const pi: number[] = [];
  const pj: number[] = [];
  const sv: number[] = [];
  for (let i = 0; i < p.nOrders; i++) {
    if (routeOf[i] < 0) continue;
    for (let t = 0; t < k; t++) {
      const j = neighbours.list[i * k + t];
      if (routeOf[j] < 0) continue;
      for (const [a, b] of [
        [i, j],
        [j, i],
      ]) {
        const dij = p.dist[p.oLoc[a] * n + p.oLoc[b]];
        if (dij >= NO_ROAD / 2) continue;
        const s = p.dist[p.oLoc[a] * n + E] + p.dist[S * n + p.oLoc[b]] - dij;
        if (s <= 0) continue;
        pi.push(a);
        pj.push(b);
        sv.push(s);
      }
    }
  }
  const queue = new FastPriorityQueue<number>((x, y) => sv[x] > sv[y] || (sv[x] === sv[y] && x < y));
  for (let q = 0; q < sv.length; q++) queue.add(q);
  const seg = new DurationSegment();
  const fits = new Uint8Array(nC);
  const seenPair = new Set<number>();
  while (!queue.isEmpty()) {
    const q = queue.poll()!;
    const i = pi[q];
    const j = pj[q];
    const key = i * p.nOrders + j;
    if (seenPair.has(key)) continue;
    seenPair.add(key);
    const ri = routeOf[i];
    const rj = routeOf[j];
    if (ri === rj) continue;
    const A = routes[ri];
    const B = routes[rj];
    if (A.last !== i || B.first !== j) continue;
    const arc = p.oLoc[i] * n + p.oLoc[j];
    seg.copy(A.seg).append(p.dur[arc], B.seg.d, B.seg.tw, B.seg.e, B.seg.l);
    if (seg.tw > EPS) continue;
    const dist = A.dist + p.dist[arc] + B.dist;
    const w = A.w + B.w;
    const vol = A.vol + B.vol;
    const cnt = A.cnt + B.cnt;
    let any = false;
    for (let c = 0; c < nC; c++) {
      fits[c] = 0;
      if (A.fits[c] && B.fits[c] && fitsVehicle(p, reps[c], A.first, B.last, seg, dist, w, vol, cnt, scratch)) {
        fits[c] = 1;
        any = true;
      }
    }
    if (!any) continue;
    A.seg.copy(seg);
    A.dist = dist;
    A.w = w;
    A.vol = vol;
    A.cnt = cnt;
    A.fits.set(fits);
    next[A.last] = B.first;
    A.last = B.last;
    B.alive = false;
    for (let o = B.first; o !== -1; o = next[o]) routeOf[o] = ri;
  }

  // hand the routes to vehicles, largest first
  const alive = routes.filter((r) => r.alive).sort((a, b) => b.cnt - a.cnt || b.w - a.w || a.first - b.first);
  const used = new Uint8Array(nV);
  for (const r of alive) {
    const orders: number[] = [];
    for (let o = r.first; o !== -1; o = next[o]) orders.push(o);
    let placed = false;
    for (let v = 0; v < nV && !placed; v++) {
      if (used[v] || !r.fits[p.vClass[v]]) continue;
      used[v] = 1;
      sol.setRoute(sol.routes[v], orders);
      placed = true;
    }
    if (!placed) left.push(...orders);
  }
  return left;
}
