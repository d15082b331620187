/**
 * `solve(problem, options)`: the library entry. Validates the input, builds the model, constructs
 * (savings, then regret insertion of the leftovers), improves (local search and ruin-and-recreate
 * until the deadline or the iteration budget), and exports the best solution with a reason for
 * every unassigned order. Pure: the clock comes in through `env.now`.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { buildProblem, costModel, type Problem } from '../model/problem.js';
import { parseProblem } from '../schema/problem.js';
import { RouteProbe } from '../route/probe.js';
import { SearchSolution } from '../route/search-solution.js';
import { savingsConstruct } from '../construct/savings.js';
import { regretInsert } from '../construct/regret.js';
import { buildNeighbours } from '../search/neighbourhood.js';
import { improve } from './improve.js';
import { unassignedReason } from './reasons.js';
import { buildResult } from './result.js';
import { Rng } from './rng.js';
import { Stop, type Clock } from './stop.js';

export interface SolveEnv {
  /** Milliseconds, monotonic. Defaults to performance.now(). */
  now?: Clock;
}

export function solve(input: ProblemInput, options: SolveOptions = {}, env: SolveEnv = {}): SolveResult {
  const now: Clock = env.now ?? (() => globalThis.performance.now());
  const stop = new Stop(now, options.timeLimit === undefined ? undefined : options.timeLimit * 1000, options.iterations);
  const valid = options.validate === false ? input : parseProblem(input);
  const p = buildProblem(valid);
  return solveProblem(p, options, stop);
}

export function solveProblem(p: Problem, options: SolveOptions, stop: Stop): SolveResult {
  const costs = costModel(p, options.objective ?? 'distance');
  const rng = new Rng(options.seed ?? 1);
  const sol = new SearchSolution(p, costs);
  const probe = new RouteProbe(p, costs);
  const neighbours = buildNeighbours(p);
  const left = savingsConstruct(sol, neighbours);
  regretInsert(sol, left, probe);
  improve(sol, { neighbours, rng, stop, objective: options.objective ?? 'distance' });
  // Anything still out gets one last chance, then a reason.
  const still = regretInsert(sol, sol.unassigned(), probe);
  const reasons = still.sort((a, b) => a - b).map((o) => ({ orderId: p.orderIds[o], reason: unassignedReason(sol, o, probe) }));
  return buildResult(p, sol, reasons, { elapsedMs: stop.elapsed(), iterations: stop.iterations });
}
