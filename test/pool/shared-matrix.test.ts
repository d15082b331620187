import { afterAll, describe, expect, it } from 'vitest';
import type { ProblemInput, SolveOptions, SolveResult } from '../../src/model/input.js';
import { buildMatrix, locationOrder, type MatrixArray } from '../../src/model/matrix.js';
import { allocateSharedMatrix, omitMatrixInput, sharedMatrixBuilds, sharedMatrixRef, type SharedMatrix } from '../../src/model/shared-matrix.js';
import type { SolveTask } from '../../src/pool/messages.js';
import { PoolTaskError, SolverPool } from '../../src/pool/pool.js';
import { solve } from '../../src/solver/solve.js';
import { assertFeasible } from '../helpers/checker.js';
import { randomProblem } from '../helpers/problems.js';
import { failure } from '../helpers/pool-failure.js';

// Real worker threads: the real solver worker, and a test worker whose builder dies or hangs.
const pool = new SolverPool({ threads: 2 });
const failing = new SolverPool({ threads: 2, filename: new URL('./fixtures/matrix-builder-worker.mjs', import.meta.url) });
afterAll(() => Promise.all([pool.destroy(), failing.destroy()]));

/** The same problem with its matrix written out as explicit rows (duration = distance / speed). */
function asExplicit(p: ProblemInput): ProblemInput {
  const m = buildMatrix(p.matrix);
  const rows = (a: MatrixArray) => Array.from({ length: m.size }, (_, i) => Array.from(a.subarray(i * m.size, (i + 1) * m.size)));
  return { ...p, matrix: { kind: 'explicit', distance: rows(m.distance), duration: rows(m.duration) } };
}

/** Task i (token i + 1) of a solve sharing `shared`; all but the first leave an explicit matrix out. */
function task(p: ProblemInput, shared: SharedMatrix, i: number, options: SolveOptions): SolveTask {
  const omitted = i > 0 && p.matrix.kind === 'explicit';
  return { problem: omitted ? omitMatrixInput(p) : p, options, matrix: sharedMatrixRef(shared, i + 1, omitted) };
}

const status = (shared: SharedMatrix) => Atomics.load(new Int32Array(shared.state), 0);

async function claimed(shared: SharedMatrix): Promise<void> {
  for (let i = 0; i < 500 && status(shared) !== 1; i++) await new Promise((r) => setTimeout(r, 20));
  expect(status(shared)).toBe(1);
}


/** The answer must be the one of a solve on this thread with its own matrix, to the bit. */
function expectSameAsUnshared(p: ProblemInput, options: SolveOptions, r: SolveResult): void {
  assertFeasible(p, r);
  const own = solve(p, options);
  expect(r.routes).toEqual(own.routes);
  expect(r.unassigned).toEqual(own.unassigned);
  expect(r.distance).toBe(own.distance);
  expect(r.stats.iterations).toBe(own.stats.iterations);
}

describe('one matrix shared by the threads of a solve', () => {
  for (const kind of ['euclidean', 'explicit'] as const) {
    it(`${kind}: two tasks on two threads, one build; the same answers as unshared solves at a fixed iteration budget`, async () => {
      const base = randomProblem({ orders: 50, vehicles: 6, seed: 8, windows: true });
      const p = kind === 'explicit' ? asExplicit(base) : base;
      const shared = allocateSharedMatrix(51);
      const options = [1, 2].map((seed): SolveOptions => ({ iterations: 300, seed }));
      const results = await Promise.all(options.map((o, i) => pool.run(task(p, shared, i, o))));
      expect(sharedMatrixBuilds(shared)).toBe(1);
      // the arrays this thread allocated hold the matrix the worker built (laid out as a solve
      // lays out its own)
      const own = buildMatrix(p.matrix, undefined, locationOrder(p.matrix));
      expect(Array.from(new Float64Array(shared.distance))).toEqual(Array.from(own.distance));
      expect(Array.from(new Float64Array(shared.duration))).toEqual(Array.from(own.duration));
      results.forEach((r, i) => expectSameAsUnshared(p, options[i], r));
    });
  }

  it('a task without the explicit rows is still validated, against the shared matrix: a half of a day with a bad order fails with the field and the rule', async () => {
    const p = asExplicit(randomProblem({ orders: 20, vehicles: 3, seed: 6, windows: true }));
    // the builder's half: the first ten orders; the other half: the rest, one of them broken
    const first: ProblemInput = { ...p, orders: p.orders.slice(0, 10) };
    const second: ProblemInput = { ...p, orders: p.orders.slice(10).map((o, i) => (i === 2 ? { ...o, timeWindow: [50, 10] as [number, number] } : o)) };
    const far: ProblemInput = { ...p, orders: p.orders.slice(10).map((o, i) => (i === 4 ? { ...o, location: 21 } : o)) };
    const shared = allocateSharedMatrix(21);
    const options: SolveOptions = { iterations: 50, seed: 1 };
    const [a, b, c, d] = await Promise.allSettled([
      pool.run(task(first, shared, 0, options)),
      pool.run(task(second, shared, 1, options)),
      pool.run(task(far, shared, 2, options)),
      pool.run(task({ ...p, orders: p.orders.slice(10) }, shared, 3, options)),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(b.status === 'rejected' && (b.reason as Error).message).toMatch(/orders\[2\]\.timeWindow: start must not be after end/);
    expect(c.status === 'rejected' && (c.reason as Error).message).toMatch(/orders\[4\]\.location: must be < 21 \(the number of matrix locations\)/);
    // a valid half without the rows answers from the shared matrix, feasible
    expect(d.status).toBe('fulfilled');
    if (d.status === 'fulfilled') assertFeasible({ ...p, orders: p.orders.slice(10) }, d.value);
    expect(sharedMatrixBuilds(shared)).toBe(1);
  });

  it('a builder that throws: its task fails, and a task that waits for it fails at once instead of hanging', async () => {
    const p = asExplicit(randomProblem({ orders: 20, vehicles: 3, seed: 5 }));
    const broken = { ...p, matrix: { ...p.matrix, distance: (p.matrix as { distance: unknown[] }).distance.map((row, i) => (i === 3 ? null : row)) } } as ProblemInput;
    const shared = allocateSharedMatrix(21);
    const options: SolveOptions = { iterations: 50, validate: false };
    const started = Date.now();
    const [a, b] = await Promise.allSettled([pool.run(task(broken, shared, 0, options)), pool.run(task(broken, shared, 1, options))]);
    expect(a.status === 'rejected' && (a.reason as PoolTaskError).kind).toBe('failed');
    expect(b.status === 'rejected' && (b.reason as PoolTaskError).message).toMatch(/shared matrix of this solve was not built \(its builder failed\)/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a builder's thread dies mid-build: a waiter without the input fails; one with it builds its own copy and answers as unshared", async () => {
    const p = randomProblem({ orders: 25, vehicles: 4, seed: 6 });
    const options: SolveOptions = { iterations: 200, seed: 3 };

    const explicit = { ...asExplicit(p), name: 'die-building' };
    const one = allocateSharedMatrix(26);
    const [dead, waiter] = await Promise.allSettled([failing.run(task(explicit, one, 0, options)), failing.run(task(explicit, one, 1, options))]);
    expect(dead.status === 'rejected' && (dead.reason as PoolTaskError).kind).toBe('crashed');
    expect(waiter.status === 'rejected' && (waiter.reason as PoolTaskError).message).toMatch(/not built \(its builder failed\)/);

    const coords = { ...p, name: 'die-building' };
    const two = allocateSharedMatrix(26);
    const builder = failing.run(task(coords, two, 0, options));
    await claimed(two);
    const second = failing.run(task(coords, two, 1, options));
    expect((await failure(builder)).kind).toBe('crashed');
    expectSameAsUnshared(coords, options, await second);
    expect(sharedMatrixBuilds(two)).toBe(1);
  });

  it('a builder that hangs is aborted; the task waiting for it then builds its own copy', async () => {
    const p = { ...randomProblem({ orders: 25, vehicles: 4, seed: 7 }), name: 'hang-building' };
    const options: SolveOptions = { iterations: 200, seed: 2 };
    const shared = allocateSharedMatrix(26);
    const controller = new AbortController();
    const builder = failing.run(task(p, shared, 0, options), { signal: controller.signal });
    await claimed(shared);
    const second = failing.run(task(p, shared, 1, options));
    setTimeout(() => controller.abort(), 300);
    expect((await failure(builder)).kind).toBe('aborted');
    expectSameAsUnshared(p, options, await second);
  });
});
