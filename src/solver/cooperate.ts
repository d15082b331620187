/**
 * Two threads on one solve at a short budget: the job service's 4.5 s for a 500-order day. Below
 * the size where `solveParallel` cuts the routes into sectors from its second epoch (DECOMPOSE_FROM,
 * epochs of 2.5 s and more), a job had two independent seeds and kept the better one: only one
 * thread's work counted. Here both threads first search the whole problem from their own seeds for
 * WHOLE_SHARE of the budget (the start and the first, large gains need the whole problem), and the
 * better result is then cut into two sectors of its routes, one per thread, again and again in
 * short epochs (SECTOR_EPOCH_SEC), each time at a new angle, around a new point or into blocks
 * (decompose.ts); each sector's result is kept where it is no worse, so the work of both threads
 * adds up.
 *
 * 500-order city (bench/RESULTS.md, session 18), 4.5 s on two threads, run in turns with the better
 * of two seeds: 2.4 km (0.4 %) shorter over 96 seeds, 5 km on 40 of them while the machine was
 * fast, about 1 km when it ran half the iterations: the sectors pay once the whole epoch has the
 * routes close to good.
 * Since the hotter annealing start for mixed fleets (improve.ts `startTemperature`, session 19) the
 * city's cooperating solve ties the better of two seeds (619.28 against 619.58 km over 72 seeds).
 *
 * When the vehicles start from two depots or more, the first DEPOT_SHARE of the budget goes to the
 * two halves of the day (decompose.ts `depotHalves`: the orders nearest each thread's depots, and
 * their vehicles) before the whole epoch, which then starts from the halves' routes: both threads'
 * work counts from the start, and each builds its start on half the orders (regret insertion is
 * quadratic). On the 500-order city at 4.5 s: 616.70 against 621.63 km (10 seeds in turns); on two
 * other generated cities -3.6 km and flat (bench/RESULTS.md, session 20).
 *
 * The threads come from the caller (`CoopRunner`): the job service runs each task on its pool, and
 * the second thread's task may give way to another job; from then on the solve goes on alone on
 * the whole problem. It also goes on alone when another process's threads crowd its two on the same
 * cores (CROWDED_BELOW_SHARE). Pure apart from the runner: problems in, a solution out.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { canDecompose, depotHalves, halveRoutes, HALVES_SHARE, mergeParts, OFF_CENTRE_SHARE, splitRoutes, type Part } from './decompose.js';
import { betterScore, resultScore, warmRoutes } from './result.js';
import { Rng } from './rng.js';

/** From this many orders on, a solve with a second thread free cooperates (measured at 500). */
export const COOPERATE_FROM = 400;

/**
 * Share of the budget both threads search the whole problem before the sector epochs, where the
 * budget leaves room for MIN_SECTOR_EPOCHS sector epochs after it (else less: `wholeShare`). Until
 * session 36 it was 0.55 (five sector epochs at 4.5 s, three now). The 500-order city at 4.5 s of
 * CPU a thread, in-process on the CPU clock (bench/coop-cpu.ts), variants in turns over the same
 * seeds: 0.7 against 0.55 -1.70 km (standard error 0.77, 38 seeds) and again -1.57 km (se 0.83, 34
 * other seeds); with no whole-day epoch at all (from the halves straight to the sectors) +1.43 km
 * (se 0.67); 0.8 +1.50 km (se 0.69) against 0.7. At this budget a second of the whole day on both
 * threads is worth more than a second of sectors, though it throws one of its two searches away.
 * bench/RESULTS.md, session 36. Measured at 4.5 s only: a longer budget (a job given a time limit
 * of its own) takes the same share, not measured.
 */
export const WHOLE_SHARE = 0.7;

/** The whole-day epoch ends no earlier than this share (the share until session 36). */
export const MIN_WHOLE_SHARE = 0.55;

/** Sector epochs a budget must leave room for, for the whole-day epoch to take WHOLE_SHARE. */
const MIN_SECTOR_EPOCHS = 2;

/**
 * Share of the budget that, when the vehicles start from two depots or more, each thread first
 * spends on one half of the day (`depotHalves`: the orders nearest its depots, and their vehicles)
 * before both search the whole day from the two halves' routes until WHOLE_SHARE. On the 500-order
 * city (two depots) at 4.5 s, in turns over the same seeds: 616.70 against 621.63 km (10 seeds) with
 * 0.3; 0.2 and 0.3 alike, 0.45 worse (bench/RESULTS.md, session 20).
 */
export const DEPOT_SHARE = 0.3;

/** Length of a sector epoch (three in the rest of a 4.5 s budget); at most MAX_SECTOR_EPOCHS. */
export const SECTOR_EPOCH_SEC = 0.4;
export const MAX_SECTOR_EPOCHS = 29;

/**
 * Once the two threads of an epoch got less than this share of a core each (their answers' `cpuMs`
 * against the time they took), and their process as a whole less than this share of a core a
 * thread (`CoopRunner.processCpuMs`, when the runner tells it), the rest of the solve runs on one
 * thread, on the whole problem. Two threads get half a core each, or less, when another process
 * runs two solver threads on the same two cores (issue 42's twins: two worker hosts' jobs on one
 * machine), and two cooperating threads at half speed plan worse than one thread: the whole epoch
 * throws one of two slow searches away, and every short task pays its model and neighbour lists at
 * half speed. When both jobs go on alone, each gets a core. The process's own share keeps apart
 * threads slowed by their own process: the first jobs after a start, whose threads get 0.35-0.7 of
 * a core while the engine's compiler runs beside them, and whose process gets a core a thread or
 * more. Seen in session 40 (the 500-order city through bench/jobs.ts): a job alone 0.5-0.98 of a
 * core a thread (the least in its process's first job), its process 0.79-1.0 (a job at a pool's
 * start 0.8-2.6); each of two jobs at once 0.23-0.28, its process 0.45-0.54.
 * Measured (bench/RESULTS.md, session 40), `bench/jobs.ts --twin [--null] --runs 6`, eight runs
 * against three before, the same day: each twin against the same job alone 0.28-0.98 % mean, worst
 * 1.73-2.82 %, against 1.27-1.72 % and 3.09-4.07 %; a job alone and the first jobs after a start
 * as before (they do not go alone); beside two or six CPU hogs no loss seen.
 * Until session 40 a share that gave the whole epoch less than 200 ms of CPU a thread skipped it
 * instead (session 29); going on alone covers that case too.
 */
export const CROWDED_BELOW_SHARE = 0.6;

/** Runs the searches of one cooperative solve on threads. */
export interface CoopRunner {
  /** Threads this solve may use for its next epoch, its own included. */
  free(): number;
  /**
   * One search. The main one (`main`) must answer; another may stop early with its best so far,
   * or fail (null): its work is then lost and nothing else. `deadline` (Date.now() ms), when
   * given, caps the search's time limit where it runs: the thread's start counts against it.
   * An answer may say how much CPU time its thread spent on it (`cpuMs`, the pool's answers do):
   * the solve then knows the share of a core its threads get (see CROWDED_BELOW_SHARE).
   */
  run(problem: ProblemInput, options: SolveOptions, main: boolean, deadline?: number): Promise<(SolveResult & { cpuMs?: number }) | null>;
  /**
   * The CPU time of the whole process the threads run in so far, ms (all its threads: the engine's
   * compiler and collector too). When given, an epoch counts as crowded only when the process as a
   * whole also got less than CROWDED_BELOW_SHARE of a core a task: threads slowed by their own
   * process's compiler (the first jobs after a start) are not crowded by another's.
   */
  processCpuMs?(): number;
}

/** How one cooperative solve cuts its budget (benchmarks vary it; the defaults are measured). */
export interface CoopPlan {
  /** Default `wholeShare(timeLimit)`: WHOLE_SHARE where the budget leaves room. */
  wholeShare?: number;
  /** Default DEPOT_SHARE. */
  depotShare?: number;
  /** Default SECTOR_EPOCH_SEC. */
  sectorEpochSec?: number;
  /** Default CROWDED_BELOW_SHARE (0: never alone). */
  crowdedBelowShare?: number;
}

/**
 * The two halves' answers as one answer for the whole day, when both came back and each served all
 * its orders (the halves share the day's matrix and vehicles, so a route costs what it cost in its
 * half); null otherwise.
 */
export function joinHalves(problem: ProblemInput, parts: Array<SolveResult | null>): SolveResult | null {
  if (parts.some((r) => r === null || r.unassigned.length > 0)) return null;
  const byVehicle = new Map(parts.flatMap((r) => r!.routes.map((x) => [x.vehicleId, x] as const)));
  const routes: SolveResult['routes'] = [];
  for (const v of problem.vehicles) {
    const r = byVehicle.get(v.id);
    if (r !== undefined && r.stops.length > 0) routes.push(r);
  }
  const sum = (k: 'distance' | 'duration') => routes.reduce((s, r) => s + r[k], 0);
  const iterations = parts.reduce((s, r) => s + r!.stats.iterations, 0);
  return { routes, distance: sum('distance'), duration: sum('duration'), vehicles: routes.length, unassigned: [], stats: { elapsedMs: 0, iterations } };
}

/**
 * The share of a budget of `timeLimit` seconds the whole-day epoch ends at: WHOLE_SHARE, less on a
 * short budget so that MIN_SECTOR_EPOCHS sector epochs follow (2.5 s: 0.67), never below
 * MIN_WHOLE_SHARE (so a budget cooperates from 1.78 s on, as before session 36).
 */
export function wholeShare(timeLimit: number, plan: CoopPlan = {}): number {
  if (plan.wholeShare !== undefined) return plan.wholeShare;
  // (2.05 epochs' time: the epochs' count below rounds down)
  const room = 1 - ((MIN_SECTOR_EPOCHS + 0.05) * (plan.sectorEpochSec ?? SECTOR_EPOCH_SEC)) / timeLimit;
  return Math.max(MIN_WHOLE_SHARE, Math.min(WHOLE_SHARE, room));
}

/** Sector epochs after the whole one for a budget of `timeLimit` seconds (0: no cooperation). */
export function sectorEpochs(timeLimit: number, plan: CoopPlan = {}): number {
  const n = Math.floor((timeLimit * (1 - wholeShare(timeLimit, plan))) / (plan.sectorEpochSec ?? SECTOR_EPOCH_SEC) + 1e-9);
  return n < MIN_SECTOR_EPOCHS ? 0 : Math.min(MAX_SECTOR_EPOCHS, n);
}

/** Whether a solve of `problem` within `timeLimit` seconds on `threads` threads cooperates. */
export function cooperates(problem: ProblemInput, options: SolveOptions, threads: number, timeLimit: number): boolean {
  return canDecompose(problem, options, threads, COOPERATE_FROM) && sectorEpochs(timeLimit) > 0;
}

/**
 * Solves `problem` within `options.timeLimit` seconds on up to two threads of `runner`. Seeds,
 * cuts and schedules follow from `options.seed`; the answer depends on timing (time budgets only).
 */
export async function cooperate(
  problem: ProblemInput,
  options: SolveOptions,
  runner: CoopRunner,
  now: () => number = () => globalThis.performance.now(),
  plan: CoopPlan = {},
): Promise<SolveResult> {
  const started = now();
  const timeLimit = options.timeLimit ?? 1;
  const limitMs = timeLimit * 1000;
  const epochs = sectorEpochs(timeLimit, plan) + 1;
  const wholeUntil = wholeShare(timeLimit, plan);
  const depotShare = plan.depotShare ?? DEPOT_SHARE;
  const seed = options.seed ?? 1;
  const objective = options.objective;
  // the streams of solveParallel's sector epochs: angle, pivot, shape
  const angles = new Rng(seed * 31 + 17);
  const pivots = new Rng(seed * 71 + 5);
  const shapes = new Rng(seed * 53 + 11);
  let iterations = 0;
  const count = (r: SolveResult | null) => {
    if (r !== null) iterations += r.stats.iterations;
  };
  const crowdedBelow = plan.crowdedBelowShare ?? CROWDED_BELOW_SHARE;
  // set once an epoch's two threads were crowded (CROWDED_BELOW_SHARE): one thread from then on
  let alone = false;
  const processCpu = () => runner.processCpuMs?.() ?? NaN;
  /** Whether an epoch's answers (begun when the process had used `cpu0` ms) were crowded. */
  const crowded = (rs: Array<(SolveResult & { cpuMs?: number }) | null>, cpu0: number): boolean => {
    let cpu = 0;
    let clock = 0;
    let threads = 0;
    for (const r of rs)
      if (r !== null && r.cpuMs !== undefined && r.stats.elapsedMs > 0) {
        cpu += r.cpuMs;
        clock += r.stats.elapsedMs;
        threads++;
      }
    if (threads < 2 || cpu / clock >= crowdedBelow) return false;
    const ofProcess = (processCpu() - cpu0) / clock;
    return Number.isNaN(ofProcess) || ofProcess < crowdedBelow;
  };
  // the cooling schedule follows the time: an epoch of ms milliseconds from now covers that share
  const epochOptions = (e: number, w: number, ms: number): SolveOptions => {
    const from = Math.min(1, (now() - started) / limitMs);
    return { ...options, seed: seed + 7919 * (e * 2 + w) + w, timeLimit: Math.max(0.001, ms / 1000), schedule: { from, to: Math.min(1, from + ms / limitMs) } };
  };

  /** Every free thread (one when alone) on the whole problem (from `from` when given); the best answer. */
  const whole = async (e: number, ms: number, from?: Pick<SolveResult, 'routes'>): Promise<SolveResult | null> => {
    const threads = alone ? 1 : Math.max(1, Math.min(2, runner.free()));
    const initialRoutes = from === undefined ? undefined : warmRoutes(from);
    const cpu0 = processCpu();
    const results = await Promise.all(
      Array.from({ length: threads }, (_, w) => runner.run(problem, { ...epochOptions(e, w, ms), ...(initialRoutes ? { initialRoutes } : {}) }, w === 0)),
    );
    let top: SolveResult | null = null;
    if (crowded(results, cpu0)) alone = true;
    for (const r of results) {
      if (r === null) continue;
      count(r);
      if (top === null || betterScore(resultScore(r, objective), resultScore(top, objective))) top = r;
    }
    return top;
  };

  // vehicles at two depots or more: first a half of the day on each thread, so the work of both
  // counts from the start (and each builds its start on half the orders); then the whole day from
  // the halves' routes together. What a half left out, or the half of a thread that gave way, goes
  // back in by regret insertion at the warm start.
  const halves = runner.free() >= 2 ? depotHalves(problem) : null;
  let best: SolveResult | null;
  // crowded after the halves: the whole epoch takes the rest of the budget on one thread
  let restTaken = false;
  if (halves !== null) {
    const cpu0 = processCpu();
    const parts = await Promise.all(halves.map((half, w) => runner.run(half, epochOptions(epochs, w, limitMs * depotShare), w === 0)));
    for (const r of parts) count(r);
    const joined = { routes: parts.flatMap((r) => r?.routes ?? []) };
    // crowded: the rest of the budget on one thread, from the halves' routes
    alone = restTaken = crowded(parts, cpu0);
    const wholeMs = Math.max(1, limitMs * (alone ? 1 : wholeUntil) - (now() - started));
    // (a plan whose whole epoch ends with the halves: their routes go on to the sector epochs)
    const complete = !alone && wholeUntil <= depotShare ? joinHalves(problem, parts) : null;
    best = complete ?? (await whole(epochs + 1, wholeMs, joined));
  } else best = await whole(0, limitMs * wholeUntil);
  if (best === null) throw new Error('cooperate: the main search gave no answer');
  for (let e = 1; e < epochs && !restTaken; e++) {
    const left = limitMs - (now() - started);
    if (left <= 0) break;
    const slice = left / (epochs - e);
    let parts: Part[] | null = null;
    // a second thread, and every order served (a sector holds only routed orders)
    if (!alone && best.unassigned.length === 0 && runner.free() >= 2) {
      const angle = angles.next() * 2 * Math.PI;
      const pivot = pivots.next() < OFF_CENTRE_SHARE ? pivots.int(problem.orders.length) : undefined;
      parts = shapes.next() < HALVES_SHARE ? halveRoutes(problem, best, 2, angle) : splitRoutes(problem, best, 2, angle, pivot);
    }
    if (parts === null) {
      // alone (or nothing to cut): the rest of the budget on the whole problem, from the best
      const r = await whole(e, left, best);
      if (r !== null && betterScore(resultScore(r, objective), resultScore(best, objective))) best = r;
      break;
    }
    const cpu0 = processCpu();
    const results = await Promise.all(
      parts.map((part, w) => runner.run(part.problem, { ...epochOptions(e, w, slice), initialRoutes: part.initialRoutes, validate: false }, w === 0)),
    );
    for (const r of results) count(r);
    if (crowded(results, cpu0)) alone = true;
    const merged = mergeParts(problem, best, parts, results.map((r) => r ?? undefined), objective);
    if (betterScore(resultScore(merged, objective), resultScore(best, objective))) best = merged;
  }
  return { ...best, stats: { elapsedMs: now() - started, iterations } };
}
