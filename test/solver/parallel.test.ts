import { describe, expect, it } from 'vitest';
import { solve, solveParallel } from '../../src/index.js';
import { assertFeasible } from '../helpers/checker.js';
import type { ProblemInput } from '../../src/model/input.js';
import { buildMatrix, type MatrixArray } from '../../src/model/matrix.js';
import { randomProblem, solomon } from '../helpers/problems.js';

describe('solveParallel', () => {
  it('one epoch: the main thread and a worker thread search, the better answer comes back; feasible, reproducible under an iteration budget', async () => {
    const p = solomon('RC105');
    // under 4,000 iterations (800 here: seconds of CPU): one epoch, thread 0 on the main thread (src/pool/parallel.ts mainAndWorkers)
    const a = await solveParallel(p, { threads: 2, iterations: 800, seed: 4 });
    const b = await solveParallel(p, { threads: 2, iterations: 800, seed: 4 });
    // thread 0 is the one-thread solve with the same seed: two threads are never worse
    const one = solve(p, { iterations: 800, seed: 4 });
    expect(a.distance).toBeLessThanOrEqual(one.distance + 1e-9);
    expect(a.stats.iterations).toBe(1600);
    assertFeasible(p, a);
    expect(a.unassigned).toEqual([]);
    expect(a.routes.map((r) => r.stops.map((s) => s.orderId))).toEqual(b.routes.map((r) => r.stops.map((s) => s.orderId)));
    expect(a.distance).toBe(b.distance);
  });

  it('keeps to a time limit and answers', async () => {
    const p = solomon('R201');
    const r = await solveParallel(p, { threads: 2, timeLimit: 1, seed: 1 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
  });

  it('one shared matrix for the threads gives the same answer as one matrix per thread (explicit matrix, two epochs)', async () => {
    const base = randomProblem({ orders: 30, vehicles: 5, seed: 9, windows: true });
    const m = buildMatrix(base.matrix);
    const rows = (a: MatrixArray) => Array.from({ length: m.size }, (_, i) => Array.from(a.subarray(i * m.size, (i + 1) * m.size)));
    const p: ProblemInput = { ...base, matrix: { kind: 'explicit', distance: rows(m.distance), duration: rows(m.duration) } };
    const options = { threads: 2, iterations: 4000, seed: 2 };
    const shared = await solveParallel(p, options);
    const own = await solveParallel(p, options, { shareMatrix: false });
    assertFeasible(p, shared);
    expect(shared.routes).toEqual(own.routes);
    expect(shared.unassigned).toEqual(own.unassigned);
    expect(shared.distance).toBe(own.distance);
    expect(shared.stats.iterations).toBe(own.stats.iterations);
  });

  it('an explicit matrix with coordinates is cut into sectors like a plane (one shared matrix, the sectors without its rows): feasible, every order served', async () => {
    const base = randomProblem({ orders: 70, vehicles: 20, seed: 5, capacity: 40, windows: true });
    const m = buildMatrix(base.matrix);
    const rows = (a: MatrixArray) => Array.from({ length: m.size }, (_, i) => Array.from(a.subarray(i * m.size, (i + 1) * m.size)));
    const latLon = base.matrix.kind === 'euclidean' ? base.matrix.coordinates.map(([x, y]): [number, number] => [y / 1000, x / 1000]) : [];
    const p: ProblemInput = { ...base, matrix: { kind: 'explicit', distance: rows(m.distance), duration: rows(m.duration), coordinates: latLon } };
    const epochs: number[] = [];
    const r = await solveParallel(p, { threads: 2, iterations: 4000, seed: 3 }, { decompose: 'always', onEpoch: (e) => epochs.push(e.sectors) });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
    expect(epochs[0]).toBe(1);
    expect(epochs.length).toBeGreaterThan(1);
    expect(epochs.slice(1).every((sectors) => sectors >= 2)).toBe(true);
  });
});
