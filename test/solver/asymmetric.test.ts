/**
 * Asymmetric matrices (issue 19, item 4): d(i, j) != d(j, i). The solver must price every arc in
 * the direction it is driven. Tiny directed instances against brute force, a cut of the road city
 * (data/city-road) checked by the independent checker and by recomputing each route's distance
 * from the matrix in route order, and a one-way ring where the reversed tour costs ten times more.
 */
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import type { ProblemInput, SolveResult } from '../../src/model/input.js';
import { buildProblem } from '../../src/model/problem.js';
import { assertFeasible } from '../helpers/checker.js';
import { bruteForceOptimum, pathDistance, roadCut, tinyAsymmetric, type TinyOptions } from '../helpers/road.js';

/** Each route's distance recomputed from the matrix, start depot -> stops -> end depot, in route order. */
function routeDistances(p: ProblemInput, r: SolveResult): Array<{ forward: number; reversed: number; reported: number }> {
  const depot = new Map(p.depots.map((d) => [d.id, d.location]));
  const vehicle = new Map(p.vehicles.map((v) => [v.id, v]));
  return r.routes.map((route) => {
    const v = vehicle.get(route.vehicleId)!;
    const stops = route.stops.map((s) => s.location);
    const start = depot.get(v.startDepot)!;
    const end = depot.get(v.endDepot)!;
    return {
      forward: pathDistance(p, [start, ...stops, end]),
      reversed: pathDistance(p, [start, ...[...stops].reverse(), end]),
      reported: route.distance,
    };
  });
}

describe('tiny asymmetric instances against brute force', () => {
  const shapes: Array<{ name: string; o: Omit<TinyOptions, 'seed'> }> = [
    { name: 'one vehicle, 8 orders', o: { orders: 8, vehicles: 1 } },
    { name: 'one vehicle, 8 orders, windows', o: { orders: 8, vehicles: 1, windows: true } },
    { name: 'two vehicles, 7 orders, capacity', o: { orders: 7, vehicles: 2, capacity: 10 } },
    { name: 'two vehicles, 7 orders, capacity and windows', o: { orders: 7, vehicles: 2, capacity: 11, windows: true } },
    { name: 'two vehicles, 6 orders, windows', o: { orders: 6, vehicles: 2, windows: true } },
  ];
  for (const { name, o } of shapes) {
    it(`finds the optimum (${name})`, () => {
      let optimal = 0;
      let tried = 0;
      for (let seed = 1; seed <= 8; seed++) {
        const p = tinyAsymmetric({ ...o, seed });
        expect(buildProblem(p).symmetric).toBe(false);
        const best = bruteForceOptimum(p);
        if (best === Infinity) continue; // no plan serves every order: nothing to compare
        tried++;
        const r = solve(p, { iterations: 200, seed: 1 });
        assertFeasible(p, r);
        expect(r.unassigned).toEqual([]);
        // never better than the enumeration (that would mean a wrongly priced arc)
        expect(r.distance).toBeGreaterThanOrEqual(best - 1e-9);
        if (Math.abs(r.distance - best) < 1e-9) optimal++;
      }
      expect(tried).toBeGreaterThanOrEqual(5);
      expect(optimal).toBe(tried);
    });
  }
});

describe('the road city, a 100-order cut', () => {
  const p = roadCut(100, ['1', '2', '3', '4', '13', '14']);

  it('is asymmetric', () => {
    expect(buildProblem(p).symmetric).toBe(false);
  });

  it('solutions are feasible and report the distance driven in route order', () => {
    for (const seed of [1, 2]) {
      const r = solve(p, { iterations: 150, seed });
      assertFeasible(p, r);
      expect(r.unassigned).toEqual([]);
      let total = 0;
      for (const d of routeDistances(p, r)) {
        expect(d.reported).toBeCloseTo(d.forward, 6);
        total += d.forward;
      }
      expect(r.distance).toBeCloseTo(total, 6);
      // the direction matters on this matrix: some route would cost differently driven backwards
      expect(routeDistances(p, r).some((d) => Math.abs(d.reversed - d.forward) > 1)).toBe(true);
    }
  });
});

describe('direction', () => {
  /** A depot and four orders on a one-way ring: an arc costs 1 one step with the ring, 10 otherwise. */
  function ring(against = false): ProblemInput {
    const n = 5;
    const d = Array.from({ length: n }, (_, i) =>
      Array.from({ length: n }, (_, j) => {
        if (i === j) return 0;
        const step = against ? (i - j + n) % n : (j - i + n) % n;
        return step === 1 ? 1 : 10;
      }),
    );
    return {
      matrix: { kind: 'explicit', distance: d, duration: d.map((row) => row.slice()) },
      depots: [{ id: 'd', location: 0 }],
      vehicles: [{ id: 'v', capacity: { weight: 10, volume: 10 }, shift: [0, 1000], startDepot: 'd', endDepot: 'd' }],
      orders: [1, 2, 3, 4].map((k) => ({ id: `o${k}`, location: k, weight: 1, volume: 1, serviceTime: 0 })),
    };
  }

  it('drives the one-way ring with the traffic; the reversed tour costs more', () => {
    const p = ring();
    const r = solve(p, { iterations: 100, seed: 1 });
    assertFeasible(p, r);
    expect(r.routes[0].stops.map((s) => s.orderId)).toEqual(['o1', 'o2', 'o3', 'o4']);
    expect(r.distance).toBe(5);
    const [d] = routeDistances(p, r);
    expect(d.forward).toBe(5);
    expect(d.reversed).toBe(50);
  });

  it('with the matrix transposed, drives the ring the other way round', () => {
    const p = ring(true);
    const r = solve(p, { iterations: 100, seed: 1 });
    assertFeasible(p, r);
    expect(r.routes[0].stops.map((s) => s.orderId)).toEqual(['o4', 'o3', 'o2', 'o1']);
    expect(r.distance).toBe(5);
  });

  it('keeps the direction when only durations are asymmetric: windows force the way round', () => {
    // distances symmetric (so p.symmetric is true), durations one-way: 1 with the ring, 30 against
    const p = ring();
    const m = p.matrix as { kind: 'explicit'; distance: number[][]; duration: number[][] };
    m.distance = m.distance.map((row, i) => row.map((_, j) => (i === j ? 0 : 10)));
    m.duration = m.duration.map((row, i) => row.map((_, j) => {
      if (i === j) return 0;
      return (j - i + 5) % 5 === 1 ? 1 : 30;
    }));
    for (const o of p.orders) o.timeWindow = [0, 4];
    expect(buildProblem(p).symmetric).toBe(true);
    const r = solve(p, { iterations: 100, seed: 1 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
    expect(r.routes[0].stops.map((s) => s.orderId)).toEqual(['o1', 'o2', 'o3', 'o4']);
  });
});
