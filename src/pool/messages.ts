import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';

/** What the main thread posts to a worker: one solve. Plain data (structured clone). */
export interface SolveTask {
  problem: ProblemInput;
  options: SolveOptions;
  /** Shared with the main thread (Int32Array of one element): set it non-zero and the solve stops
   *  early with its best so far, keeping its thread (no termination, no respawn). */
  stop?: SharedArrayBuffer;
}

/** What a worker answers. */
export type SolveTaskResult = SolveResult;
