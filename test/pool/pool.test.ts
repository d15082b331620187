import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { PISCINA_READY, SolverPool } from '../../src/pool/pool.js';
import type { ProblemInput } from '../../src/model/input.js';
import { failure } from '../helpers/pool-failure.js';

const faulty = new URL('./fixtures/faulty-worker.mjs', import.meta.url);

function problem(name: string): ProblemInput {
  return {
    name,
    matrix: { kind: 'euclidean', coordinates: [[0, 0], [1, 0]] },
    depots: [{ id: 'd', location: 0 }],
    vehicles: [{ id: 'v', capacity: { weight: 10, volume: 10 }, shift: [0, 100], startDepot: 'd', endDepot: 'd' }],
    orders: [{ id: 'o1', location: 1, weight: 1, volume: 1, serviceTime: 0 }],
  };
}


describe('SolverPool on real worker threads (test worker)', () => {
  const pool = new SolverPool({ filename: faulty, threads: 2, maxOldGenerationSizeMb: 64 });
  afterAll(() => pool.destroy());

  it('runs a task on a worker and returns its answer', async () => {
    const result = await pool.run({ problem: problem('unassign'), options: {} });
    expect(result.unassigned).toEqual([{ orderId: 'o1', reason: 'no_vehicle' }]);
  });

  it('reports a thread that exits as crashed, and keeps working', async () => {
    const error = await failure(pool.run({ problem: problem('crash'), options: {} }));
    expect(error.kind).toBe('crashed');
    expect(error.message).toMatch(/exited with code/);
    expect((await pool.run({ problem: problem('unassign'), options: {} })).routes).toEqual([]);
  });

  it('reports a task that throws as failed', async () => {
    const error = await failure(pool.run({ problem: problem('throw'), options: {} }));
    expect(error.kind).toBe('failed');
    expect(error.message).toContain('threw on purpose');
  });

  it('stops a task that never returns when its signal aborts', async () => {
    const controller = new AbortController();
    const running = pool.run({ problem: problem('hang'), options: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const error = await failure(running);
    expect(error.kind).toBe('aborted');
    expect((await pool.run({ problem: problem('unassign'), options: {} })).routes).toEqual([]);
  });

  it('reports a worker beyond its heap limit as out_of_memory', async () => {
    const error = await failure(pool.run({ problem: problem('oom'), options: {} }));
    expect(error.kind).toBe('out_of_memory');
    expect((await pool.run({ problem: problem('unassign'), options: {} })).routes).toEqual([]);
  });
});

describe('SolverPool.destroy while its threads are still loading', () => {
  // Node aborts the process (SIGABRT) when a thread is terminated while it links an ES module
  // graph: a serve stopped by SIGTERM within a second of its start did so on a busy machine.
  const slowWorker = new URL('./fixtures/slow-load-worker.mjs', import.meta.url);

  /** Runs `body` with the fixture's threads taking 600 ms to load; returns the lines they wrote once loaded. */
  async function loadMarks(body: () => Promise<void>): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'dp-slow-load-'));
    const mark = join(dir, 'loaded');
    process.env.DP_SLOW_LOAD_MARK = mark;
    process.env.DP_SLOW_LOAD_MS = '600';
    try {
      await body();
      return existsSync(mark) ? readFileSync(mark, 'utf8') : '';
    } finally {
      delete process.env.DP_SLOW_LOAD_MARK;
      delete process.env.DP_SLOW_LOAD_MS;
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('waits for each thread to finish loading its module before it stops the threads', async () => {
    const marks = await loadMarks(async () => {
      const pool = new SolverPool({ filename: slowWorker, threads: 2 });
      pool.warm();
      await new Promise((resolve) => setTimeout(resolve, 100)); // both threads are in their 600 ms load
      await pool.destroy();
    });
    // terminated mid-load, neither thread would have written its line
    expect(marks).toBe('loaded\nloaded\n');
  });

  it('also waits for a thread started later, the replacement of one that died', async () => {
    const marks = await loadMarks(async () => {
      const pool = new SolverPool({ filename: slowWorker, threads: 1 });
      expect((await pool.run({ problem: problem('fine'), options: {} })).routes).toEqual([]); // loaded
      expect((await failure(pool.run({ problem: problem('crash'), options: {} }))).kind).toBe('crashed');
      await new Promise((resolve) => setTimeout(resolve, 100)); // the replacement is in its 600 ms load
      await pool.destroy();
    });
    expect(marks).toBe('loaded\nloaded\n');
  });

  it("knows a thread has loaded by the installed piscina's own ready message", () => {
    // piscina does not export it: read from its file (the package's main sits beside it)
    const require = createRequire(import.meta.url);
    const common = require(join(dirname(require.resolve('piscina')), 'common.js')) as { READY: string };
    expect(PISCINA_READY).toBe(common.READY);
  });

  it('a pool that never started a thread is destroyed at once', async () => {
    const pool = new SolverPool({ filename: slowWorker, threads: 2 });
    await pool.destroy();
    await expect(pool.run({ problem: problem('unassign'), options: {} })).rejects.toMatchObject({ kind: 'aborted' });
  });
});
