/**
 * `solveParallel`'s epochs: N threads on one solve at a long budget (epochs of 2.5 s and more),
 * as cooperate.ts is two threads at a job's short one. After each epoch every thread restarts
 * from the best solution found so far, with the cooling schedule continuing where the epoch
 * ended. On large instances every epoch after the first cuts the best solution's routes into
 * sectors, one or a few per thread (decompose.ts), and puts the sectors' results together.
 *
 * The threads come from the caller (`CoopRunner`, the solve scheduler's: src/pool/scheduler.ts);
 * every search here is a main one (it must answer). Pure apart from the runner: problems in, a
 * solution out. With an iteration budget the same seed and thread count give the same solution
 * (ties between threads go to the lowest one).
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import type { CoopRunner } from './cooperate.js';
import { canDecompose, DECOMPOSE_FROM, halveRoutes, HALVES_SHARE, isSectorEpoch, mergeParts, OFF_CENTRE_SHARE, sectorsPerThread, splitRoutes, type Part } from './decompose.js';
import { LONG_ROUTES } from './improve.js';
import { betterScore, resultScore, warmRoutes, type ResultScore } from './result.js';
import { Rng } from './rng.js';

/**
 * Fleet epoch (opt-in: `fleet: true`): on large instances whose routes are short (fewer than
 * LONG_ROUTES orders on average; Gehring-Homberger C1, R1, RC1 at 1,000 orders), the second epoch
 * lasts FLEET_EPOCH of the whole budget, and in it thread 0 first spends FLEET_STAGE of its time
 * serving every order with fewer routes (src/search/fleet.ts), then searches distance without
 * opening a route, while the other threads search as usual. Thread 0's smaller fleet goes on when
 * it is the best or at most FLEET_TOLERANCE longer, and thread 0 then stays capped at that fleet
 * in the epochs after: the penalised search, left free, opens the routes again and loses (C1_10_9
 * at 60 s, one thread: 94 routes and 40,820 capped, 98 routes and 41,766 free, 97 routes and
 * 41,546 without the stage). Where fewer routes do not pay (R1_10_2: 92 routes and 49,942 capped
 * against 98 and 49,413 without), the other threads' result wins the epoch. On two threads it
 * gave C1 0.91 % at 60 s against 0.82-0.98 % without (bench/RESULTS.md, session 13): the
 * one-thread gains on C1 did not carry over, so it is off by default.
 */
const FLEET_EPOCH = 0.25;
const FLEET_STAGE = 0.6;
const FLEET_TOLERANCE = 0.01;

/** How the epochs of one solve are cut (benchmarks and tests vary it; the defaults are measured). */
export interface EpochPlan {
  /**
   * Let the threads work on sectors of the routes on large instances (default true; see
   * decompose.ts); 'always' also on small ones (tests).
   */
  decompose?: boolean | 'always';
  /**
   * On large instances with short routes, a fleet epoch (see FLEET_EPOCH). Default false: it did
   * not pay on Homberger 1000 C1 at 60 s (bench/RESULTS.md, session 13). Follows `decompose:
   * 'always'` down to small instances (tests).
   */
  fleet?: boolean;
  /** Share of the sector epochs cut around a point off the depots' centre (default OFF_CENTRE_SHARE; benchmarks compare). */
  offCentre?: number;
  /** Share of the sector epochs cut into halves of halves instead of wedges (default HALVES_SHARE; benchmarks compare). */
  halves?: number;
  /** Called after each epoch: how many sectors it ran (1: the whole problem) and the best distance. */
  onEpoch?: (epoch: { index: number; sectors: number; distance: number }) => void;
  /** With an iteration budget: this many epochs instead of one per 2,000 iterations (tests, so a
   *  small budget of work still runs sector epochs). */
  epochs?: number;
}

/** Epochs of at least ~2.5 s (or 2,000 iterations), at most 30 (10 by iterations). */
export function epochCount(options: SolveOptions, plan: EpochPlan = {}): number {
  const iterations = options.iterations;
  if (iterations !== undefined && plan.epochs !== undefined) return Math.max(1, Math.floor(plan.epochs));
  if (iterations !== undefined) return Math.max(1, Math.min(10, Math.floor(iterations / 2000)));
  // every restart costs a local search and a reheated schedule, which short runs cannot pay back
  return Math.max(1, Math.min(30, Math.floor((options.timeLimit ?? 1) / 2.5)));
}

/** Routes of fewer than LONG_ROUTES orders on average. */
function shortRoutes(r: SolveResult): boolean {
  const used = r.routes.filter((x) => x.stops.length > 0).length;
  return used > 0 && r.routes.reduce((s, x) => s + x.stops.length, 0) / used < LONG_ROUTES;
}

/**
 * Solves validated `problem` in `epochCount` epochs on `threads` threads of `runner`, within
 * `options.timeLimit` seconds counted from `started` (performance.now() ms) or `options.iterations`.
 */
export async function solveEpochs(problem: ProblemInput, options: SolveOptions, threads: number, runner: CoopRunner, started: number, plan: EpochPlan = {}): Promise<SolveResult> {
  const iterations = options.iterations;
  const timeLimit = iterations === undefined ? (options.timeLimit ?? 1) : options.timeLimit;
  const epochs = epochCount(options, plan);
  const deadline = timeLimit === undefined ? Infinity : started + timeLimit * 1000;
  const wallDeadline = timeLimit === undefined ? undefined : Date.now() - (globalThis.performance.now() - started) + timeLimit * 1000;
  const seed = options.seed ?? 1;
  let best: SolveResult | null = null;
  let bestScore: ResultScore = [Infinity, Infinity, Infinity];
  let totalIterations = 0;
  const decompose = plan.decompose === 'always' ? canDecompose(problem, options, threads, 0) : (plan.decompose ?? true) && canDecompose(problem, options, threads);
  const angles = new Rng(seed * 31 + 17);
  const fleet = plan.fleet === true && canDecompose(problem, options, threads, plan.decompose === 'always' ? 0 : undefined);
  let capped = false;
  // its own stream, so the angles are those of a cut around the depots alone
  const pivots = new Rng(seed * 71 + 5);
  const offCentre = plan.offCentre ?? OFF_CENTRE_SHARE;
  // and its own for the shape, so the wedges' angles and pivots are what they were
  const shapes = new Rng(seed * 53 + 11);
  const halves = plan.halves ?? HALVES_SHARE;
  const answer = (r: SolveResult | null): SolveResult => {
    if (r === null) throw new Error('solveParallel: a thread gave no answer');
    return r;
  };
  for (let e = 0; e < epochs; e++) {
    const left = deadline - globalThis.performance.now();
    if (left <= 0 && best !== null) break;
    // the fleet epoch (see FLEET_EPOCH) is longer than the others: fleet minimisation needs time
    const fleetEpoch = fleet && e === 1 && best !== null && shortRoutes(best);
    const slice = Math.max(0, left) / (epochs - e);
    const share = fleetEpoch && timeLimit !== undefined ? Math.min(Math.max(0, left), Math.max(slice, FLEET_EPOCH * timeLimit * 1000)) : slice;
    const epochEnd = wallDeadline === undefined ? undefined : wallDeadline - Math.max(0, left) + share;
    const epochLimit = deadline === Infinity ? undefined : Math.max(0.001, share / 1000);
    const initialRoutes = best === null ? undefined : warmRoutes(best);
    const epochOptions = (w: number): SolveOptions => ({
      ...options,
      threads: undefined,
      validate: false,
      seed: seed + 7919 * (e * threads + w) + w,
      timeLimit: epochLimit,
      iterations: iterations === undefined ? undefined : Math.max(1, Math.round(iterations / epochs)),
      initialRoutes,
      schedule: { from: e / epochs, to: (e + 1) / epochs },
      // large instances, first epoch: the second thread starts from regret insertion alone,
      // so a slow machine cannot cut that start short (both starts take 0.7-1 s at 1,000
      // orders; on a loaded machine the first 2.5 s epoch ran out before the regret start was
      // done, and R1_10_1 went on from savings: 67,054 against 57,523 after the epoch)
      ...(e === 0 && w === 1 && problem.orders.length >= DECOMPOSE_FROM ? { start: 'regret' as const } : {}),
      // the capped thread: the fleet stage in the fleet epoch, no new route after it
      ...(fleetEpoch && w === 0 ? { fleetFirst: FLEET_STAGE, keepFleet: true } : {}),
      ...(capped && w === 0 ? { keepFleet: true } : {}),
    });
    // Large instances: every epoch after the first, each thread searches its own sectors of
    // the best solution's routes (one, or up to four in turn where the routes are many:
    // sectorsPerThread) and the sectors are put together (see isSectorEpoch). The sectors are
    // wedges (around the depots or off centre) or blocks (halveRoutes), by turns at random.
    const sectorEpoch = decompose && !fleetEpoch && best !== null && isSectorEpoch(e);
    let parts: Part[] | null = null;
    if (sectorEpoch && best !== null) {
      const angle = angles.next() * 2 * Math.PI;
      const pivot = pivots.next() < offCentre ? pivots.int(problem.orders.length) : undefined;
      const halved = shapes.next() < halves;
      for (let per = sectorsPerThread(best.vehicles, threads); per >= 1 && parts === null; per--)
        parts = halved ? halveRoutes(problem, best, threads * per, angle) : splitRoutes(problem, best, threads * per, angle, pivot);
    }
    if (parts !== null && best !== null) {
      // each thread takes its sectors one after the other, each for its share of the epoch
      const turns = parts.length / threads;
      const results = await Promise.all(
        parts.map(async (part, w) => {
          const o = epochOptions(w);
          const opts: SolveOptions = {
            ...o,
            timeLimit: o.timeLimit === undefined ? undefined : o.timeLimit / turns,
            iterations: o.iterations === undefined ? undefined : Math.max(1, Math.round(o.iterations / turns)),
            initialRoutes: part.initialRoutes,
            keepFleet: capped || undefined,
          };
          return answer(await runner.run(part.problem, opts, true, epochEnd));
        }),
      );
      for (const r of results) totalIterations += r.stats.iterations;
      const merged = mergeParts(problem, best, parts, results, options.objective);
      const s = resultScore(merged, options.objective);
      if (betterScore(s, bestScore)) {
        best = merged;
        bestScore = s;
      }
      plan.onEpoch?.({ index: e, sectors: parts.length, distance: best.distance });
      continue;
    }
    const tasks: Array<Promise<SolveResult>> = [];
    for (let w = 0; w < threads; w++) tasks.push(runner.run(problem, epochOptions(w), true, epochEnd).then(answer));
    const results = await Promise.all(tasks);
    for (const [w, r] of results.entries()) {
      totalIterations += r.stats.iterations;
      const s = resultScore(r, options.objective);
      if (best === null || betterScore(s, bestScore)) {
        best = r;
        bestScore = s;
        // once the fleet stage's smaller fleet is the best, thread 0 keeps it capped from then on
        if (fleetEpoch && w === 0) capped = true;
      }
    }
    // the smaller fleet goes on when it is at most FLEET_TOLERANCE longer than the epoch's best:
    // it has had a few seconds of distance search, the free threads the whole epoch
    const first = results[0];
    if (fleetEpoch && !capped && first.unassigned.length === 0 && best !== null && first.vehicles < best.vehicles && first.distance <= best.distance * (1 + FLEET_TOLERANCE)) {
      best = first;
      bestScore = resultScore(first, options.objective);
      capped = true;
    }
    plan.onEpoch?.({ index: e, sectors: 1, distance: best!.distance });
  }
  return { ...best!, stats: { elapsedMs: globalThis.performance.now() - started, iterations: totalIterations } };
}
