/**
 * The worker-thread entry (dist/worker.js): Piscina calls the default export once per task. The
 * solver watches its own deadline (options.timeLimit) and the task's stop flag; the pool's abort is
 * only a safety net. A task with a shared matrix builds it or waits for it (model/shared-matrix.ts).
 * The schema (zod) is loaded only for a task that asks for validation: the threads of a short
 * `solve --threads N` get validated input, and start sooner without it.
 * In `serve` and `worker` the thread first lowers its own CPU priority (`--solver-nice`,
 * worker-nice.ts), so the event loop of its process gets a core first.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { obtainSharedMatrix } from '../model/shared-matrix.js';
import { solveStop, solveValid, type SolveEnv } from '../solver/solve-core.js';
import type { SolveTask } from './messages.js';
import { applySolverNice } from './worker-nice.js';

applySolverNice();

export default async function solveTask(task: SolveTask): Promise<SolveResult> {
  const flag = task.stop === undefined ? undefined : new Int32Array(task.stop);
  const env: SolveEnv = flag === undefined ? {} : { halted: () => Atomics.load(flag, 0) !== 0 };
  // as `solve`: the budget starts before validation
  const stop = solveStop(task.options, env);
  const shared = task.matrix;
  const run = async (problem: ProblemInput, options: SolveOptions, locations?: number) =>
    solveValid(options.validate === false ? problem : (await import('../schema/problem.js')).parseProblem(problem, locations === undefined ? undefined : { locations }), options, env, stop);
  if (shared === undefined) return run(task.problem, task.options);
  env.matrix = (input) => obtainSharedMatrix(shared, input);
  if (!shared.inputOmitted || task.options.validate === false) return run(task.problem, task.options);
  // its explicit rows were left out (the builder validated them): the rest is validated against
  // the shared matrix's size (a half of a cooperating day holds orders the builder's half did not)
  return run(task.problem, task.options, shared.size);
}
