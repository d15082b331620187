/**
 * `solveParallel(problem, { threads: N, ... })`: one solve on N threads. The engine's one edge
 * for threads; the searches themselves stay pure (src/solver/).
 *
 * - One thread: `solve` itself, on the calling thread.
 * - One epoch (budgets under 5 s, or under 4,000 iterations): the main thread searches as thread
 *   0 while plain worker threads start beside it (`mainAndWorkers`: a cold `solve --threads 2`
 *   pays no thread start-up out of its budget).
 * - More epochs: the epochs of solver/epochs.ts on a solver pool (pool.ts) through the solve
 *   scheduler (scheduler.ts), the same one the planning jobs use: one matrix in shared memory for
 *   every task of the solve, the same stop rules, and each thread keeps the model between epochs.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { solveStop, solveValid } from '../solver/solve-core.js';
import { epochCount, solveEpochs, type EpochPlan } from '../solver/epochs.js';
import { betterScore, resultScore } from '../solver/result.js';
import type { SolveTask } from './messages.js';
import type { SolverPool } from './pool.js';
import { defaultWorkerFile } from './worker-file.js';

const pools = new Map<number, SolverPool>();

/** Stops the worker threads kept by `solveParallel(..., { keepThreads: true })`. */
export async function closeParallelPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.destroy()));
}

export interface ParallelEnv extends EpochPlan {
  /** Keep the worker threads for the next call (benchmarks); close them with closeParallelPools. */
  keepThreads?: boolean;
  /** One matrix in shared memory for all threads, built by the first (default true); false: each
   *  thread builds its own (benchmarks compare the two). */
  shareMatrix?: boolean;
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
  const seed = options.seed ?? 1;
  // one epoch and no threads kept for later: the main thread searches too
  if (epochCount(options, env) === 1 && !env.keepThreads) return mainAndWorkers(problem, options, threads, started, timeLimit, iterations, seed);
  // Piscina and the scheduler load only here: the paths above start without them
  const [{ SolverPool: Pool }, { SolveScheduler }] = await Promise.all([import('./pool.js'), import('./scheduler.js')]);
  let pool = env.keepThreads ? pools.get(threads) : undefined;
  if (pool === undefined) {
    pool = new Pool({ threads });
    if (env.keepThreads) pools.set(threads, pool);
  }
  const scheduler = new SolveScheduler({ pool, shareMatrix: env.shareMatrix });
  try {
    const runner = scheduler.runner(problem, new AbortController().signal, { keyed: true });
    return await solveEpochs(problem, options, threads, runner, started, env);
  } finally {
    if (!env.keepThreads) await pool.destroy();
  }
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
  const file = pathToFileURL(defaultWorkerFile()).href;
  for (let w = 1; w < threads; w++) {
    const task: SolveTask = { problem, options: optionsOf(w), deadline: wallDeadline };
    const worker = new Worker(WORKER_BOOT, { eval: true, workerData: { file, task } });
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
 * A plain worker thread's entry: loads the pool's worker module (worker.ts; its task's absolute
 * deadline caps the time limit, so the thread's start counts) and runs its one task; posts the
 * result, or nothing on failure.
 */
const WORKER_BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.file).then(async (m) => {
  const run = typeof m.default === 'function' ? m.default : m.default.default;
  parentPort.postMessage({ result: await run(workerData.task) });
}).catch(() => process.exit(1));
`;
