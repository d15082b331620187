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

/** The budget when a call gives neither `timeLimit` nor `iterations`. */
export const DEFAULT_ITERATIONS = 1000;

export interface SolveEnv {
  /** Milliseconds, monotonic. Defaults to performance.now(). */
  now?: Clock;
}

export function solve(input: ProblemInput, options: SolveOptions = {}, env: SolveEnv = {}): SolveResult {
  const now: Clock = env.now ?? (() => globalThis.performance.now());
  // Neither a time limit nor an iteration budget: a fixed budget, so the call always returns.
  const iterations = options.iterations ?? (options.timeLimit === undefined ? DEFAULT_ITERATIONS : undefined);
  const stop = new Stop(now, options.timeLimit === undefined ? undefined : options.timeLimit * 1000, iterations);
  const valid = options.validate === false ? input : parseProblem(input);
  const p = buildProblem(valid);
  return solveProblem(p, options, stop);
}

const neighbourCache = new WeakMap<Problem, { k: number; list: Int32Array }>();

/** Puts the warm-start routes in; returns the orders they leave out (or drop as infeasible). */
function warmStart(p: Problem, sol: SearchSolution, routes: NonNullable<SolveOptions['initialRoutes']>): number[] {
  const orderIndex = new Map(p.orderIds.map((id, i) => [id, i]));
  const vehicleIndex = new Map(p.vehicleIds.map((id, i) => [id, i]));
  const placed = new Uint8Array(p.nOrders);
  for (const r of routes) {
    const v = vehicleIndex.get(r.vehicleId);
    if (v === undefined || sol.routes[v].size > 0) continue;
    const orders: number[] = [];
    for (const id of r.orderIds) {
      const o = orderIndex.get(id);
      if (o !== undefined && placed[o] === 0) orders.push(o);
    }
    const route = sol.routes[v];
    sol.setRoute(route, orders);
    let compatible = true;
    for (const o of orders) if (!sol.compatible(o, route)) compatible = false;
    if (!compatible || !route.feasible()) sol.setRoute(route, []);
    else for (const o of orders) placed[o] = 1;
  }
  const left: number[] = [];
  for (let o = 0; o < p.nOrders; o++) if (placed[o] === 0) left.push(o);
  return left;
}

export function solveProblem(p: Problem, options: SolveOptions, stop: Stop): SolveResult {
  const costs = costModel(p, options.objective ?? 'distance');
  const rng = new Rng(options.seed ?? 1);
  const sol = new SearchSolution(p, costs);
  const probe = new RouteProbe(p, costs);
  if (options.schedule) stop.window = { from: options.schedule.from, to: options.schedule.to };
  let neighbours = neighbourCache.get(p);
  if (neighbours === undefined) neighbourCache.set(p, (neighbours = buildNeighbours(p)));
  const left = options.initialRoutes ? warmStart(p, sol, options.initialRoutes) : savingsConstruct(sol, neighbours);
  regretInsert(sol, left, probe);
  improve(sol, { neighbours, rng, stop, objective: options.objective ?? 'distance' });
  // Anything still out gets one last chance, then a reason.
  const still = regretInsert(sol, sol.unassigned(), probe);
  const reasons = still.sort((a, b) => a - b).map((o) => ({ orderId: p.orderIds[o], reason: unassignedReason(sol, o, probe) }));
  return buildResult(p, sol, reasons, { elapsedMs: stop.elapsed(), iterations: stop.iterations });
}
