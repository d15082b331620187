import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import { assertFeasible } from '../helpers/checker.js';
import { randomProblem, solomon } from '../helpers/problems.js';
import { SolveHalted } from '../../src/solver/stop.js';

describe('solve', () => {
  it('serves every customer of C101 feasibly within the fleet', () => {
    const p = solomon('C101');
    const r = solve(p, { iterations: 200, seed: 1 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
    expect(r.vehicles).toBeLessThanOrEqual(25);
  });

  for (const seed of [1, 2, 3]) {
    it(`gives feasible results on random instances with all constraints (seed ${seed})`, () => {
      const p = randomProblem({ orders: 60, vehicles: 6, seed, windows: true, features: true, limits: true });
      const r = solve(p, { iterations: 200, seed });
      assertFeasible(p, r);
    });
  }

  it('reproduces the same solution for the same seed and iteration budget', () => {
    const p = randomProblem({ orders: 50, vehicles: 8, seed: 7, windows: true });
    const a = solve(p, { iterations: 300, seed: 5 });
    const b = solve(p, { iterations: 300, seed: 5 });
    assertFeasible(p, a);
    expect(a.routes.map((r) => r.stops.map((s) => s.orderId))).toEqual(b.routes.map((r) => r.stops.map((s) => s.orderId)));
    expect(a.distance).toBe(b.distance);
  });

  it('stops early with its best so far once `halted` says so (a spare seed giving its thread back)', () => {
    const p = solomon('R105');
    let polls = 0;
    const halted = () => ++polls > 5000;
    const r = solve(p, { iterations: 1_000_000, seed: 1 }, { halted });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
    expect(r.stats.iterations).toBeGreaterThan(0);
    expect(r.stats.iterations).toBeLessThan(1_000_000);
    // once halted, the search does not go on polling: it returned right after the flag turned
    expect(polls).toBeLessThan(5000 + 100);
  });

  it('a halt before the search has a solution throws SolveHalted at the next phase boundary: a warm-up or spare seed whose thread is wanted has nothing to finish', () => {
    const p = solomon('R105');
    // halted from the start: it stops after the matrix, before the model
    expect(() => solve(p, { timeLimit: 5, seed: 1 }, { halted: () => true })).toThrow(SolveHalted);
    // halted while the regret start inserts its orders (it polls once a round): the start stops
    // there, and the solve stops after it instead of inserting the orders it left out
    let polls = 0;
    const halted = () => ++polls > 10;
    expect(() => solve(p, { timeLimit: 5, seed: 1 }, { halted })).toThrow(SolveHalted);
    // (a few polls after the 11th: the round's own check, then the boundary's; an insertion of
    // the orders left out or a search would poll hundreds of times more)
    expect(polls).toBeGreaterThan(10);
    expect(polls).toBeLessThanOrEqual(14);
    // never halted: the same solve answers
    assertFeasible(p, solve(p, { iterations: 50, seed: 1 }, { halted: () => false }));
  });

  it('answers with a full feasible solution even when the deadline has already passed', () => {
    const p = solomon('R105');
    let t = 0;
    const clock = () => (t += 1000); // every reading is a second later: the deadline is gone at once
    const r = solve(p, { timeLimit: 0.5, seed: 1 }, { now: clock });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
    expect(r.stats.iterations).toBe(0);
  });

  it('stops at the deadline read from the injected clock', () => {
    const p = solomon('C201');
    let t = 0;
    const clock = () => (t += 1); // 1 ms per reading
    const r = solve(p, { timeLimit: 0.2, seed: 1 }, { now: clock });
    assertFeasible(p, r);
    expect(r.stats.iterations).toBeGreaterThan(0);
    expect(r.stats.elapsedMs).toBeLessThan(400);
  });

  it('minimises the fleet under the vehicles objective', () => {
    const p = solomon('R201');
    const byDistance = solve(p, { iterations: 1500, seed: 2 });
    const byVehicles = solve(p, { iterations: 1500, seed: 2, objective: 'vehicles' });
    assertFeasible(p, byDistance);
    assertFeasible(p, byVehicles);
    expect(byVehicles.unassigned).toEqual([]);
    expect(byVehicles.vehicles).toBeLessThan(byDistance.vehicles);
    expect(byVehicles.vehicles).toBeLessThanOrEqual(5); // hierarchical BKS: 4
  });

  it('optimises route duration under the duration objective', () => {
    const p = randomProblem({ orders: 40, vehicles: 6, seed: 9, windows: true });
    const r = solve(p, { iterations: 300, seed: 1, objective: 'duration' });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
  });

  it('starts from given routes and keeps them feasible', () => {
    const p = solomon('C101');
    const first = solve(p, { iterations: 100, seed: 1 });
    const warm = solve(p, { iterations: 10, seed: 2, initialRoutes: first.routes.map((r) => ({ vehicleId: r.vehicleId, orderIds: r.stops.map((s) => s.orderId) })) });
    assertFeasible(p, warm);
    expect(warm.distance).toBeLessThanOrEqual(first.distance + 1e-9);
  });

  it('uses the haversine and explicit matrices', () => {
    const base = randomProblem({ orders: 15, vehicles: 3, seed: 4 });
    const coords = (base.matrix as { coordinates: Array<[number, number]> }).coordinates;
    const hav = { ...base, matrix: { kind: 'haversine' as const, coordinates: coords.map(([x, y]) => [52 + x / 1000, 13 + y / 1000] as [number, number]), speedKmh: 30 } };
    hav.vehicles = hav.vehicles.map((v) => ({ ...v, shift: [0, 100000] as [number, number] }));
    const r1 = solve(hav, { iterations: 50 });
    assertFeasible(hav, r1);
    expect(r1.unassigned).toEqual([]);
    const n = coords.length;
    const d = coords.map(([x1, y1]) => coords.map(([x2, y2]) => Math.round(Math.hypot(x1 - x2, y1 - y2))));
    const ex = { ...base, matrix: { kind: 'explicit' as const, distance: d, duration: d.map((row) => row.slice()) } };
    const r2 = solve(ex, { iterations: 50 });
    assertFeasible(ex, r2);
    expect(r2.unassigned).toEqual([]);
    expect(n).toBe(16);
  });
});
