/**
 * The solver warm-up of a starting service (src/jobs/warm-up.ts, SolveScheduler.warmUp), on a real
 * two-thread pool: a made-up day planned once on both threads (the cooperative solve's tasks, each
 * stoppable), and stopped by the first job, which then has both threads. Every warm-up answer and
 * every job's solve goes through the independent checker.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SolverPool } from '../../src/pool/pool.js';
import { warmUpProblem } from '../../src/jobs/warm-up.js';
import { COOPERATE_FROM } from '../../src/solver/cooperate.js';
import { FLOW_SERVE_USAGE, parseFlowServeArgs } from '../../src/cli/options.js';
import { assertFeasible } from '../helpers/checker.js';
import { Recorder, addOrder, addVehicle, checkJob, makeService, makeStore, near, plan, until } from './world.js';

const pool = new SolverPool({ threads: 2 });
afterAll(() => pool.destroy());

describe('the solver warm-up', () => {
  it('plans a made-up day of two depots and a mixed fleet on both threads, every task stoppable, and ends true', async () => {
    const day = await warmUpProblem();
    expect(day.orders.length).toBeGreaterThanOrEqual(COOPERATE_FROM);
    expect(new Set(day.vehicles.map((v) => v.startDepot)).size).toBe(2);
    expect(new Set(day.vehicles.map((v) => v.capacity?.weight)).size).toBe(2);
    const recorder = new Recorder(pool);
    const service = makeService(makeStore(), recorder, { solveClock: recorder.clock });
    try {
      expect(await service.warmUp(2)).toBe(true);
      // the cooperative solve: the two depot halves first, each on its thread, then more epochs
      expect(recorder.seen.length).toBeGreaterThanOrEqual(3);
      const halves = recorder.seen.slice(0, 2);
      expect(halves.reduce((n, t) => n + t.task.problem.orders.length, 0)).toBe(day.orders.length);
      for (const t of recorder.seen) {
        expect(t.flag, 'a warm-up task is stoppable').toBeDefined();
        expect(t.result, 'every warm-up task answered').toBeDefined();
        assertFeasible(t.task.problem, t.result!);
      }
    } finally {
      await service.close();
    }
  });

  it('a warm-up too short to cooperate runs a seed on each thread', async () => {
    const recorder = new Recorder(pool);
    const service = makeService(makeStore(), recorder);
    try {
      expect(await service.warmUp(0.5)).toBe(true);
      expect(recorder.seen).toHaveLength(2);
      for (const t of recorder.seen) {
        expect(t.task.problem.orders.length).toBe((await warmUpProblem()).orders.length);
        assertFeasible(t.task.problem, t.result!);
      }
    } finally {
      await service.close();
    }
  });

  it('a job that comes during the warm-up stops it: no warm-up task starts after the job, and the job plans on both threads', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addVehicle(store, 2);
    for (let id = 1; id <= 30; id++) addOrder(store, { id, ...near((id % 9) - 4, ((id * 5) % 11) - 5) });
    const recorder = new Recorder(pool);
    const service = makeService(store, recorder);
    try {
      // a warm-up that would run for a minute (the test's timeout), stopped once its first task began
      const warming = service.warmUp(60);
      await until(() => recorder.seen.length >= 1);
      const warmTasks = () => recorder.seen.filter((t) => t.task.problem.orders.length > 30);
      const done = await plan(service, { order_ids: Array.from({ length: 30 }, (_, i) => i + 1), vehicle_ids: [1, 2] });
      checkJob(store, done);
      expect(await warming).toBe(false);
      const firstJobTask = recorder.seen.findIndex((t) => t.task.problem.orders.length === 30);
      expect(firstJobTask).toBeGreaterThan(0);
      for (const t of warmTasks()) {
        expect(recorder.seen.indexOf(t), 'no warm-up task after the job').toBeLessThan(firstJobTask);
        expect(Atomics.load(t.flag!, 0), 'every warm-up task was asked to stop').toBe(1);
      }
      // the job had the pool to itself: its seed and a spare seed on the second thread
      const jobTasks = recorder.seen.filter((t) => t.task.problem.orders.length === 30);
      expect(jobTasks.map((t) => t.flag !== undefined)).toEqual([false, true]);
      // and no other warm-up starts once a job has run
      expect(await service.warmUp(1)).toBe(false);
    } finally {
      await service.close();
    }
  });

  it('serve and worker take --solver-warm-up SECONDS (0: none), checked', () => {
    const usage = (m: string) => new Error(m);
    expect(parseFlowServeArgs({ 'solver-warm-up': '0' }, usage)).toEqual({ solverWarmUpSec: 0 });
    expect(parseFlowServeArgs({ 'solver-warm-up': '2.5' }, usage)).toEqual({ solverWarmUpSec: 2.5 });
    for (const bad of ['-1', '61', 'two', '', '1e3', '0.0001']) expect(() => parseFlowServeArgs({ 'solver-warm-up': bad }, usage)).toThrow(/--solver-warm-up/);
    expect(FLOW_SERVE_USAGE).toContain('--solver-warm-up');
  });
});
