/**
 * The improvement phase's ruin size follows the route length, and on long routes (the path with the
 * large ruins and the occasional whole-route ruin) it still returns a feasible solution that is no
 * worse than its start.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { RouteProbe } from '../../src/route/probe.js';
import { buildNeighbours } from '../../src/search/neighbourhood.js';
import { defaultRuinParams } from '../../src/search/perturb.js';
import { endTemperature, improve, MIXED_FLEET_END, MIXED_FLEET_START, ONE_CLASS_END, ONE_CLASS_START, ruinParams, startTemperature } from '../../src/solver/improve.js';
import { constructStart } from '../../src/solver/solve.js';
import { Rng } from '../../src/solver/rng.js';
import { Stop } from '../../src/solver/stop.js';
import type { ProblemInput } from '../../src/model/input.js';
import { assertSearchFeasible } from '../helpers/search-result.js';
import { randomProblem } from '../helpers/problems.js';

describe('ruinParams', () => {
  it('keeps the SISR default of 10 orders on short routes', () => {
    for (const size of [1, 5, 10]) expect(ruinParams(size)).toEqual(defaultRuinParams);
  });
  it('grows with the route length, strings up to half of it', () => {
    expect(ruinParams(24)).toMatchObject({ avgRemoved: 24, maxString: 12 });
    expect(ruinParams(30.4)).toMatchObject({ avgRemoved: 30, maxString: 15 });
  });
  it('stops at 40 orders and strings of 20', () => {
    expect(ruinParams(45)).toMatchObject({ avgRemoved: 40, maxString: 20 });
    expect(ruinParams(500)).toMatchObject({ avgRemoved: 40, maxString: 20, blinkRate: defaultRuinParams.blinkRate });
  });
});

describe('startTemperature', () => {
  const base = randomProblem({ orders: 20, vehicles: 4, seed: 3 });
  const withVehicle = (k: number, change: Partial<ProblemInput['vehicles'][number]>): ProblemInput => ({
    ...base,
    vehicles: base.vehicles.map((v, i) => (i === k ? { ...v, ...change } : v)),
  });
  it('starts at half an average arc and ends at a fiftieth when every vehicle is alike (the Solomon and Homberger fleets)', () => {
    expect(startTemperature(buildProblem(base))).toBe(ONE_CLASS_START);
    expect(endTemperature(buildProblem(base))).toBe(ONE_CLASS_END);
    expect(ONE_CLASS_START).toBe(0.5);
    expect(ONE_CLASS_END).toBe(0.02);
    // names and ids do not make a class
    expect(startTemperature(buildProblem({ ...base, vehicles: base.vehicles.map((v, i) => ({ ...v, id: `van-${i}` })) }))).toBe(ONE_CLASS_START);
  });
  it('starts hotter when the vehicles differ: capacity, shift, depot, limits or features', () => {
    const other = { ...base, depots: [...base.depots, { id: 'e', location: 1 }] };
    const cases: ProblemInput[] = [
      withVehicle(3, { capacity: { weight: 500, volume: 20 } }),
      withVehicle(0, { shift: [0, 800] }),
      { ...other, vehicles: other.vehicles.map((v, i) => (i === 1 ? { ...v, startDepot: 'e', endDepot: 'e' } : v)) },
      withVehicle(2, { maxOrders: 5 }),
      withVehicle(1, { features: ['cold'] }),
    ];
    for (const input of cases) {
      expect(startTemperature(buildProblem(input))).toBe(MIXED_FLEET_START);
      expect(endTemperature(buildProblem(input))).toBe(MIXED_FLEET_END);
    }
    expect(MIXED_FLEET_START).toBeGreaterThan(1);
    expect(MIXED_FLEET_END).toBeLessThan(MIXED_FLEET_START);
  });
});

/** 120 orders for 3 roomy vehicles: routes of 40 orders, where the large ruins run. */
function longRoutes(seed: number): ProblemInput {
  const base = randomProblem({ orders: 120, vehicles: 3, capacity: 10_000, seed, windows: true });
  // windows widened to half the shift, so that three vehicles can serve everything
  const orders = base.orders.map((o) => ({ ...o, timeWindow: [o.timeWindow![0], o.timeWindow![0] + 2_500] as [number, number] }));
  return { ...base, orders, vehicles: base.vehicles.map((v) => ({ ...v, capacity: { weight: 10_000, volume: 1_000 }, shift: [0, 5_000] as [number, number] })) };
}

describe('improve on long routes', () => {
  for (const [seed, nearShare] of [
    [1, undefined],
    [2, undefined],
    [3, undefined],
    [4, 1],
    [5, 0],
  ] as const) {
    it(`seed ${seed}, recreate ${nearShare === undefined ? 'mixed' : nearShare === 1 ? 'near-only' : 'full scan'}: feasible, every order served once, no worse than the start`, () => {
      const input = longRoutes(seed);
      const p = buildProblem(input);
      const sol = new SearchSolution(p, costModel(p, 'distance'));
      const neighbours = buildNeighbours(p);
      const rng = new Rng(seed);
      constructStart(sol, new RouteProbe(p, sol.costs), neighbours, rng, new Stop(() => 0, undefined, 1));
      expect(sol.unassignedCount()).toBe(0);
      expect(p.nOrders / sol.usedVehicles()).toBeGreaterThanOrEqual(30);
      const start = sol.distance();
      improve(sol, { neighbours, rng, stop: new Stop(() => 0, undefined, 300), objective: 'distance', nearShare });
      assertSearchFeasible(input, sol);
      expect(sol.unassignedCount()).toBe(0);
      expect(sol.distance()).toBeLessThanOrEqual(start + 1e-6);
    });
  }
});
