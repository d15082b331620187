/**
 * Vehicle reassignment: a route moves onto a free vehicle of another class, or two routes swap
 * vehicles, when that is cheaper and feasible (capacity, features, windows); never otherwise.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { RouteProbe } from '../../src/route/probe.js';
import { VehicleReassign } from '../../src/search/reassign.js';
import type { OrderInput, ProblemInput, VehicleInput } from '../../src/model/input.js';
import { assertSearchFeasible } from '../helpers/search-result.js';

/** Depot A at (0, 0), depot B at (100, 0); three orders around each depot. */
function twoDepots(vehicles: VehicleInput[], extra: Partial<OrderInput> = {}): ProblemInput {
  const coordinates: Array<[number, number]> = [
    [0, 0],
    [100, 0],
    [2, 3],
    [4, 1],
    [3, 5],
    [98, 3],
    [96, 1],
    [97, 5],
  ];
  const orders: OrderInput[] = [2, 3, 4, 5, 6, 7].map((loc, i) => ({ id: `o${i}`, location: loc, weight: 10, volume: 1, serviceTime: 1, ...(i >= 3 ? extra : {}) }));
  return { name: 'two-depots', matrix: { kind: 'euclidean', coordinates }, depots: [{ id: 'A', location: 0 }, { id: 'B', location: 1 }], vehicles, orders };
}

const van = (id: string, depot: string, more: Partial<VehicleInput> = {}): VehicleInput => ({
  id,
  capacity: { weight: 100, volume: 10 },
  shift: [0, 10_000],
  startDepot: depot,
  endDepot: depot,
  ...more,
});

function setUp(input: ProblemInput, routes: number[][]) {
  const p = buildProblem(input);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  routes.forEach((orders, v) => sol.setRoute(sol.routes[v], orders));
  return { p, sol, reassign: new VehicleReassign(sol, new RouteProbe(p, sol.costs)) };
}

describe('vehicle reassignment', () => {
  it('moves a route onto a free vehicle at the depot next to its orders', () => {
    const input = twoDepots([van('a', 'A'), van('b', 'B')]);
    // vehicle a (depot A) drives the three orders next to depot B; vehicle b is free
    const { sol, reassign } = setUp(input, [[3, 4, 5], []]);
    const before = sol.cost();
    expect(reassign.active).toBe(true);
    expect(reassign.run().sort()).toEqual([0, 1]);
    expect(sol.routes[0].size).toBe(0);
    expect(sol.routes[1].orders()).toEqual([3, 4, 5]);
    expect(sol.cost()).toBeLessThan(before - 150); // two 100-long depot legs saved, at least
    assertSearchFeasible(input, sol);
  });

  it('swaps the routes of two vehicles when each serves the other depot', () => {
    const input = twoDepots([van('a', 'A'), van('b', 'B', { capacity: { weight: 120, volume: 10 } })]);
    const { sol, reassign } = setUp(input, [[3, 4, 5], [0, 1, 2]]);
    const before = sol.cost();
    expect(reassign.run().length).toBe(2);
    expect(sol.routes[0].orders()).toEqual([0, 1, 2]);
    expect(sol.routes[1].orders()).toEqual([3, 4, 5]);
    expect(sol.cost()).toBeLessThan(before);
    assertSearchFeasible(input, sol);
  });

  it('keeps a route off a vehicle without the feature its orders need', () => {
    const input = twoDepots([van('a', 'A', { features: ['cold'] }), van('b', 'B')], { requiredFeatures: ['cold'] });
    const { sol, reassign } = setUp(input, [[3, 4, 5], []]);
    const before = sol.snapshot();
    expect(reassign.run()).toEqual([]);
    expect(sol.snapshot()).toEqual(before);
  });

  it('keeps a route off a vehicle too small for it', () => {
    const input = twoDepots([van('a', 'A'), van('b', 'B', { capacity: { weight: 25, volume: 10 } })]);
    const { sol, reassign } = setUp(input, [[3, 4, 5], []]);
    expect(reassign.run()).toEqual([]);
    expect(sol.routes[0].orders()).toEqual([3, 4, 5]);
  });

  it('keeps a route off a vehicle whose shift cannot reach the windows', () => {
    const input = twoDepots([van('a', 'A'), van('b', 'B', { shift: [500, 10_000] })], { timeWindow: [0, 300] });
    const { sol, reassign } = setUp(input, [[3, 4, 5], []]);
    expect(reassign.run()).toEqual([]);
    expect(sol.routes[0].orders()).toEqual([3, 4, 5]);
  });

  it('does nothing with a fleet of one class', () => {
    const input = twoDepots([van('a', 'A'), van('b', 'A')]);
    const { sol, reassign } = setUp(input, [[3, 4, 5], []]);
    expect(reassign.active).toBe(false);
    expect(reassign.run()).toEqual([]);
    expect(sol.routes[0].orders()).toEqual([3, 4, 5]);
  });
});
