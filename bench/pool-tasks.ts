/**
 * The tasks of one solve on a SolverPool, as the job service sends them (src/jobs/service.ts
 * `shareMatrix`): one matrix in shared memory that the first task builds (and validates the input
 * for); with an explicit matrix only the first task carries its rows. For the benchmarks that run
 * `cooperate` or several seeds on a pool (bench/coop.ts, bench/ab.ts).
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../src/model/input.js';
import { matrixSize } from '../src/model/matrix.js';
import { allocateSharedMatrix, omitMatrixInput, settleSharedTask, sharedMatrixRef, type SharedMatrix } from '../src/model/shared-matrix.js';
import type { SolverPool } from '../src/pool/pool.js';

/** A runner for the tasks of one solve of `problem` (the whole day, or parts of it) on `pool`. */
export function poolTasks(pool: SolverPool, problem: ProblemInput): (p: ProblemInput, options: SolveOptions) => Promise<SolveResult> {
  const shared: SharedMatrix = allocateSharedMatrix(matrixSize(problem.matrix));
  const slim = omitMatrixInput(problem);
  let token = 0;
  return (p, options) => {
    const omitted = token > 0 && slim !== problem;
    const matrix = sharedMatrixRef(shared, ++token, omitted);
    const sent = omitted ? (p === problem ? slim : omitMatrixInput(p)) : p;
    return pool.run({ problem: sent, options, matrix }).finally(() => settleSharedTask(matrix));
  };
}
