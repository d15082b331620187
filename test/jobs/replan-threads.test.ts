/**
 * A re-plan on a two-thread pool (`serve` on a 2-core machine): like a planning job, it runs a
 * spare seed on the idle thread and keeps the better plan (docs/day.md "Threads"; bench/day.ts
 * --threads 2, --replan-best-of 2). The kept orders stay on the day's routes, and every solve is
 * checked by the independent checker (world.ts makeService).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SolveResult } from '../../src/model/input.js';
import type { SolveTask } from '../../src/pool/messages.js';
import { SolverPool } from '../../src/pool/pool.js';
import type { SolveRunner } from '../../src/jobs/service.js';
import { assertFeasible } from '../helpers/checker.js';
import { COMPANY, DATE, addOrder, addVehicle, checkJob, makeService, makeStore, near, plan } from './world.js';

const pool = new SolverPool({ threads: 2 });
afterAll(() => pool.destroy());

/** The real pool, with a record of every task. */
class Recorder implements SolveRunner {
  readonly size: number;
  readonly seen: Array<{ seed: number; timeLimit: number; spare: boolean; replan: boolean; result?: SolveResult }> = [];
  constructor(private readonly inner: SolverPool) {
    this.size = inner.size;
  }
  async run(task: SolveTask, options?: { signal?: AbortSignal }): Promise<SolveResult> {
    const entry: (typeof this.seen)[number] = { seed: task.options.seed!, timeLimit: task.options.timeLimit!, spare: task.stop !== undefined, replan: task.problem.now !== undefined };
    this.seen.push(entry);
    entry.result = await this.inner.run(task, options);
    return entry.result;
  }
}

describe('a re-plan on two threads', () => {
  it('runs a spare seed on the idle thread and keeps the better plan; no kept order is dropped', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addVehicle(store, 2);
    for (let id = 1; id <= 30; id++) addOrder(store, { id, ...near((id % 9) - 4, ((id * 5) % 11) - 5) });
    const recorder = new Recorder(pool);
    const chosen: SolveResult[] = [];
    const service = makeService(store, recorder, {
      onSolved: ({ problem, result }) => {
        assertFeasible(problem, result);
        if (problem.now !== undefined) chosen.push(result);
      },
    });
    try {
      const morning = await plan(service, { order_ids: Array.from({ length: 30 }, (_, i) => i + 1), vehicle_ids: [1, 2] });
      checkJob(store, morning);
      const keptBefore = new Set(store.openRoutesOn(COMPANY, DATE).flatMap((r) => r.stops.filter((s) => s.orderId !== null).map((s) => s.orderId!)));
      expect(keptBefore.size).toBe(30);
      for (let id = 31; id <= 36; id++) addOrder(store, { id, ...near((id % 7) - 3, ((id * 3) % 9) - 4) });
      const seenBefore = recorder.seen.length;
      const job = await service.replan(COMPANY, { date: DATE, order_ids: [31, 32, 33, 34, 35, 36] });
      const done = await service.waitFor(COMPANY, job.job_id);
      expect(done.status, done.error).toBe('done');
      const tasks = recorder.seen.slice(seenBefore);
      expect(tasks.map((t) => [t.seed, t.spare, t.replan])).toEqual([
        [1, false, true],
        [2, true, true],
      ]);
      expect(tasks[0].timeLimit).toBe(tasks[1].timeLimit);
      // the better of the two (fewest unassigned, then least distance) is the one committed
      expect(chosen).toHaveLength(1);
      const best = Math.min(...tasks.filter((t) => t.result!.unassigned.length === 0).map((t) => t.result!.distance));
      expect(chosen[0].unassigned).toHaveLength(0);
      expect(chosen[0].distance).toBe(best);
      const after = store.openRoutesOn(COMPANY, DATE).flatMap((r) => r.stops.filter((s) => s.orderId !== null).map((s) => s.orderId!));
      for (const id of keptBefore) expect(after).toContain(id);
      for (let id = 31; id <= 36; id++) expect(after).toContain(id);
      expect(new Set(after).size).toBe(after.length);
    } finally {
      await service.close();
    }
  });
});
