/**
 * The worker-thread entry (dist/worker.js): Piscina calls the default export once per task, and
 * `solveParallel`'s plain threads load the same file (pool/parallel.ts). The solver watches its
 * own deadline (options.timeLimit, capped by the task's absolute `deadline`) and the task's stop
 * flag; the pool's abort is only a safety net. A task with a shared matrix builds it or waits for
 * it (model/shared-matrix.ts). A keyed task reuses the model its thread built for the previous
 * task of the same key (the epochs of one solve). The schema (zod) is loaded only for a task that
 * asks for validation: the threads of a short `solve --threads N` get validated input, and start
 * sooner without it.
 * A task with `cpuClock` is timed by its thread's CPU time (thread-clock.ts; benchmarks).
 * In `serve` and `worker` the thread first lowers its own CPU priority (`--solver-nice`,
 * worker-nice.ts), so the event loop of its process gets a core first.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { buildProblem, type Problem } from '../model/problem.js';
import { obtainSharedMatrix } from '../model/shared-matrix.js';
import { solveProblem, solveStop, solveValid, type SolveEnv } from '../solver/solve-core.js';
import type { SolveTask, SolveTaskResult } from './messages.js';
import { threadCpuMs } from './thread-clock.js';
import { currentThreadId, markTaskBegun } from './thread-cpu.js';
import { applySolverNice } from './worker-nice.js';

applySolverNice();
const THREAD_ID = currentThreadId();

/** The model of this thread's last keyed task. */
let cached: { key: string; problem: Problem } | null = null;

export default async function solveTask(task: SolveTask): Promise<SolveTaskResult> {
  markTaskBegun(task.cpu, THREAD_ID);
  const cpu0 = threadCpuMs();
  const result = await solveOnThread(task);
  return { ...result, cpuMs: threadCpuMs() - cpu0 };
}

async function solveOnThread(task: SolveTask): Promise<SolveResult> {
  const flag = task.stop === undefined ? undefined : new Int32Array(task.stop);
  const env: SolveEnv = flag === undefined ? {} : { halted: () => Atomics.load(flag, 0) !== 0 };
  const share = task.cpuClock;
  if (share !== undefined && share > 0) env.now = () => threadCpuMs() / share;
  let options = task.options;
  if (task.deadline !== undefined && task.cpuClock === undefined) {
    const left = Math.max(0.001, (task.deadline - Date.now()) / 1000);
    options = { ...options, timeLimit: Math.min(options.timeLimit ?? Infinity, left) };
  }
  // as `solve`: the budget starts before validation
  const stop = solveStop(options, env);
  // asked to give the thread back before it began (a warm-up or spare seed a solve overtook): no
  // model, no start to build; the scheduler drops a spare that fails (pool/scheduler.ts). The
  // steps before the search check again (SolveHalted, solver/stop.ts).
  stop.checkHalted();
  const shared = task.matrix;
  if (shared !== undefined) env.matrix = (input) => obtainSharedMatrix(shared, input);
  if (task.key !== undefined && options.validate === false) {
    if (cached === null || cached.key !== task.key) cached = { key: task.key, problem: buildProblem(task.problem, env.matrix?.(task.problem.matrix)) };
    return solveProblem(cached.problem, options, stop);
  }
  const run = async (problem: ProblemInput, o: SolveOptions, locations?: number) => {
    if (o.validate === false) return solveValid(problem, o, env, stop);
    const { parseProblem } = await import('../schema/problem.js');
    // the schema's first load on a thread takes a while: a task stopped meanwhile fails here
    stop.checkHalted();
    return solveValid(parseProblem(problem, locations === undefined ? undefined : { locations }), o, env, stop);
  };
  if (shared === undefined || !shared.inputOmitted || options.validate === false) return run(task.problem, options);
  // its explicit rows were left out (the builder validated them): the rest is validated against
  // the shared matrix's size (a half of a cooperating day holds orders the builder's half did not)
  return run(task.problem, options, shared.size);
}

