/**
 * The shared operator suite: on random routes, every operator's predicted delta equals the real
 * change in cost (recomputed from scratch), no order is lost or duplicated, and applied moves
 * that were predicted feasible leave a solution the independent checker accepts.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { regretInsert } from '../../src/construct/regret.js';
import { exhaustiveOperators } from '../../src/search/operators/index.js';
import { Rng } from '../../src/solver/rng.js';
import type { Objective, ProblemInput } from '../../src/model/input.js';
import { checkSolution } from '../helpers/checker.js';
import { resultOf } from '../helpers/search-result.js';
import { randomProblem } from '../helpers/problems.js';
import { exerciseOperator, fromScratchCost } from '../helpers/operator-check.js';


const operators = exhaustiveOperators();

const cases: Array<{ name: string; input: ProblemInput; objective: Objective; penalised?: boolean }> = [
  { name: 'loose', input: randomProblem({ orders: 40, vehicles: 6, seed: 11, capacity: 400 }), objective: 'distance' },
  { name: 'windows', input: randomProblem({ orders: 40, vehicles: 8, seed: 12, windows: true }), objective: 'distance' },
  { name: 'all constraints', input: randomProblem({ orders: 40, vehicles: 8, seed: 13, windows: true, features: true, limits: true }), objective: 'distance' },
  { name: 'duration objective', input: randomProblem({ orders: 30, vehicles: 6, seed: 14, windows: true }), objective: 'duration' },
  { name: 'vehicles objective', input: randomProblem({ orders: 30, vehicles: 6, seed: 15, windows: true }), objective: 'vehicles' },
  { name: 'penalised (infeasible search)', input: randomProblem({ orders: 40, vehicles: 5, seed: 16, windows: true, limits: true }), objective: 'distance', penalised: true },
  { name: 'trips', input: withTrips(randomProblem({ orders: 40, vehicles: 4, seed: 17, capacity: 60, windows: true }), 3), objective: 'distance' },
  { name: 'trips, all constraints', input: withTrips(randomProblem({ orders: 40, vehicles: 4, seed: 18, capacity: 60, features: true, limits: true }), 4), objective: 'duration' },
  { name: 'trips, penalised', input: withTrips(randomProblem({ orders: 40, vehicles: 3, seed: 19, capacity: 60, windows: true }), 3), objective: 'distance', penalised: true },
];

/** Vehicles that may reload (the regret start puts reload nodes in where trips overflow). */
function withTrips(input: ProblemInput, maxTrips: number): ProblemInput {
  for (const v of input.vehicles) {
    v.maxTrips = maxTrips;
    v.reloadTime = 10;
    v.shift = [0, 3000];
    if (v.maxDistance !== undefined) v.maxDistance = 1500;
    if (v.maxDuration !== undefined) v.maxDuration = 2500;
    if (v.maxOrders !== undefined) v.maxOrders = 30;
  }
  return input;
}

describe.each(operators.map((op) => [op.name, op] as const))('operator %s', (_name, op) => {
  for (const c of cases) {
    it(`predicts its delta exactly and loses no order (${c.name})`, () => {
      const p = buildProblem(c.input);
      const costs = costModel(p, c.objective);
      const sol = new SearchSolution(p, costs);
      const rng = new Rng(3);
      // random, feasible starting routes
      const orders = rng.shuffle(Array.from({ length: p.nOrders }, (_, i) => i));
      regretInsert(sol, orders);
      if (c.penalised) {
        costs.penalised = true;
        costs.penaltyTime = 2;
        costs.penaltyLoad = 3;
        for (const r of sol.routes) r.recost();
      }
      if (p.hasReloads) expect(sol.routes.some((r) => r.reloads > 0)).toBe(true); // trips are exercised
      const { evaluated, applied } = exerciseOperator(sol, op, rng, { penalised: c.penalised, prunedDigits: 9 });
      expect(evaluated).toBeGreaterThan(0);
      // SWAP* only tries the few distance-best exchanges of a route pair; under tight windows
      // and the duration objective none of them may be feasible in this random sample
      // (nor, with trips, when the routes' reload nodes pin the exchanges)
      if (!(op.name === 'swap-star' && (c.objective === 'duration' || p.hasReloads))) expect(applied).toBeGreaterThan(0);
      if (!c.penalised) expect(checkSolution(c.input, resultOf(c.input, sol))).toEqual([]);
      else expect(sol.feasible()).toBe(false); // the suite did walk through infeasible space
    });
  }
});

describe('relocate with or-opt', () => {
  /** Cost change of moving the len orders from u's position to just after position q of v's route, done for real (Infinity if infeasible or a no-op). */
  function brute(sol: SearchSolution, u: number, len: number, sIndex: number, q: number): number {
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sIndex];
    const i = sol.posOf[u];
    if (i + len - 1 > r.size) return Infinity;
    if (r === s && q >= i - 1 && q <= i + len - 1) return Infinity;
    const before = sol.snapshot();
    const cost0 = fromScratchCost(sol);
    const seg = r.orders().slice(i - 1, i - 1 + len);
    if (seg.some((o) => !sol.compatible(o, s))) return Infinity;
    const target = s.orders();
    const at = q; // insert after position q (orders before it keep their places)
    if (r === s) {
      const rest = target.filter((o) => !seg.includes(o));
      const anchor = q === 0 ? -1 : target[q - 1];
      const k = anchor === -1 ? 0 : rest.indexOf(anchor) + 1;
      rest.splice(k, 0, ...seg);
      sol.setRoute(r, rest);
    } else {
      target.splice(at, 0, ...seg);
      sol.setRoute(r, r.orders().filter((o) => !seg.includes(o)));
      sol.setRoute(s, target);
    }
    const ok = sol.feasible();
    const delta = fromScratchCost(sol) - cost0;
    sol.restore(before);
    return ok ? delta : Infinity;
  }

  it('returns the best of its six variants (segments of 1 to 3 orders, after or before v)', () => {
    const input = randomProblem({ orders: 40, vehicles: 8, seed: 21, windows: true, limits: true });
    const p = buildProblem(input);
    const sol = new SearchSolution(p, costModel(p, 'distance'));
    regretInsert(sol, new Rng(2).shuffle(Array.from({ length: p.nOrders }, (_, i) => i)));
    const op = exhaustiveOperators().find((o) => o.name === 'relocate-or-opt-3')!;
    const rng = new Rng(4);
    let finite = 0;
    let longerWins = 0;
    for (let t = 0; t < 400; t++) {
      const u = rng.int(p.nOrders);
      const v = rng.int(p.nOrders);
      if (u === v || sol.routeOf[u] < 0 || sol.routeOf[v] < 0) continue;
      const s = sol.routeOf[v];
      const j = sol.posOf[v];
      let best = Infinity;
      let bestLen = 0;
      for (let len = 1; len <= 3; len++)
        for (const q of [j, j - 1]) {
          const d = brute(sol, u, len, s, q);
          if (d < best - 1e-9) {
            best = d;
            bestLen = len;
          }
        }
      const got = op.evaluate(sol, u, v);
      if (best === Infinity) expect(got).toBe(Infinity);
      else {
        finite++;
        expect(got).toBeCloseTo(best, 6);
        if (bestLen > 1) longerWins++;
      }
    }
    expect(finite).toBeGreaterThan(20);
    // the sample also had pairs where moving two or three orders beat moving u alone
    expect(longerWins).toBeGreaterThan(0);
  });
});
