/**
 * Ruin and recreate: string ruins and whole-route ruins take out what they say, and the recreate
 * (full scan or near-only) puts every order back at most once, leaving a solution the independent
 * checker accepts.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { RouteProbe } from '../../src/route/probe.js';
import { regretInsert } from '../../src/construct/regret.js';
import { buildNeighbours } from '../../src/search/neighbourhood.js';
import { RuinRecreate } from '../../src/search/perturb.js';
import { Rng } from '../../src/solver/rng.js';
import { assertSearchFeasible } from '../helpers/search-result.js';
import { randomProblem } from '../helpers/problems.js';

function setUp(seed: number) {
  const input = randomProblem({ orders: 70, vehicles: 10, seed, windows: true, limits: true });
  const p = buildProblem(input);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  regretInsert(sol, Array.from({ length: p.nOrders }, (_, i) => i));
  const rr = new RuinRecreate(sol, new RouteProbe(p, sol.costs), buildNeighbours(p));
  return { input, p, sol, rr, rng: new Rng(seed) };
}

describe('ruin and recreate', () => {
  it('a route ruin empties exactly one route and removes its orders', () => {
    const { sol, rr, rng } = setUp(41);
    for (let t = 0; t < 20; t++) {
      const before = sol.routes.map((r) => r.orders());
      const used = before.filter((o) => o.length > 0).length;
      const removed = rr.ruinRoute(rng).slice();
      const emptied = sol.routes.filter((r, i) => before[i].length > 0 && r.size === 0);
      expect(emptied.length).toBe(1);
      expect(removed.sort((a, b) => a - b)).toEqual(before[emptied[0].index].slice().sort((a, b) => a - b));
      expect(sol.routes.filter((r) => r.size > 0).length).toBe(used - 1);
      for (const o of removed) expect(sol.routeOf[o]).toBe(-1);
      rr.recreate(rng, removed);
    }
  });

  for (const [seed, near] of [
    [42, false],
    [43, false],
    [44, true],
    [45, true],
  ] as const) {
    it(`string and route ruins followed by a ${near ? 'near-only' : 'full-scan'} recreate keep every order once and stay feasible (seed ${seed})`, () => {
      const { input, p, sol, rr, rng } = setUp(seed);
      if (near) rr.nearUse = 10;
      for (let t = 0; t < 60; t++) {
        const removed = (t % 5 === 0 ? rr.ruinRoute(rng) : rr.ruin(rng)).slice();
        for (const e of rr.edges) expect(removed.includes(e)).toBe(false);
        const left = rr.recreate(rng, removed);
        const placed = sol.routes.reduce((a, r) => a + r.size, 0);
        expect(placed + sol.unassignedCount()).toBe(p.nOrders);
        for (const o of left) expect(sol.routeOf[o]).toBe(-1);
        expect(sol.feasible()).toBe(true);
      }
      assertSearchFeasible(input, sol);
    });
  }

  it('an open-route recreate puts one removed order alone into an empty route, then the rest anywhere; the flag lasts one recreate', () => {
    const input = randomProblem({ orders: 70, vehicles: 25, seed: 46, windows: true, limits: true });
    const p = buildProblem(input);
    const sol = new SearchSolution(p, costModel(p, 'distance'));
    regretInsert(sol, Array.from({ length: p.nOrders }, (_, i) => i));
    const rr = new RuinRecreate(sol, new RouteProbe(p, sol.costs), buildNeighbours(p));
    const rng = new Rng(46);
    let opened = 0;
    for (let t = 0; t < 40; t++) {
      const removed = rr.ruin(rng).slice();
      if (removed.length < 2) continue;
      const usedBefore = new Set(sol.routes.filter((r) => r.size > 0).map((r) => r.index));
      expect(usedBefore.size).toBeLessThan(sol.routes.length);
      rr.openRoute = true;
      rr.recreate(rng, removed);
      expect(rr.openRoute).toBe(false);
      // a route that was empty after the ruin now holds at least one of the removed orders
      const fresh = sol.routes.filter((r) => r.size > 0 && !usedBefore.has(r.index));
      expect(fresh.length).toBeGreaterThanOrEqual(1);
      for (const r of fresh) for (const o of r.orders()) expect(removed.includes(o)).toBe(true);
      opened++;
      expect(sol.routes.reduce((a, r) => a + r.size, 0) + sol.unassignedCount()).toBe(p.nOrders);
      expect(sol.feasible()).toBe(true);
    }
    expect(opened).toBeGreaterThan(20);
    assertSearchFeasible(input, sol);
  });

  it('an open-route recreate opens nothing when new routes are not allowed', () => {
    const { sol, rr, rng } = setUp(47);
    sol.allowNewRoutes = false;
    for (let t = 0; t < 20; t++) {
      const removed = rr.ruin(rng).slice();
      const used = sol.routes.filter((r) => r.size > 0).length;
      rr.openRoute = true;
      rr.recreate(rng, removed);
      expect(sol.routes.filter((r) => r.size > 0).length).toBeLessThanOrEqual(used);
    }
  });
});
