/**
 * The worker-thread entry (dist/worker.js): Piscina calls the default export once per task. The
 * solver watches its own deadline (options.timeLimit) and the task's stop flag; the pool's abort is
 * only a safety net. A task with a shared matrix builds it or waits for it (model/shared-matrix.ts).
 */
import type { SolveResult } from '../model/input.js';
import { obtainSharedMatrix } from '../model/shared-matrix.js';
import { parseProblem } from '../schema/problem.js';
import { solve, type SolveEnv } from '../solver/solve.js';
import type { SolveTask } from './messages.js';

export default function solveTask(task: SolveTask): SolveResult {
  const flag = task.stop === undefined ? undefined : new Int32Array(task.stop);
  const env: SolveEnv = flag === undefined ? {} : { halted: () => Atomics.load(flag, 0) !== 0 };
  const shared = task.matrix;
  if (shared === undefined) return solve(task.problem, task.options, env);
  env.matrix = (input) => obtainSharedMatrix(shared, input);
  if (!shared.inputOmitted || task.options.validate === false) return solve(task.problem, task.options, env);
  // its explicit rows were left out (the builder validated them): the rest is validated against
  // the shared matrix's size (a half of a cooperating day holds orders the builder's half did not)
  return solve(parseProblem(task.problem, { locations: shared.size }), { ...task.options, validate: false }, env);
}
