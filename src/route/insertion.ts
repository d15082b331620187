/**
 * Best insertion positions of an order: used by construction (cheapest / regret insertion of the
 * leftovers) and by the recreate step of ruin-and-recreate alike.
 *
 * Trips: where the order would overload its trip and the vehicle has a trip to spare, the
 * position is also priced with a reload just before and just after the order (the second and
 * third insertion schemes of Francois, Arda & Crama 2019, as PyVRP's RelocateWithDepot): over all
 * positions this tries every point where the route could go back to load, each in O(1).
 */
import type { RouteProbe } from './probe.js';
import { distanceBound, type SearchSolution } from './search-solution.js';
import type { SearchRoute } from './search-route.js';

const EPS = 1e-6;
/** NO_ROAD / 2, as in probe.ts. */
const ROADLESS = 2 ** 39;

export interface InsertionChoice {
  route: SearchRoute | null;
  /** Insert after this position. */
  pos: number;
  delta: number;
  /** 0: the order alone; RELOAD_BEFORE / RELOAD_AFTER: with a spare reload node next to it. */
  reload: number;
}

export const RELOAD_BEFORE = 1;
export const RELOAD_AFTER = 2;

/** Performs an insertion choice (with its reload node, if any). */
export function insertChoice(sol: SearchSolution, o: number, c: InsertionChoice): void {
  insertAt(sol, o, c.route!, c.pos, c.reload);
}

export function insertAt(sol: SearchSolution, o: number, r: SearchRoute, pos: number, reload: number): void {
  if (reload === 0) {
    sol.insert(o, r, pos);
    return;
  }
  const x = sol.spareReload(r);
  if (reload === RELOAD_BEFORE) {
    sol.insert(x, r, pos);
    sol.insert(o, r, pos + 1);
  } else {
    sol.insert(o, r, pos);
    sol.insert(x, r, pos + 1);
  }
}

/** Cheapest feasible position of order o in route r; delta is Infinity when there is none. */
export function bestInRoute(
  sol: SearchSolution,
  probe: RouteProbe,
  o: number,
  r: SearchRoute,
  out: InsertionChoice,
  blinkRate = 0,
  rand?: () => number,
  /** Only positions cheaper than this are of interest (lets a cheap lower bound skip the rest). */
  bound = Infinity,
  /** Only the positions from..to (insert after), default all. */
  from = 0,
  to = r.size,
): InsertionChoice {
  reset(out);
  const p = sol.p;
  const v = r.vehicle;
  if (!sol.compatible(o, r)) return out;
  if (r.nOrd + 1 > p.vMaxOrders[v]) return out;
  const c = sol.costs;
  const strict = !c.penalised;
  if (strict && (r.weight + p.oW[o] > p.vPreW[v] + EPS || r.volume + p.oV[o] > p.vPreV[v] + EPS)) return out;
  if (!p.hasReloads && c.perMoved === 0) return bestPlain(sol, o, r, out, blinkRate, rand, bound, from, to);
  const spare = sol.spareReload(r);
  const base = r.cost;
  // distance costs: the arcs priced alone bound the delta (see distanceBound)
  const byDistance = c.perDuration === 0;
  const opens = r.nOrd === 0 ? 1 : 0;
  const D = p.dist;
  const T = p.dur;
  const n = p.nLoc;
  const L = p.oLoc[o];
  const late = p.oLate[o] + EPS;
  // with a symmetric matrix both new arcs are read from o's row (one row of the matrix, cache-warm)
  const sym = p.symmetric;
  const row = L * n;
  // a break's forward numbers hold for the arc it sat on, not for a new one: no bound after it
  const brk = p.hasBreaks ? p.nBreakFirst : p.nNodes;
  for (let pos = from; pos <= to; pos++) {
    if (blinkRate > 0 && rand !== undefined && rand() < blinkRate) continue;
    const a = r.loc[pos];
    // cannot reach o before its window closes, even leaving the prefix as early as possible
    if (strict && r.ord[pos] < brk && r.fE[pos] + r.fD[pos] - r.fT[pos] + T[a * n + L] > late) continue;
    if (byDistance) {
      const b = r.loc[pos + 1];
      const lb = distanceBound(sol, (sym ? D[row + a] : D[a * n + L]) + D[row + b] - D[a * n + b], opens, r);
      if (lb >= out.delta || lb >= bound) continue;
    }
    probe.prefix(r, pos).order(o).finishSuffix(r, pos + 1);
    if (spare >= 0 && probe.excessWeight() + probe.excessVolume() > EPS) {
      // the trip would be overloaded: go back to load just before or just after o
      const plain = probe.feasible ? probe.cost - base : Infinity;
      if (plain < out.delta) take(out, r, pos, plain, 0);
      probe.prefix(r, pos).order(spare).order(o).finishSuffix(r, pos + 1);
      if (probe.feasible && probe.cost - base < out.delta) take(out, r, pos, probe.cost - base, RELOAD_BEFORE);
      probe.prefix(r, pos).order(o).order(spare).finishSuffix(r, pos + 1);
      if (probe.feasible && probe.cost - base < out.delta) take(out, r, pos, probe.cost - base, RELOAD_AFTER);
      continue;
    }
    if (!probe.feasible) continue;
    const delta = probe.cost - base;
    if (delta < out.delta) {
      out.delta = delta;
      out.pos = pos;
      out.route = r;
      out.reload = 0;
    }
  }
  return out;
}

/**
 * `bestInRoute` without reload nodes: the probe's prefix(r, pos).order(o).finishSuffix(r, pos + 1)
 * and judge written out, with o's numbers and r's arrays read once for all positions. The same
 * arithmetic in the same order as the probe, so the same deltas to the last bit.
 */
function bestPlain(
  sol: SearchSolution,
  o: number,
  r: SearchRoute,
  out: InsertionChoice,
  blinkRate: number,
  rand: (() => number) | undefined,
  bound: number,
  from: number,
  to: number,
): InsertionChoice {
  const p = sol.p;
  const v = r.vehicle;
  const c = sol.costs;
  const strict = !c.penalised;
  const base = r.cost;
  const byDistance = c.perDuration === 0;
  const opens = r.nOrd === 0 ? 1 : 0;
  const D = p.dist;
  const T = p.dur;
  const n = p.nLoc;
  const L = p.oLoc[o];
  const late = p.oLate[o] + EPS;
  const sym = p.symmetric;
  const symDur = sym && p.durSymmetric;
  const row = L * n;
  // o's own segment
  const svc = p.oService[o];
  const oE = p.oEarly[o];
  const oL = p.oLate[o];
  const oW = p.oW[o];
  const oV = p.oV[o];
  // the route's caches
  const k = r.size;
  const loc = r.loc;
  const fD = r.fD;
  const fT = r.fT;
  const fE = r.fE;
  const fL = r.fL;
  const cumDist = r.cumDist;
  const arcDist = r.arcDist;
  const cumW = r.cumW;
  const cumV = r.cumV;
  const distEnd = cumDist[k + 1];
  const wEnd = cumW[k];
  const vEnd = cumV[k];
  // the judge's numbers
  const perDistance = c.perDistance;
  const perDuration = c.perDuration;
  const perVehicle = c.perVehicle;
  const penaltyTime = c.penaltyTime;
  const penaltyLoad = c.penaltyLoad;
  const maxDur = p.vMaxDur[v];
  const maxDist = p.vMaxDist[v];
  const capW = p.vCapW[v];
  const capV = p.vCapV[v];
  const maxOrders = p.vMaxOrders[v];
  // the backward caches (fillG fills them in place: the arrays stay)
  const gD = r.gD;
  const gT = r.gT;
  const gE = r.gE;
  const gL = r.gL;
  // distanceBound(sol, x, opens, r) is perDistance * x + perVehicle * opens - shed: its terms read
  // once (the route does not change during the scan), the same arithmetic below
  const vehicleTerm = perVehicle * opens;
  // an insertion can shed the route's time and load penalties, never its cost of kept orders away
  // from their vehicle (it adds an order, it takes none away)
  let shed = 0;
  shed += r.penalty - c.perMoved * r.moved;
  for (let pos = from; pos <= to; pos++) {
    if (blinkRate > 0 && rand !== undefined && rand() < blinkRate) continue;
    const a = loc[pos];
    // cannot reach o before its window closes, even leaving the prefix as early as possible
    if (strict && fE[pos] + fD[pos] - fT[pos] + T[a * n + L] > late) continue;
    if (byDistance) {
      const b = loc[pos + 1];
      // the arc removed is the route's own (arcDist: the same matrix entry as D[a * n + b])
      const lb = perDistance * ((sym ? D[row + a] : D[a * n + L]) + D[row + b] - arcDist[pos + 1]) + vehicleTerm - shed;
      if (lb >= out.delta || lb >= bound) continue;
    }
    // prefix(r, pos).order(o); with symmetric matrices the arc a -> o is read from o's row
    const arc = a * n + L;
    let t = T[symDur ? row + a : arc];
    let d = fD[pos];
    let tw = fT[pos];
    let e = fE[pos];
    let l = fL[pos];
    let delta = d - tw + t;
    let wait = Math.max(oE - delta - l, 0);
    let warp = Math.max(e + delta - oL, 0);
    const e1 = Math.max(oE - delta, e) - wait;
    const l1 = Math.min(oL - delta, l) + warp;
    d = d + svc + t + wait;
    tw = tw + 0 + warp;
    e = e1;
    l = l1;
    let dist = cumDist[pos] + D[sym ? row + a : arc];
    let w = cumW[pos] + oW;
    let vol = cumV[pos] + oV;
    // finishSuffix(r, pos + 1)
    const i = pos + 1;
    if (r.gStale >= i) r.fillG(i);
    const arc2 = row + loc[i];
    t = T[arc2];
    delta = d - tw + t;
    wait = Math.max(gE[i] - delta - l, 0);
    warp = Math.max(e + delta - gL[i], 0);
    d = d + gD[i] + t + wait;
    tw = tw + gT[i] + warp;
    dist += D[arc2] + distEnd - cumDist[i];
    if (i <= k) {
      w += wEnd - cumW[pos];
      vol += vEnd - cumV[pos];
    }
    // judge (k + 1 orders: within maxOrders, checked above)
    let cost = perDistance * dist + perDuration * d + perVehicle;
    let feasible: boolean;
    if (!strict) {
      cost += penaltyTime * (tw + Math.max(0, d - maxDur) + Math.max(0, dist - maxDist)) + penaltyLoad * (Math.max(0, w - capW) + Math.max(0, vol - capV));
      feasible = dist < ROADLESS && k + 1 <= maxOrders;
    } else
      feasible =
        tw <= EPS &&
        w <= capW + EPS &&
        vol <= capV + EPS &&
        dist <= maxDist + EPS &&
        dist < ROADLESS &&
        d <= maxDur + EPS &&
        k + 1 <= maxOrders;
    if (!feasible) continue;
    const dl = cost - base;
    if (dl < out.delta) {
      out.delta = dl;
      out.pos = pos;
      out.route = r;
      out.reload = 0;
    }
  }
  return out;
}

function take(out: InsertionChoice, r: SearchRoute, pos: number, delta: number, reload: number): void {
  out.delta = delta;
  out.pos = pos;
  out.route = r;
  out.reload = reload;
}

/** Cheapest feasible insertion of order o over the candidate routes. */
export function bestInsertion(
  sol: SearchSolution,
  probe: RouteProbe,
  o: number,
  routes: SearchRoute[],
  out: InsertionChoice,
  tmp: InsertionChoice,
  blinkRate = 0,
  rand?: () => number,
): InsertionChoice {
  reset(out);
  for (const r of routes) keepCheaper(out, bestInRoute(sol, probe, o, r, tmp, blinkRate, rand, out.delta));
  return out;
}

function reset(c: InsertionChoice): void {
  c.route = null;
  c.pos = -1;
  c.delta = Infinity;
  c.reload = 0;
}

/** Takes `c` into `out` when it is cheaper. */
function keepCheaper(out: InsertionChoice, c: InsertionChoice): void {
  if (c.delta < out.delta) {
    out.delta = c.delta;
    out.pos = c.pos;
    out.route = c.route;
    out.reload = c.reload;
  }
}

export function newChoice(): InsertionChoice {
  return { route: null, pos: -1, delta: Infinity, reload: 0 };
}

/**
 * Cheapest feasible insertion of order o just before or just after one of its first `use` granular
 * neighbours (those in a route), or into one of the empty routes among `routes`. About 2 `use`
 * positions instead of every position of every route; the route of the answer is null when none
 * of them is feasible. Ruin-and-recreate uses it as its second recreate: on the 500-order cities
 * the full scan costs 19 % of a solve, and inserting only next to near orders leaves routes that
 * the local search improves further (see bench/RESULTS.md, session 5).
 */
export function bestNearInsertion(
  sol: SearchSolution,
  probe: RouteProbe,
  o: number,
  neighbours: { k: number; list: Int32Array },
  use: number,
  routes: SearchRoute[],
  out: InsertionChoice,
  tmp: InsertionChoice,
  blinkRate = 0,
  rand?: () => number,
): InsertionChoice {
  reset(out);
  // one position at a time, each skipped by a blink of its own
  const at = (r: SearchRoute, pos: number): void => {
    if (blinkRate > 0 && rand !== undefined && rand() < blinkRate) return;
    keepCheaper(out, bestInRoute(sol, probe, o, r, tmp, 0, undefined, out.delta, pos, pos));
  };
  // empty routes: one position each
  for (const r of routes) if (r.nOrd === 0) at(r, 0);
  const { k, list } = neighbours;
  const m = Math.min(use, k);
  for (let t = 0; t < m; t++) {
    const v = list[o * k + t];
    const ri = sol.routeOf[v];
    if (ri < 0) continue;
    const i = sol.posOf[v];
    at(sol.routes[ri], i - 1);
    at(sol.routes[ri], i);
  }
  return out;
}
