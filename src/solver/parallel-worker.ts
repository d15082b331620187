/**
 * The worker-thread entry of `solveParallel`: one exported function running one epoch of search.
 * The built model (neighbours; the matrix lives in shared memory, one for all threads) is kept
 * between epochs of the same solve (by key), so later epochs start searching at once.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { buildProblem, type Problem } from '../model/problem.js';
import { obtainSharedMatrix, type SharedMatrixRef } from '../model/shared-matrix.js';
import { DEFAULT_ITERATIONS, solveProblem } from './solve-core.js';
import { Stop } from './stop.js';

export interface EpochTask {
  key: string;
  problem: ProblemInput;
  options: SolveOptions;
  /** Absolute deadline (Date.now() milliseconds): worker start-up time counts against it too. */
  deadline?: number;
  /** The solve's matrix, shared by its threads (model/shared-matrix.ts); the first task builds it. */
  matrix?: SharedMatrixRef;
}

let cached: { key: string; problem: Problem } | null = null;

export default function runEpoch(task: EpochTask): SolveResult {
  const now = () => globalThis.performance.now();
  let limitMs = task.options.timeLimit === undefined ? undefined : task.options.timeLimit * 1000;
  if (task.deadline !== undefined) limitMs = Math.max(1, Math.min(limitMs ?? Infinity, task.deadline - Date.now()));
  const stop = new Stop(now, limitMs, task.options.iterations ?? (limitMs === undefined ? DEFAULT_ITERATIONS : undefined));
  if (cached === null || cached.key !== task.key) {
    const shared = task.matrix;
    cached = { key: task.key, problem: buildProblem(task.problem, shared && obtainSharedMatrix(shared, task.problem.matrix)) };
  }
  return solveProblem(cached.problem, task.options, stop);
}
