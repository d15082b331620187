/**
 * The solver without input validation (no zod: this module and what it imports load no schema
 * library, so a cold CLI process or worker thread starts sooner): builds the model, constructs
 * (savings, then regret insertion of the leftovers), improves (local search and ruin-and-recreate
 * until the deadline or the iteration budget), and exports the best solution with a reason for
 * every unassigned order. Pure: the clock comes in through `env.now`. `solve` (solve.ts) validates
 * first; the CLI (its own parsers validate) and the worker threads (given validated input) call
 * `solveValid` here.
 */
import type { MatrixInput, ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import type { Matrix } from '../model/matrix.js';
import { buildProblem, costModel, type Problem } from '../model/problem.js';
import { RouteProbe } from '../route/probe.js';
import { SearchSolution } from '../route/search-solution.js';
import { savingsConstruct } from '../construct/savings.js';
import { regretInsert } from '../construct/regret.js';
import { buildNeighbours } from '../search/neighbourhood.js';
import { LocalSearch, type LocalSearchEnv } from '../search/local-search.js';
import { VehicleReassign } from '../search/reassign.js';
import { RuinRecreate } from '../search/perturb.js';
import { minimiseFleet } from '../search/fleet.js';
import { improve, ruinParams } from './improve.js';
import { unassignedReason } from './reasons.js';
import { buildResult } from './result.js';
import { Rng } from './rng.js';
import { Stop, type Clock } from './stop.js';
import { SearchEnv } from './search-env.js';

/** The budget when a call gives neither `timeLimit` nor `iterations`. */
export const DEFAULT_ITERATIONS = 1000;

export interface SolveEnv {
  /** Milliseconds, monotonic. Defaults to performance.now(). */
  now?: Clock;
  /**
   * Polled during the search: once it returns true the solve stops and returns its best so far.
   * Before the search has a solution (between building the model, the neighbour lists and the
   * start) a halt throws SolveHalted instead (stop.ts).
   */
  halted?: () => boolean;
  /** The matrix of the validated input, when it comes from elsewhere (a worker thread's shared
   *  one, see model/shared-matrix.ts); default: built here. Its time counts against the limit. */
  matrix?: (input: MatrixInput) => Matrix;
}

/** The clock and the budget of a solve; they start before validation, which counts against the limit. */
export function solveStop(options: SolveOptions, env: SolveEnv): Stop {
  const now: Clock = env.now ?? (() => globalThis.performance.now());
  // Neither a time limit nor an iteration budget: a fixed budget, so the call always returns.
  const iterations = options.iterations ?? (options.timeLimit === undefined ? DEFAULT_ITERATIONS : undefined);
  return new Stop(now, options.timeLimit === undefined ? undefined : options.timeLimit * 1000, iterations, now(), env.halted);
}

/** `solve` for input already validated (by `parseProblem` or a parser of its own). */
export function solveValid(input: ProblemInput, options: SolveOptions = {}, env: SolveEnv = {}, stop: Stop = solveStop(options, env)): SolveResult {
  const matrix = env.matrix?.(input.matrix);
  stop.checkHalted();
  const p = buildProblem(input, matrix);
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
    if (v === undefined || sol.routes[v].nOrd > 0) continue;
    const orders: number[] = [];
    // reload nodes of the vehicle, placed after the given number of the listed orders
    const reloadsAfter = p.vMaxTrips[v] > 1 ? (r.reloadsAfter ?? []).slice(0, p.vMaxTrips[v] - 1) : [];
    let nextReload = p.vReloadFirst[v];
    r.orderIds.forEach((id, k) => {
      for (const after of reloadsAfter) if (after === k && orders.length > 0) orders.push(nextReload++);
      const o = orderIndex.get(id);
      if (o !== undefined && placed[o] === 0) orders.push(o);
    });
    const route = sol.routes[v];
    sol.setRoute(route, orders);
    let compatible = true;
    for (const o of orders) if (!sol.compatible(o, route)) compatible = false;
    if (!compatible || !route.feasible()) sol.setRoute(route, []);
    else for (const o of orders) if (o < p.nOrders) placed[o] = 1;
  }
  const left: number[] = [];
  for (let o = 0; o < p.nOrders; o++) if (placed[o] === 0) left.push(o);
  return left;
}

/** A day in progress without `initialRoutes`: the kept orders on their vehicles, in input order. */
function keptRoutes(p: Problem): NonNullable<SolveOptions['initialRoutes']> {
  const lists = p.vehicleIds.map(() => [] as string[]);
  for (let o = 0; o < p.nOrders; o++) if (p.oKept[o] >= 0) lists[p.oKept[o]].push(p.orderIds[o]);
  return lists.map((orderIds, v) => ({ vehicleId: p.vehicleIds[v], orderIds }));
}

/**
 * Share of the budget after which the second construction stops (what it reached is compared as
 * it is): SECOND_START_SHARE in a solve of its own, SECOND_START_SHARE_EPOCH in an epoch of
 * `solveParallel` or `cooperate` (a window of a longer schedule, not measured with the shorter
 * share). Session 31: Solomon 56 at 1 s of CPU, cold CLI processes side by side, one core each,
 * seeds 1-5 (280 pairs), 0.3 -> 0.15: mean gap 0.594 -> 0.518 %, shorter on 82, longer on 69,
 * better on each of the five seeds (bench/RESULTS.md, session 31, lead). At 10 s and more the
 * constructions end long before either share.
 */
const SECOND_START_SHARE = 0.15;
const SECOND_START_SHARE_EPOCH = 0.3;

/**
 * Below this many orders the regret start comes first, from it on the savings start. After the
 * local search the regret start is the better one on 42 of the 56 Solomon instances (R1 and R2,
 * RC1 and RC2 almost always: R101 1667 with 21 routes against 1742 with 23), on Homberger 200
 * R1_2_1 and on Homberger 1000 R1_10_1 and RC2_10_1 (session 26, .scratch measurements in
 * docs/engine.md). Up to a few hundred orders it costs about what the savings start costs
 * (R1_2_1: 80 against 190 ms with its local search); at 1,000 orders five times more (1.1 against
 * 0.35 s), so there the fast savings start comes first and the regret start follows when the
 * budget allows.
 */
export const REGRET_FIRST_BELOW = 600;

/**
 * Two starts, the better one kept after a local search each: regret insertion of every order into
 * an empty fleet, and savings (then regret insertion of what it leaves out). The one more likely
 * to win comes first (REGRET_FIRST_BELOW), so that whatever cuts the second one short (a short
 * budget, or a core shared with other work: the second start stops once the solve is past
 * SECOND_START_SHARE of its budget, and what it reached is kept only when it is the better
 * solution) leaves the better start. Until session 26 savings
 * always came first: R101 at 1 s beside a CPU hog on the same core lost the regret start and
 * ended at 1731.6 with 22 routes (+5.7 %). With `start` 'regret' only the regret start runs, and
 * only the hard deadline stops it (solveParallel's second thread, first epoch, from 600 orders on).
 */
export function constructStart(sol: SearchSolution, probe: RouteProbe, neighbours: { k: number; list: Int32Array }, rng: Rng, stop: Stop, start?: 'regret'): void {
  const p = sol.p;
  const env = new SearchEnv(neighbours, rng, stop);
  // the regret start alone: only the hard deadline stops it (what it leaves out stays out)
  if (start === 'regret') {
    regretStart(sol, probe, env);
    return;
  }
  const regretFirst = p.nOrders < REGRET_FIRST_BELOW;
  const better = (a: SearchSolution, b: SearchSolution) => a.unassignedCount() < b.unassignedCount() || (a.unassignedCount() === b.unassignedCount() && a.cost() < b.cost() - 1e-9);
  const ownSolve = stop.window.from === 0 && stop.window.to === 1;
  const second = env.untilProgress(ownSolve ? SECOND_START_SHARE : SECOND_START_SHARE_EPOCH);
  const tooLong = () => second.timeUp();
  if (!regretFirst) {
    savingsStart(sol, probe, neighbours, env, stop);
    if (stop.done() || p.nOrders === 0 || tooLong()) return;
    const other = new SearchSolution(p, sol.costs);
    regretStart(other, probe, second);
    // cut short or not, it is a solution (one that leaves orders out loses on that count)
    if (better(other, sol)) sol.restore(other.snapshot());
    return;
  }
  // A whole solution at once, before anything the deadline can cut: the savings construction
  // without its local search (tens of milliseconds). When the deadline falls inside the regret
  // insertion (a core shared ten ways: Solomon at 1 s got about 0.1 s of CPU in session 26) the
  // solve keeps it instead of a half-built regret start completed by plain insertion at the end
  // (C109: 898 against 1218, RC205: 1490 against 1644).
  const savings = new SearchSolution(p, sol.costs);
  savingsInserted(savings, probe, neighbours, stop);
  // The savings start's local search runs only when the regret start was not cut short, the budget
  // is not spent and the solve is not past the share above; stopped there, what it reached is still
  // a whole solution. Polished or not, the savings start is kept when it is the better one (RC208 at
  // 0.45 s of CPU, past the share: 826.0 unpolished against the regret start's 864.5 polished).
  const cut = regretStart(sol, probe, env) || stop.done() || p.nOrders === 0 || tooLong();
  if (!cut) polish(savings, probe, second);
  if (better(savings, sol)) sol.restore(savings.snapshot());
}

/** Savings, then regret insertion of what it leaves out (a halt between the two throws SolveHalted). */
function savingsInserted(sol: SearchSolution, probe: RouteProbe, neighbours: { k: number; list: Int32Array }, stop: Stop): void {
  const left = savingsConstruct(sol, neighbours);
  stop.checkHalted();
  regretInsert(sol, left, probe);
}

/** savingsInserted, polished unless `env.timeUp` says stop. */
function savingsStart(sol: SearchSolution, probe: RouteProbe, neighbours: { k: number; list: Int32Array }, env: LocalSearchEnv, stop: Stop): void {
  savingsInserted(sol, probe, neighbours, stop);
  if (!env.timeUp()) polish(sol, probe, env);
}

/** The local search to a local optimum, then the vehicle reassignment (and the search again when it moved a route). */
function polish(sol: SearchSolution, probe: RouteProbe, env: LocalSearchEnv): void {
  const ls = new LocalSearch(sol);
  ls.touchAll();
  ls.run(env);
  if (new VehicleReassign(sol, probe).run().length > 0) ls.run(env);
}

/**
 * Regret insertion of every order into the empty fleet of `sol`, polished unless `env.timeUp` says
 * stop; returns whether `env.timeUp` said stop before the polish (orders not placed stay out).
 */
function regretStart(sol: SearchSolution, probe: RouteProbe, env: LocalSearchEnv): boolean {
  regretInsert(sol, Array.from({ length: sol.p.nOrders }, (_, i) => i), probe, 1, () => env.timeUp());
  if (env.timeUp()) return true;
  polish(sol, probe, env);
  return false;
}

/**
 * Under the vehicles objective, from this many orders on, each solve (each epoch of
 * `solveParallel`) spends VEHICLES_FLEET_SHARE of its budget in the fleet stage before the search.
 * The search's own attempts (improve.ts: empty the smallest route, no new route, ruin and
 * recreate until every order is back) scale badly: R1_10_2 (1,000 orders) at 60 s on one thread
 * ended with 109 routes after 563 iterations. Smaller instances keep them: Solomon at 10 s on two
 * threads gives 408 routes with them (405 in the hierarchical best-known solutions), 416 with the
 * fleet stage instead (R1 150 against 144, RC1 95 against 94).
 */
const VEHICLES_FLEET_FROM = 600;
const VEHICLES_FLEET_SHARE = 0.5;

/** How much longer (in average arcs) the fleet stage lets the routes get per accepted step. */
const FLEET_SLACK = 1;

/**
 * Fewer routes first: fleet minimisation (src/search/fleet.ts) for `share` of the budget, each
 * smaller fleet polished by the local search (the minimisation ignores distance). Its iterations
 * count against an iteration budget like the search's.
 */
function fleetStage(sol: SearchSolution, probe: RouteProbe, neighbours: { k: number; list: Int32Array }, rng: Rng, stop: Stop, share: number): void {
  if (sol.unassignedCount() > 0 || sol.usedVehicles() < 2) return;
  const ls = new LocalSearch(sol);
  const env = new SearchEnv(neighbours, rng, stop).untilUsed(share);
  const over = () => env.timeUp();
  const rr = new RuinRecreate(sol, probe, neighbours, ruinParams(sol.p.nOrders / Math.max(1, sol.usedVehicles())));
  const avgArc = sol.distance() / Math.max(1, sol.p.nOrders + sol.usedVehicles());
  minimiseFleet(sol, rr, rng, over, {
    slack: FLEET_SLACK * avgArc,
    polish: () => {
      ls.touchAll();
      ls.run(env);
    },
    tick: () => stop.iterations++,
  });
}

export function solveProblem(p: Problem, options: SolveOptions, stop: Stop): SolveResult {
  const costs = costModel(p, options.objective ?? 'distance');
  const rng = new Rng(options.seed ?? 1);
  const sol = new SearchSolution(p, costs);
  const probe = new RouteProbe(p, costs);
  if (options.schedule) stop.window = { from: options.schedule.from, to: options.schedule.to };
  let neighbours = neighbourCache.get(p);
  if (neighbours === undefined) neighbourCache.set(p, (neighbours = buildNeighbours(p)));
  stop.checkHalted();
  const initialRoutes = options.initialRoutes ?? (p.nKept > 0 ? keptRoutes(p) : undefined);
  if (initialRoutes) regretInsert(sol, warmStart(p, sol, initialRoutes), probe);
  // savings joins routes without the breaks; regret insertion places every order around them
  else constructStart(sol, probe, neighbours, rng, stop, p.hasBreaks ? 'regret' : options.start);
  // a start cut short by the halt would go on to the last-chance insertion of every order it left out
  stop.checkHalted();
  sol.tidyAllReloads(probe);
  const objective = options.objective ?? 'distance';
  const fleetShare = options.fleetFirst ?? (objective === 'vehicles' && p.nOrders >= VEHICLES_FLEET_FROM ? VEHICLES_FLEET_SHARE : 0);
  const staged = fleetShare > 0 && !p.hasReloads;
  if (staged) fleetStage(sol, probe, neighbours, rng, stop, fleetShare);
  // under the vehicles objective the fleet stage has done the route saving: the search after it
  // works on distance at that fleet instead of emptying routes again (see improve.ts)
  const vehiclesStaged = staged && objective === 'vehicles';
  if (options.keepFleet || vehiclesStaged) sol.allowNewRoutes = false;
  improve(sol, { neighbours, rng, stop, objective, fleetAttempts: !vehiclesStaged });
  sol.allowNewRoutes = true;
  // Anything still out gets one last chance, then a reason.
  const still = regretInsert(sol, sol.unassigned(), probe);
  sol.tidyAllReloads(probe);
  const reasons = still.sort((a, b) => a - b).map((o) => ({ orderId: p.orderIds[o], reason: unassignedReason(sol, o, probe) }));
  return buildResult(p, sol, reasons, { elapsedMs: stop.elapsed(), iterations: stop.iterations });
}
