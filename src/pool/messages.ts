import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';

/** What the main thread posts to a worker: one solve. Plain data (structured clone). */
export interface SolveTask {
  problem: ProblemInput;
  options: SolveOptions;
}

/** What a worker answers. */
export type SolveTaskResult = SolveResult;
