/**
 * `solveParallel(problem, { threads: N, ... })`: N searches on Piscina worker threads, with seeds
 * derived from the given one, in epochs: after each epoch every thread restarts from the best
 * solution found so far, with the cooling schedule continuing where the epoch ended. The main
 * thread only waits. Each worker stops itself at its epoch deadline, so the overall time limit
 * holds and an abort never loses the answer. With an iteration budget instead of a time limit the
 * same seed and thread count give the same solution (ties between threads go to the lowest one).
 *
 * This file is the solver's one edge (threads, files); the search itself stays pure.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { matrixSize } from '../model/matrix.js';
import { allocateSharedMatrix, omitMatrixInput, settleSharedTask, sharedMatrixRef, type SharedMatrix } from '../model/shared-matrix.js';
import { solveStop, solveValid } from './solve-core.js';
import type { EpochTask } from './parallel-worker.js';
import { canDecompose, DECOMPOSE_FROM, halveRoutes, HALVES_SHARE, isSectorEpoch, mergeParts, OFF_CENTRE_SHARE, sectorsPerThread, splitRoutes, type Part } from './decompose.js';
import { Rng } from './rng.js';
import { LONG_ROUTES } from './improve.js';
import { betterScore, resultScore, warmRoutes, type ResultScore } from './result.js';

function workerFile(): string {
  // built: our own entry if bundled, else the package's worker (it calls solve with the same
  // options); from source: the tsx loader
  for (const name of ['./parallel-worker.js', './worker.js', './parallel-worker-source.mjs']) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('solveParallel: no worker file found next to the solver');
}

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

/** Routes of fewer than LONG_ROUTES orders on average. */
function shortRoutes(r: SolveResult): boolean {
  const used = r.routes.filter((x) => x.stops.length > 0).length;
  return used > 0 && r.routes.reduce((s, x) => s + x.stops.length, 0) / used < LONG_ROUTES;
}

let solveCounter = 0;
const pools = new Map<number, Piscina<EpochTask, SolveResult>>();

function getPool(PiscinaClass: typeof Piscina, threads: number): Piscina<EpochTask, SolveResult> {
  let pool = pools.get(threads);
  if (pool === undefined) {
    pool = new PiscinaClass<EpochTask, SolveResult>({ filename: workerFile(), minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
    pools.set(threads, pool);
  }
  return pool;
}

/** Stops the worker threads kept by `solveParallel(..., { keepThreads: true })`. */
export async function closeParallelPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.destroy()));
}

export interface ParallelEnv {
  /** Keep the worker threads for the next call (benchmarks); close them with closeParallelPools. */
  keepThreads?: boolean;
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
  /** One matrix in shared memory for all threads, built by the first (default true); false: each
   *  thread builds its own (benchmarks compare the two). */
  shareMatrix?: boolean;
  /** With an iteration budget: this many epochs instead of one per 2,000 iterations (tests, so a
   *  small budget of work still runs sector epochs). */
  epochs?: number;
}

export async function solveParallel(input: ProblemInput, options: SolveOptions = {}, env: ParallelEnv = {}): Promise<SolveResult> {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  // the schema (zod) and Piscina load only when needed: a cold `solve --threads N` process, which
  // passes validated input and runs one epoch without a pool, starts without them
  const validate = async (x: ProblemInput) => (options.validate === false ? x : (await import('../schema/problem.js')).parseProblem(x));
  if (threads === 1) {
    // as `solve`: the budget starts before validation
    const stop = solveStop(options, {});
    return solveValid(await validate(input), options, {}, stop);
  }
  const started = globalThis.performance.now();
  const problem = await validate(input);
  const iterations = options.iterations;
  const timeLimit = iterations === undefined ? (options.timeLimit ?? 1) : options.timeLimit;
  // Epochs of at least ~2.5 s (or 2,000 iterations): every restart costs a local search and a
  // reheated schedule, which short runs cannot pay back; below that the threads run independently.
  const epochs = iterations !== undefined && env.epochs !== undefined ? Math.max(1, Math.floor(env.epochs)) : iterations !== undefined ? Math.max(1, Math.min(10, Math.floor(iterations / 2000))) : Math.max(1, Math.min(30, Math.floor((timeLimit ?? 1) / 2.5)));
  const deadline = timeLimit === undefined ? Infinity : started + timeLimit * 1000;
  const seed = options.seed ?? 1;
  // one epoch and no threads kept for later: the main thread searches too (see mainAndWorkers)
  if (epochs === 1 && !env.keepThreads) return mainAndWorkers(problem, options, threads, started, timeLimit, iterations, seed);
  const key = `${process.pid}-${++solveCounter}-${started}`;
  const wallDeadline = timeLimit === undefined ? undefined : Date.now() + timeLimit * 1000;
  // Only the buffers are allocated here; a worker fills them. Only the first task carries an
  // explicit matrix (the others would clone it for nothing); tasks with coordinates all carry them.
  const shared: SharedMatrix | undefined = env.shareMatrix === false ? undefined : allocateSharedMatrix(matrixSize(problem.matrix));
  const slim = shared === undefined ? problem : omitMatrixInput(problem);
  const { Piscina: PiscinaClass } = await import('piscina');
  const pool = env.keepThreads ? getPool(PiscinaClass, threads) : new PiscinaClass<EpochTask, SolveResult>({ filename: workerFile(), minThreads: threads, maxThreads: threads });
  let best: SolveResult | null = null;
  let bestScore: ResultScore = [Infinity, Infinity, Infinity];
  let totalIterations = 0;
  const decompose = env.decompose === 'always' ? canDecompose(problem, options, threads, 0) : (env.decompose ?? true) && canDecompose(problem, options, threads);
  const angles = new Rng(seed * 31 + 17);
  const fleet = env.fleet === true && canDecompose(problem, options, threads, env.decompose === 'always' ? 0 : undefined);
  let capped = false;
  // its own stream, so the angles are those of a cut around the depots alone
  const pivots = new Rng(seed * 71 + 5);
  const offCentre = env.offCentre ?? OFF_CENTRE_SHARE;
  // and its own for the shape, so the wedges' angles and pivots are what they were
  const shapes = new Rng(seed * 53 + 11);
  const halves = env.halves ?? HALVES_SHARE;
  /** Names each task of this solve in the shared matrix's state word (the first one builds it). */
  let tokens = 0;
  try {
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
      /** Runs one task of this epoch on the shared matrix (the sectors use it too: same locations). */
      const run = (w: number, taskKey: string, taskProblem: ProblemInput, opts: SolveOptions): Promise<SolveResult> => {
        const token = ++tokens;
        // a sector has the same locations: it leaves an explicit matrix's rows out as well
        const omitted = token > 1 && slim !== problem;
        const sent = !omitted ? taskProblem : taskProblem === problem ? slim : omitMatrixInput(taskProblem);
        const task: EpochTask = { key: taskKey, problem: sent, options: opts, deadline: epochEnd };
        if (shared !== undefined) task.matrix = sharedMatrixRef(shared, token, omitted);
        // once it settles, a build it left unfinished is marked failed (its waiters stop waiting)
        return task.matrix === undefined ? pool.run(task) : pool.run(task).finally(() => settleSharedTask(task.matrix!));
      };
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
          parts.map((part, w) => {
            const o = epochOptions(w);
            return run(w, `${key}-${e}-${w}`, part.problem, {
              ...o,
              timeLimit: o.timeLimit === undefined ? undefined : o.timeLimit / turns,
              iterations: o.iterations === undefined ? undefined : Math.max(1, Math.round(o.iterations / turns)),
              initialRoutes: part.initialRoutes,
              keepFleet: capped || undefined,
            });
          }),
        );
        for (const r of results) totalIterations += r.stats.iterations;
        const merged = mergeParts(problem, best, parts, results, options.objective);
        const s = resultScore(merged, options.objective);
        if (betterScore(s, bestScore)) {
          best = merged;
          bestScore = s;
        }
        env.onEpoch?.({ index: e, sectors: parts.length, distance: best.distance });
        continue;
      }
      const tasks: Array<Promise<SolveResult>> = [];
      for (let w = 0; w < threads; w++) tasks.push(run(w, key, problem, epochOptions(w)));
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
      env.onEpoch?.({ index: e, sectors: 1, distance: best!.distance });
    }
  } finally {
    if (!env.keepThreads) await pool.destroy();
  }
  return { ...best!, stats: { elapsedMs: globalThis.performance.now() - started, iterations: totalIterations } };
}

/**
 * How long a thread's answer is waited for past the deadline (a share of the budget, at least
 * 50 ms) before the solve goes on without it.
 */
const LATE_SHARE = 0.03;

/**
 * A solve of one epoch (budgets under 5 s, or under 4,000 iterations) on `threads` threads: the
 * main thread runs thread 0's search itself, at once, while threads 1.. start beside it on plain
 * worker threads that are handed their task as they start (no pool: a pool hands out work only
 * when the main thread's event loop turns, and here it is busy searching). Thread start-up
 * (an isolate, the module, a cold JIT: 0.1-0.5 s) thus overlaps the main thread's own start, and
 * thread 0 is exactly the one-thread solve: `--threads 2` is never worse than `--threads 1` when
 * the second core is free. Until session 26 every thread was a pool worker and the main thread
 * only waited: at 1 s the threads' start-up came out of the budget (Solomon, quiet machine: 2.06 %
 * on two threads against 1.12 % on one, 1.75 s of wall time). Each worker gets the absolute
 * deadline; an answer that comes more than LATE_SHARE of the budget late is not waited for.
 * With an iteration budget every answer is waited for, and the same seed gives the same solution.
 */
async function mainAndWorkers(problem: ProblemInput, options: SolveOptions, threads: number, started: number, timeLimit: number | undefined, iterations: number | undefined, seed: number): Promise<SolveResult> {
  const wallDeadline = timeLimit === undefined ? undefined : Date.now() - (globalThis.performance.now() - started) + timeLimit * 1000;
  const optionsOf = (w: number): SolveOptions => ({ ...options, threads: undefined, validate: false, seed: seed + 7919 * w + w, timeLimit, iterations });
  const workers: Worker[] = [];
  const answers: Array<Promise<SolveResult | null>> = [];
  for (let w = 1; w < threads; w++) {
    const worker = new Worker(WORKER_BOOT, { eval: true, workerData: { file: pathToFileURL(workerFile()).href, deadline: wallDeadline, task: { key: `main-${w}`, problem, options: optionsOf(w), deadline: wallDeadline } } });
    workers.push(worker);
    answers.push(
      new Promise((resolve) => {
        worker.once('message', (m: { result?: SolveResult }) => resolve(m.result ?? null));
        worker.once('error', () => resolve(null));
        worker.once('exit', () => resolve(null));
      }),
    );
  }
  try {
    const main = solveValid(problem, { ...optionsOf(0), timeLimit: timeLimit === undefined ? undefined : Math.max(0.001, timeLimit - (globalThis.performance.now() - started) / 1000) });
    let late: ReturnType<typeof setTimeout> | undefined;
    const grace = timeLimit === undefined ? undefined : Math.max(50, LATE_SHARE * timeLimit * 1000, started + timeLimit * 1000 - globalThis.performance.now());
    const others = await Promise.race([
      Promise.all(answers),
      ...(grace === undefined ? [] : [new Promise<null[]>((resolve) => (late = setTimeout(() => resolve(answers.map(() => null)), grace)))]),
    ]);
    if (late !== undefined) clearTimeout(late);
    let best = main;
    let bestScore = resultScore(main, options.objective);
    let total = main.stats.iterations;
    for (const r of others) {
      if (r === null) continue;
      total += r.stats.iterations;
      const s = resultScore(r, options.objective);
      if (betterScore(s, bestScore)) {
        best = r;
        bestScore = s;
      }
    }
    return { ...best, stats: { elapsedMs: globalThis.performance.now() - started, iterations: total } };
  } finally {
    for (const worker of workers) void worker.terminate();
  }
}

/**
 * A plain worker thread's entry: loads the epoch function (the same file the pool uses) and runs
 * its one task with what is left of the budget; posts the result, or nothing on failure.
 */
const WORKER_BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.file).then(async (m) => {
  const run = typeof m.default === 'function' ? m.default : m.default.default;
  const task = workerData.task;
  if (workerData.deadline !== undefined) task.options.timeLimit = Math.max(0.001, (workerData.deadline - Date.now()) / 1000);
  parentPort.postMessage({ result: await run(task) });
}).catch(() => process.exit(1));
`;
