/**
 * Moving a segment of `len` consecutive orders (starting at u) to just after position q of another
 * or the same route: the shared core of relocate (len 1) and or-opt (len 2, 3).
 */
import type { RouteProbe } from '../../route/probe.js';
import type { SearchRoute } from '../../route/search-route.js';
import type { SearchSolution } from '../../route/search-solution.js';
import { rangeCompatible } from '../operator.js';

const EPS = 1e-6;

/** Delta of moving positions i..i+len-1 of r after position q of s (Infinity if infeasible). */
export function evalMoveSegment(
  sol: SearchSolution,
  a: RouteProbe,
  b: RouteProbe,
  r: SearchRoute,
  i: number,
  len: number,
  s: SearchRoute,
  q: number,
): number {
  const j = i + len - 1;
  if (j > r.size) return Infinity;
  if (r === s && q >= i - 1 && q <= j) return Infinity; // no change
  const p = sol.p;
  if (r !== s) {
    if (!rangeCompatible(sol, r, i, j, s.vehicle)) return Infinity;
    const v = s.vehicle;
    const w = r.cumW[j] - r.cumW[i - 1];
    const vol = r.cumV[j] - r.cumV[i - 1];
    if (!sol.costs.penalised && (s.weight + w > p.vPreW[v] + EPS || s.volume + vol > p.vPreV[v] + EPS)) return Infinity;
    if (s.nOrd + len - (p.hasReloads ? r.cumR[j] - r.cumR[i - 1] : 0) > p.vMaxOrders[v]) return Infinity;
    b.prefix(s, q).range(r, i, j).finishSuffix(s, q + 1);
    if (!b.feasible) return Infinity;
    a.prefix(r, i - 1).finishSuffix(r, j + 1);
    if (!a.feasible) return Infinity;
    return a.cost + b.cost - r.cost - s.cost;
  }
  if (q < i - 1) a.prefix(r, q).range(r, i, j).range(r, q + 1, i - 1).finishSuffix(r, j + 1);
  else a.prefix(r, i - 1).range(r, j + 1, q).range(r, i, j).finishSuffix(r, q + 1);
  if (!a.feasible) return Infinity;
  return a.cost - r.cost;
}

export function applyMoveSegment(sol: SearchSolution, r: SearchRoute, i: number, len: number, s: SearchRoute, q: number): void {
  const seg = Array.from(r.ord.subarray(i, i + len));
  if (r !== s) {
    const rest = r.orders();
    rest.splice(i - 1, len);
    const target = s.orders();
    target.splice(q, 0, ...seg);
    sol.setRoute(r, rest);
    sol.setRoute(s, target);
    return;
  }
  const all = r.orders(); // all[k] is position k + 1
  let out: number[];
  if (q < i - 1) out = [...all.slice(0, q), ...seg, ...all.slice(q, i - 1), ...all.slice(i - 1 + len)];
  else out = [...all.slice(0, i - 1), ...all.slice(i - 1 + len, q), ...seg, ...all.slice(q)];
  sol.setRoute(r, out);
}
