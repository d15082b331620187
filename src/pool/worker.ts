/**
 * The worker-thread entry (dist/worker.js): Piscina calls the default export once per task. The
 * solver watches its own deadline (options.timeLimit) and the task's stop flag; the pool's abort is
 * only a safety net.
 */
import type { SolveResult } from '../model/input.js';
import { solve } from '../solver/solve.js';
import type { SolveTask } from './messages.js';

export default function solveTask(task: SolveTask): SolveResult {
  const flag = task.stop === undefined ? undefined : new Int32Array(task.stop);
  return solve(task.problem, task.options, flag === undefined ? {} : { halted: () => Atomics.load(flag, 0) !== 0 });
}
