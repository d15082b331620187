/**
 * The two starts of `solve`: regret insertion into an empty fleet and savings (plus regret
 * insertion of its leftovers), each followed by a local search; the better one is kept. Below
 * REGRET_FIRST_BELOW orders the regret start comes first, and the savings start is abandoned when
 * the budget is short (or the core is shared: the clock runs while the solve waits).
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { RouteProbe } from '../../src/route/probe.js';
import { regretInsert } from '../../src/construct/regret.js';
import { savingsConstruct } from '../../src/construct/savings.js';
import { LocalSearch } from '../../src/search/local-search.js';
import { VehicleReassign } from '../../src/search/reassign.js';
import { buildNeighbours } from '../../src/search/neighbourhood.js';
import { constructStart, REGRET_FIRST_BELOW } from '../../src/solver/solve.js';
import { Rng } from '../../src/solver/rng.js';
import { Stop } from '../../src/solver/stop.js';
import type { ProblemInput } from '../../src/model/input.js';
import { assertSearchFeasible } from '../helpers/search-result.js';
import { lcg, randomProblem, solomon } from '../helpers/problems.js';

/** Two depots at opposite corners, vans and trucks at each, windows: where savings starts badly. */
function twoDepots(seed: number): ProblemInput {
  const base = randomProblem({ orders: 150, vehicles: 12, seed, windows: true });
  const rnd = lcg(seed + 100);
  const coordinates = (base.matrix as { coordinates: Array<[number, number]> }).coordinates.slice();
  coordinates[0] = [15, 15];
  coordinates.push([85, 85]);
  const second = coordinates.length - 1;
  const vehicles = base.vehicles.map((v, k) => ({
    ...v,
    capacity: k % 3 === 0 ? { weight: 250, volume: 40 } : { weight: 120, volume: 20 },
    startDepot: k % 2 === 0 ? 'd' : 'e',
    endDepot: k % 2 === 0 ? 'd' : 'e',
    shift: [0, 1200] as [number, number],
  }));
  const orders = base.orders.map((o) => ({ ...o, weight: 1 + Math.floor(rnd() * 15) }));
  return { ...base, matrix: { kind: 'euclidean', coordinates }, depots: [...base.depots, { id: 'e', location: second }], vehicles, orders };
}

function start(input: ProblemInput, seed: number, stop: Stop, kind?: 'regret') {
  const p = buildProblem(input);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  const probe = new RouteProbe(p, sol.costs);
  const neighbours = buildNeighbours(p);
  constructStart(sol, probe, neighbours, new Rng(seed), stop, kind);
  return { p, sol, probe, neighbours };
}

/** The regret start alone: every order into an empty fleet, then the local search (and the
 *  vehicle reassignment), with the same random stream as constructStart's; counts its clock
 *  readings (one a round of the insertion, some in the local search). */
function regretOnly(input: ProblemInput, seed: number) {
  const p = buildProblem(input);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  const probe = new RouteProbe(p, sol.costs);
  const neighbours = buildNeighbours(p);
  let clockReadings = 0;
  const timeUp = () => (clockReadings++, false);
  regretInsert(sol, Array.from({ length: p.nOrders }, (_, i) => i), probe, 1, timeUp);
  clockReadings++;
  const rng = new Rng(seed);
  const ls = new LocalSearch(sol);
  ls.touchAll();
  const env = { neighbours, shuffle: (a: number[]) => rng.shuffle(a), timeUp };
  ls.run(env);
  if (new VehicleReassign(sol, probe).run().length > 0) ls.run(env);
  return Object.assign(sol, { clockReadings });
}

/** The savings start alone (with its vehicle reassignment), with the same random stream as
 *  constructStart's first local search. */
function savingsOnly(input: ProblemInput, seed: number) {
  const p = buildProblem(input);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  const neighbours = buildNeighbours(p);
  regretInsert(sol, savingsConstruct(sol, neighbours));
  const rng = new Rng(seed);
  const ls = new LocalSearch(sol);
  ls.touchAll();
  let clockReadings = 0;
  const env = { neighbours, shuffle: (a: number[]) => rng.shuffle(a), timeUp: () => (clockReadings++, false) };
  ls.run(env);
  if (new VehicleReassign(sol, new RouteProbe(p, sol.costs)).run().length > 0) ls.run(env);
  return Object.assign(sol, { clockReadings });
}

describe('constructStart', () => {
  for (const seed of [31, 32, 33]) {
    it(`keeps the regret start or a better one, feasible with every order once (two depots, seed ${seed})`, () => {
      const input = twoDepots(seed);
      const { sol } = start(input, seed, new Stop(() => 0, undefined, 1000));
      const regret = regretOnly(input, seed);
      expect(sol.unassignedCount()).toBeLessThanOrEqual(regret.unassignedCount());
      if (sol.unassignedCount() === regret.unassignedCount()) {
        if (JSON.stringify(sol.snapshot()) !== JSON.stringify(regret.snapshot())) expect(sol.cost()).toBeLessThan(regret.cost() - 1e-9);
      }
      assertSearchFeasible(input, sol);
    });
  }

  it('is better than savings alone on at least one of the two-depot instances', () => {
    let better = 0;
    for (const seed of [31, 32, 33]) {
      const input = twoDepots(seed);
      const { sol } = start(input, seed, new Stop(() => 0, undefined, 1000));
      if (sol.cost() < savingsOnly(input, seed).cost() - 1e-6) better++;
    }
    expect(better).toBeGreaterThan(0);
  });

  /** The savings construction as it is, without its local search. */
  function savingsUnpolished(input: ProblemInput): SearchSolution {
    const p = buildProblem(input);
    const sol = new SearchSolution(p, costModel(p, 'distance'));
    regretInsert(sol, savingsConstruct(sol, buildNeighbours(p)));
    return sol;
  }

  /** A clock that stands still through the first start (the Stop's own reading, the insertion's
   *  and the local search's readings, the checks after it), then jumps to 40 % of the 1 s budget. */
  function shortBudget(regret: { clockReadings: number }): Stop {
    let readings = 0;
    return new Stop(() => (++readings <= regret.clockReadings + 3 ? 0 : 400), 1000, undefined);
  }

  it('abandons the second start\'s local search when the budget is short (a slow or shared core), keeping the polished regret start when it is the better', () => {
    // R101: the savings construction, unpolished, is far longer than the regret start polished
    const input = solomon('R101');
    const regret = regretOnly(input, 34);
    expect(savingsUnpolished(input).cost()).toBeGreaterThan(regret.cost());
    const { sol } = start(input, 34, shortBudget(regret));
    expect(sol.snapshot()).toEqual(regret.snapshot());
    assertSearchFeasible(input, sol);
  });

  it('when the budget is short, keeps the savings construction unpolished where it is already the better of the two', () => {
    // RC208: the savings construction, before any local search, is shorter than the regret start
    // after its local search (826.0 against 864.5); with the time, the polished savings start wins
    const input = solomon('RC208');
    const regret = regretOnly(input, 34);
    const savings = savingsUnpolished(input);
    expect(savings.cost()).toBeLessThan(regret.cost());
    expect(start(input, 34, new Stop(() => 0, undefined, 1000)).sol.snapshot()).not.toEqual(savings.snapshot());
    const { sol } = start(input, 34, shortBudget(regret));
    expect(sol.snapshot()).toEqual(savings.snapshot());
    expect(sol.unassignedCount()).toBe(0);
    assertSearchFeasible(input, sol);
  });

  it('keeps the savings construction when the deadline falls inside the regret insertion: every order served, feasible', () => {
    // C109: the half-built regret start, completed by plain insertion, would be far longer
    const input = solomon('C109');
    let readings = 0;
    // the deadline passes after 30 clock readings, inside the regret insertion (one a round)
    const stop = new Stop(() => (++readings <= 30 ? 0 : 2000), 1000, undefined);
    const { sol, p } = start(input, 1, stop);
    expect(sol.unassignedCount()).toBe(0);
    const savings = new SearchSolution(p, costModel(p, 'distance'));
    regretInsert(savings, savingsConstruct(savings, buildNeighbours(p)));
    expect(sol.snapshot()).toEqual(savings.snapshot());
    assertSearchFeasible(input, sol);
  });

  it('from REGRET_FIRST_BELOW orders on, savings comes first and is what a short budget keeps', () => {
    // 600 orders: the savings start first; the clock jumps past 30 % of the budget after it
    const input = randomProblem({ orders: REGRET_FIRST_BELOW, vehicles: 60, seed: 38, windows: true });
    const savings = savingsOnly(input, 38);
    let readings = 0;
    const stop = new Stop(() => (++readings <= savings.clockReadings + 3 ? 0 : 400), 1000, undefined);
    const { sol } = start(input, 38, stop);
    expect(sol.snapshot()).toEqual(savings.snapshot());
    assertSearchFeasible(input, sol);
    // (the regret start, had it come first, would be another solution)
    expect(savings.snapshot()).not.toEqual(regretOnly(input, 38).snapshot());
  });
});

describe("constructStart, start 'regret'", () => {
  it('is the regret start alone: no savings, feasible, every order once', () => {
    for (const seed of [36, 37]) {
      const input = twoDepots(seed);
      const { sol } = start(input, seed, new Stop(() => 0, undefined, 1000), 'regret');
      expect(sol.snapshot()).toEqual(regretOnly(input, seed).snapshot());
      expect(sol.unassignedCount()).toBe(0);
      assertSearchFeasible(input, sol);
    }
  });

  it('is not abandoned when the budget is short: only the hard deadline stops it', () => {
    // the clock jumps to 40 % of the budget at once: the default would keep the savings start
    const input = twoDepots(34);
    let readings = 0;
    const stop = new Stop(() => (++readings <= 1 ? 0 : 400), 1000, undefined);
    const { sol } = start(input, 34, stop, 'regret');
    expect(sol.snapshot()).toEqual(regretOnly(input, 34).snapshot());
    expect(sol.snapshot()).not.toEqual(savingsOnly(input, 34).snapshot());
    assertSearchFeasible(input, sol);
  });

  it('past the hard deadline it stops, leaving out what it did not place, and what it placed is feasible', () => {
    const input = twoDepots(35);
    let readings = 0;
    // the deadline passes after 40 clock readings, inside the regret insertion
    const stop = new Stop(() => (++readings <= 40 ? 0 : 2000), 1000, undefined);
    const { sol, p } = start(input, 35, stop, 'regret');
    expect(sol.unassignedCount()).toBeGreaterThan(0);
    expect(sol.unassignedCount()).toBeLessThan(p.nOrders);
    assertSearchFeasible(input, sol);
  });
});

describe('regretInsert with a deadline', () => {
  it('stops when told and returns exactly the orders it did not place', () => {
    const input = randomProblem({ orders: 60, vehicles: 8, seed: 35, windows: true });
    const p = buildProblem(input);
    const sol = new SearchSolution(p, costModel(p, 'distance'));
    let rounds = 0;
    const all = Array.from({ length: p.nOrders }, (_, i) => i);
    const left = regretInsert(sol, all, undefined, 1, () => ++rounds > 20);
    const served = sol.routes.reduce((a, r) => a + r.size, 0);
    expect(served).toBe(20);
    expect(left.length).toBe(p.nOrders - 20);
    const placed = new Set(sol.routes.flatMap((r) => r.orders()));
    for (const o of left) expect(placed.has(o)).toBe(false);
    expect(new Set([...placed, ...left]).size).toBe(p.nOrders);
    expect(sol.feasible()).toBe(true);
  });
});
