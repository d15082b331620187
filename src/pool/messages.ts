import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import type { SharedMatrixRef } from '../model/shared-matrix.js';

/** What the main thread posts to a worker: one solve. Plain data (structured clone). */
export interface SolveTask {
  problem: ProblemInput;
  options: SolveOptions;
  /** Shared with the main thread (Int32Array of one element): set it non-zero and the solve stops
   *  early with its best so far, keeping its thread (no termination, no respawn). */
  stop?: SharedArrayBuffer;
  /** The matrix shared by every task of this solve (model/shared-matrix.ts): the first task to
   *  start builds it, the others wait for it instead of building their own. With
   *  `matrix.inputOmitted`, `problem.matrix` is an empty explicit matrix and is not used. */
  matrix?: SharedMatrixRef;
  /** Names one problem of one solve (with `options.validate` false): a thread keeps the model it
   *  built (neighbour lists) for its last keyed task and reuses it for the next task of the same
   *  key, so the epochs of a solve after the first start searching at once. */
  key?: string;
  /** Absolute deadline (Date.now() milliseconds), on top of `options.timeLimit`: the thread's
   *  own start-up and the wait for a free thread count against it. */
  deadline?: number;
  /** The task's clock is the CPU time of its thread (thread-clock.ts) divided by this share of a
   *  core (1: plain CPU time; 0.5: the solve runs as on half a core), not wall time, and `deadline`
   *  is not applied: benchmarks that compare variants on a busy machine. */
  cpuClock?: number;
  /** Written by the thread when it begins the task (pool/thread-cpu.ts): its thread id and CPU
   *  time, so the overrun guard can tell a stuck solve from a starved one. */
  cpu?: SharedArrayBuffer;
}

/** What a worker answers: the solve's result, and the CPU time its thread spent on the task (ms,
 *  thread-clock.ts; from the task's start in the thread to its answer, so the model's build and
 *  the construction count, the message passing does not). */
export type SolveTaskResult = SolveResult & { cpuMs?: number };
