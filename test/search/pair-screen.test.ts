/**
 * The pair screen's two promises. It is sound: an operator it leaves out for a pair finds no move
 * below the limit there (so not calling it changes nothing). And it changes nothing
 * in fact: the local search with the screen ends at the same routes, after the same number of
 * evaluations, as the same search with the operators called for every pair. It must also turn
 * pairs away, or it would only cost time.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import type { Objective, ProblemInput } from '../../src/model/input.js';
import { RouteProbe } from '../../src/route/probe.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { regretInsert } from '../../src/construct/regret.js';
import { buildNeighbours } from '../../src/search/neighbourhood.js';
import { LocalSearch } from '../../src/search/local-search.js';
import { defaultOperators, exhaustiveOperators, Relocate, Swap, TwoOpt, TwoOptStar } from '../../src/search/operators/index.js';
import { PairScreen } from '../../src/search/pair-screen.js';
import { Rng } from '../../src/solver/rng.js';
import { checkSolution } from '../helpers/checker.js';
import { randomProblem } from '../helpers/problems.js';
import { roadCut } from '../helpers/road.js';
import { resultOf } from '../helpers/search-result.js';

const IMPROVES = -1e-7;

function withTrips(input: ProblemInput, maxTrips: number): ProblemInput {
  for (const v of input.vehicles) {
    v.maxTrips = maxTrips;
    v.reloadTime = 10;
    v.shift = [0, 3000];
  }
  return input;
}

const cases: Array<{ name: string; input: ProblemInput; objective: Objective; penalised?: boolean }> = [
  { name: 'windows', input: randomProblem({ orders: 60, vehicles: 8, seed: 31, windows: true }), objective: 'distance' },
  { name: 'all constraints', input: randomProblem({ orders: 60, vehicles: 8, seed: 32, windows: true, features: true, limits: true }), objective: 'distance' },
  { name: 'vehicles objective', input: randomProblem({ orders: 50, vehicles: 8, seed: 33, windows: true }), objective: 'vehicles' },
  { name: 'penalised', input: randomProblem({ orders: 60, vehicles: 5, seed: 34, windows: true, limits: true }), objective: 'distance', penalised: true },
  { name: 'trips', input: withTrips(randomProblem({ orders: 50, vehicles: 4, seed: 35, capacity: 60, windows: true }), 3), objective: 'distance' },
  { name: 'asymmetric road matrix', input: roadCut(60, ['1', '2', '3', '4', '13', '14']), objective: 'distance' },
  { name: 'asymmetric road matrix, penalised', input: roadCut(60, ['1', '2', '3', '4']), objective: 'distance', penalised: true },
];

/**
 * Routes for c: regret insertion in random order, penalised when the case says so; or (`dealt`)
 * the orders dealt at random into routes of random lengths whatever they break, penalised lightly
 * or heavily, where many moves improve (adjacent swaps, whole short routes moved onto another).
 */
function start(c: (typeof cases)[number], seed: number, dealt: false | 'light' | 'heavy' = false): SearchSolution {
  const p = buildProblem(c.input);
  const costs = costModel(p, c.objective);
  const sol = new SearchSolution(p, costs);
  const rng = new Rng(seed);
  const orders = rng.shuffle(Array.from({ length: p.nOrders }, (_, i) => i));
  if (!dealt) regretInsert(sol, orders);
  else {
    // cut points at random: some routes of one to three orders, some long
    const cuts = Array.from({ length: sol.routes.length - 1 }, () => rng.int(orders.length + 1)).sort((a, b) => a - b);
    sol.routes.forEach((r, k) => sol.setRoute(r, orders.slice(k === 0 ? 0 : cuts[k - 1], k < cuts.length ? cuts[k] : orders.length).filter((o) => sol.compatible(o, r))));
  }
  if (c.penalised || dealt) {
    // (light weights on dealt routes: a route's whole penalty comes off every bound, and with
    // heavy ones nearly every pair passes)
    costs.penalised = true;
    costs.penaltyTime = dealt === 'light' ? 0.002 : 2;
    costs.penaltyLoad = dealt === 'light' ? 0.003 : 3;
    for (const r of sol.routes) r.recost();
  }
  return sol;
}

/** Per operator, the (pair, limit) cases the screen let through, over all cases. */
const passedAnywhere = new Map<string, number>();

/** The default relocate under another class: the local search does not screen it. */
class UnscreenedRelocate extends Relocate {}

describe('PairScreen', () => {
  it('screens exactly the four default operators, under distance costs', () => {
    expect(PairScreen.for(defaultOperators())).not.toBeNull();
    expect(PairScreen.for([new TwoOpt(), new Swap(), new Relocate(2), new TwoOptStar()])).not.toBeNull();
    expect(PairScreen.for(exhaustiveOperators())).toBeNull();
    expect(PairScreen.for([new UnscreenedRelocate(3), new Swap(), new TwoOptStar(), new TwoOpt()])).toBeNull();
    const p = buildProblem(cases[0].input);
    expect(PairScreen.active(new SearchSolution(p, costModel(p, 'distance')))).toBe(true);
    expect(PairScreen.active(new SearchSolution(p, costModel(p, 'duration')))).toBe(false);
  });

  for (const c of cases) {
    it.each([false, 'light', 'heavy'] as const)(`turns away only pairs no operator can improve, and turns many away (${c.name}, dealt: %s)`, (dealt) => {
      const sol = start(c, 5, dealt);
      const ops = defaultOperators();
      const screen = PairScreen.for(ops)!;
      const nb = buildNeighbours(sol.p);
      if (sol.p.hasReloads && !dealt) expect(sol.routes.some((r) => r.reloads > 0)).toBe(true);
      let pairs = 0;
      let turnedAway = 0;
      const passed = ops.map(() => 0);
      // the search's limit, and limits above 0 (moves that may lengthen the routes a little): with
      // those, more of the moves a wrong bound would hide are below the limit, and show
      const arc = sol.distance() / Math.max(1, sol.p.nOrders);
      for (let u = 0; u < sol.p.nOrders; u++) {
        if (sol.routeOf[u] < 0) continue;
        for (let t = 0; t < nb.k; t++) {
          const v = nb.list[u * nb.k + t];
          if (sol.routeOf[v] < 0) continue;
          pairs++;
          for (const limit of [IMPROVES, 0.1 * arc, arc]) {
            const mask = screen.mask(sol, u, v, limit);
            if (limit === IMPROVES && mask === 0) turnedAway++;
            ops.forEach((op, x) => {
              if ((mask & (1 << x)) === 0) expect(op.evaluate(sol, u, v, limit), `${op.name} (${u}, ${v}) below ${limit}`).not.toBeLessThan(limit);
              else passed[x]++;
            });
          }
        }
      }
      expect(pairs).toBeGreaterThan(500);
      // dealt routes are far from any optimum: most pairs have a move that shortens them
      for (const [x, op] of ops.entries()) passedAnywhere.set(op.name, (passedAnywhere.get(op.name) ?? 0) + passed[x]);
      if (dealt === 'light') expect(turnedAway).toBeGreaterThan(10);
      else if (!dealt) expect(turnedAway / pairs).toBeGreaterThan(0.3);
    });

    it(`leaves the local search's routes and evaluations as they were (${c.name})`, () => {
      const run = (ops: ReturnType<typeof defaultOperators>) => {
        const sol = start(c, 6);
        const rng = new Rng(7);
        const ls = new LocalSearch(sol, ops);
        ls.touchAll();
        ls.run({ neighbours: buildNeighbours(sol.p), shuffle: (a) => rng.shuffle(a), timeUp: () => false });
        return { sol, ls, evaluations: ops.map((o) => o.evaluations), routes: sol.routes.map((r) => r.orders().join(',')) };
      };
      const screened = run(defaultOperators());
      const plain = run([new UnscreenedRelocate(3), new Swap(), new TwoOptStar(), new TwoOpt()]);
      expect(screened.ls.moves).toBeGreaterThan(0);
      expect(screened.ls.moves).toBe(plain.ls.moves);
      expect(screened.routes).toEqual(plain.routes);
      expect(screened.evaluations).toEqual(plain.evaluations);
      expect(screened.sol.cost()).toBe(plain.sol.cost());
      if (c.penalised) return;
      // (the search leaves a reload node that closes an empty trip to the solver's tidy step)
      screened.sol.tidyAllReloads(new RouteProbe(screened.sol.p, screened.sol.costs));
      expect(checkSolution(c.input, resultOf(c.input, screened.sol))).toEqual([]);
    });
  }

  it('lets every operator through somewhere (a bit never set would hide a whole operator)', () => {
    for (const op of defaultOperators()) expect(passedAnywhere.get(op.name), op.name).toBeGreaterThan(100);
  });
});
