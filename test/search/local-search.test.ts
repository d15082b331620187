/**
 * The local search, full and focused: a focused run looks only near the orders it is given, never
 * raises the cost, loses no order, and leaves a solution the independent checker accepts.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { regretInsert } from '../../src/construct/regret.js';
import { LocalSearch } from '../../src/search/local-search.js';
import { buildNeighbours } from '../../src/search/neighbourhood.js';
import { RuinRecreate } from '../../src/search/perturb.js';
import { RouteProbe } from '../../src/route/probe.js';
import { Rng } from '../../src/solver/rng.js';
import { assertSearchFeasible } from '../helpers/search-result.js';
import { randomProblem } from '../helpers/problems.js';

function setUp(seed: number) {
  const input = randomProblem({ orders: 80, vehicles: 10, seed, windows: true, limits: true });
  const p = buildProblem(input);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  const rng = new Rng(seed);
  // a poor but feasible start: orders inserted in random order
  regretInsert(sol, rng.shuffle(Array.from({ length: p.nOrders }, (_, i) => i)), undefined, 0);
  const neighbours = buildNeighbours(p);
  const env = { neighbours, shuffle: (a: number[]) => rng.shuffle(a), timeUp: () => false };
  return { input, p, sol, rng, neighbours, env };
}

describe('local search', () => {
  it('a focused run on no orders makes no move, where a full run improves the same start', () => {
    const { sol, env } = setUp(21);
    const before = sol.cost();
    const focused = new LocalSearch(sol);
    expect(focused.run(env, [])).toBe(false);
    expect(focused.moves).toBe(0);
    expect(sol.cost()).toBe(before);
    const full = new LocalSearch(sol);
    full.touchAll();
    expect(full.run(env)).toBe(true);
    expect(sol.cost()).toBeLessThan(before);
  });

  it('a focused run repairs an order put in a bad place, and stays feasible', () => {
    const { input, p, sol, env } = setUp(22);
    const ls = new LocalSearch(sol);
    ls.touchAll();
    ls.run(env);
    const optimum = sol.cost();
    // move one order to its most expensive feasible position in another route
    const probe = new RouteProbe(p, sol.costs);
    let moved = -1;
    for (let u = 0; u < p.nOrders && moved < 0; u++) {
      const from = sol.routeOf[u];
      if (from < 0) continue;
      let worst = -Infinity;
      let where: [number, number] | null = null;
      for (const r of sol.routes) {
        if (r.index === from || r.size === 0) continue;
        for (let pos = 0; pos <= r.size; pos++) {
          probe.prefix(r, pos).order(u).finishSuffix(r, pos + 1);
          if (probe.feasible && r.size + 1 <= p.vMaxOrders[r.vehicle] && probe.cost - r.cost > worst) {
            worst = probe.cost - r.cost;
            where = [r.index, pos];
          }
        }
      }
      if (where !== null && worst > 0) {
        sol.remove(u);
        sol.insert(u, sol.routes[where[0]], where[1]);
        if (sol.feasible()) moved = u;
      }
    }
    expect(moved).toBeGreaterThanOrEqual(0);
    const displaced = sol.cost();
    expect(displaced).toBeGreaterThan(optimum);
    const improved = ls.run(env, [moved]);
    expect(improved).toBe(true);
    expect(sol.cost()).toBeLessThan(displaced);
    expect(sol.feasible()).toBe(true);
    assertSearchFeasible(input, sol);
  });

  for (const seed of [23, 24, 25]) {
    it(`focused runs after ruin-and-recreate never raise the cost and lose no order (seed ${seed})`, () => {
      const { input, p, sol, rng, neighbours, env } = setUp(seed);
      const ls = new LocalSearch(sol);
      const rr = new RuinRecreate(sol, new RouteProbe(p, sol.costs), neighbours);
      for (let it = 0; it < 40; it++) {
        const removed = rr.ruin(rng).slice();
        const focus = [...removed, ...rr.edges];
        rr.recreate(rng, removed);
        const before = sol.cost();
        ls.run(env, focus);
        expect(sol.cost()).toBeLessThanOrEqual(before + 1e-9);
        expect(sol.feasible()).toBe(true);
      }
      const served = sol.routes.reduce((a, r) => a + r.size, 0);
      expect(served + sol.unassignedCount()).toBe(p.nOrders);
      assertSearchFeasible(input, sol);
    });
  }
});
