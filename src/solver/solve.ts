/**
 * `solve(problem, options)`: the library entry. Validates the input (src/schema/problem.ts, zod)
 * unless `validate: false`, then solves it (solve-core.ts: construction, local search and
 * ruin-and-recreate until the deadline or the iteration budget; the best solution with a reason for
 * every unassigned order). Everything of solve-core.ts is exported from here as well.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { parseProblem } from '../schema/problem.js';
import { solveStop, solveValid, type SolveEnv } from './solve-core.js';

export * from './solve-core.js';

export function solve(input: ProblemInput, options: SolveOptions = {}, env: SolveEnv = {}): SolveResult {
  const stop = solveStop(options, env);
  const valid = options.validate === false ? input : parseProblem(input);
  return solveValid(valid, options, env, stop);
}
