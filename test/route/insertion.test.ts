/**
 * Insertion next to near orders: the answer is the cheapest feasible position among those just
 * before or after one of the order's first `use` granular neighbours and the empty routes, judged
 * here by inserting for real (the route recomputed from scratch), not by the probe.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import type { SearchRoute } from '../../src/route/search-route.js';
import { RouteProbe } from '../../src/route/probe.js';
import { bestInsertion, bestNearInsertion, newChoice } from '../../src/route/insertion.js';
import { regretInsert } from '../../src/construct/regret.js';
import { buildNeighbours } from '../../src/search/neighbourhood.js';
import { Rng } from '../../src/solver/rng.js';
import { randomProblem } from '../helpers/problems.js';
import { cheapestByTrial } from '../helpers/insertion-oracle.js';

function setUp(seed: number) {
  const input = randomProblem({ orders: 80, vehicles: 12, seed, windows: true, limits: true, features: true });
  const p = buildProblem(input);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  regretInsert(sol, Array.from({ length: p.nOrders }, (_, i) => i));
  const neighbours = buildNeighbours(p);
  const rng = new Rng(seed);
  // take out 20 routed orders
  const routed = rng.shuffle(Array.from({ length: p.nOrders }, (_, i) => i).filter((o) => sol.routeOf[o] >= 0));
  const out = routed.slice(0, 20);
  for (const o of out) sol.remove(o);
  return { p, sol, neighbours, out };
}

/** Cost change of inserting o after position pos of r, by doing it (Infinity when infeasible or the vehicle lacks a feature). */
function truth(sol: SearchSolution, o: number, r: SearchRoute, pos: number): number {
  if (!sol.compatible(o, r)) return Infinity;
  const before = r.cost;
  sol.insert(o, r, pos);
  const delta = r.feasible() ? r.cost - before : Infinity;
  sol.remove(o);
  return delta;
}

describe('bestNearInsertion', () => {
  for (const [seed, use] of [
    [1, 3],
    [2, 8],
    [3, 40],
  ] as const) {
    it(`seed ${seed}, ${use} neighbours: the cheapest feasible near position, never cheaper than the full scan`, () => {
      const { sol, neighbours, out } = setUp(seed);
      const probe = new RouteProbe(sol.p, sol.costs);
      const cands = sol.candidateRoutes([]);
      let found = 0;
      for (const o of out) {
        // the allowed positions, listed independently
        const allowed: Array<[SearchRoute, number]> = [];
        for (const r of cands) if (r.size === 0) allowed.push([r, 0]);
        for (let t = 0; t < Math.min(use, neighbours.k); t++) {
          const v = neighbours.list[o * neighbours.k + t];
          if (sol.routeOf[v] < 0) continue;
          const r = sol.routes[sol.routeOf[v]];
          allowed.push([r, sol.posOf[v] - 1], [r, sol.posOf[v]]);
        }
        let best = Infinity;
        for (const [r, pos] of allowed) best = Math.min(best, truth(sol, o, r, pos));
        const near = bestNearInsertion(sol, probe, o, neighbours, use, cands, newChoice(), newChoice());
        if (best === Infinity) {
          expect(near.route).toBeNull();
          continue;
        }
        found++;
        expect(near.route).not.toBeNull();
        expect(allowed.some(([r, pos]) => r === near.route && pos === near.pos)).toBe(true);
        expect(near.delta).toBeCloseTo(best, 6);
        expect(truth(sol, o, near.route!, near.pos)).toBeCloseTo(near.delta, 6);
        const full = bestInsertion(sol, probe, o, cands, newChoice(), newChoice());
        expect(full.delta).toBeLessThanOrEqual(near.delta + 1e-9);
      }
      expect(found).toBeGreaterThan(0);
    });
  }

  it('prices fewer positions with fewer neighbours: with one neighbour it can miss what the full scan finds', () => {
    const { sol, neighbours, out } = setUp(4);
    const probe = new RouteProbe(sol.p, sol.costs);
    const cands = sol.candidateRoutes([]);
    let worse = 0;
    for (const o of out) {
      const near = bestNearInsertion(sol, probe, o, neighbours, 1, cands, newChoice(), newChoice());
      const full = bestInsertion(sol, probe, o, cands, newChoice(), newChoice());
      if (near.delta > full.delta + 1e-9) worse++;
    }
    expect(worse).toBeGreaterThan(0);
  });
});

describe('bestInsertion in the infeasible search', () => {
  it('finds the cheapest position, penalties included, on routes that pay penalties', () => {
    const { p, sol, out } = setUp(5);
    const costs = sol.costs;
    costs.penalised = true;
    costs.penaltyTime = 0.5;
    costs.penaltyLoad = 2;
    // break routes: half of the taken-out orders go back at random positions, feasible or not
    const rng = new Rng(5);
    const back = out.splice(0, 10);
    for (const o of back) {
      const r = sol.routes[rng.int(sol.routes.length)];
      if (r.size > 0 && sol.compatible(o, r) && r.size < p.vMaxOrders[r.vehicle]) sol.insert(o, r, rng.int(r.size + 1));
    }
    for (const r of sol.routes) r.recost();
    expect(sol.routes.some((r) => r.penalty > 0)).toBe(true);
    const probe = new RouteProbe(p, costs);
    const cands = sol.candidateRoutes([]);
    let penalisedBest = 0;
    for (const o of out) {
      const { delta: best, route: bestRoute } = cheapestByTrial(sol, o, cands);
      const full = bestInsertion(sol, probe, o, cands, newChoice(), newChoice());
      expect(full.delta).toBeCloseTo(best, 6);
      if (bestRoute !== null && bestRoute.penalty > 0) penalisedBest++;
    }
    // the sample did test the bound on routes that pay a penalty
    expect(penalisedBest).toBeGreaterThan(0);
  });
});
