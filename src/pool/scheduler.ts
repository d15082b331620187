/**
 * The solve scheduler: how one solve uses the threads of a pool shared by every solve of the
 * process (a planning job's delivery date, a re-plan, `solveParallel`). A fixed portfolio of seeds (`seedsPerSolve`), or, when a second thread is
 * idle and the day is large enough, two threads cooperating on one search (solver/cooperate.ts),
 * or one seed joined by a spare seed on each idle thread. A spare seed gives its thread back
 * (it stops on a shared flag, keeping its best so far) as soon as other work needs it. The tasks
 * of one solve share one matrix in shared memory, built once by the first task to start.
 *
 * It knows threads, seeds and deadlines, not jobs: the caller passes an abort signal (a job's
 * lease) and says whether other work waits for a thread (`demand`). `runner` hands the threads to
 * an epoch driver (solver/cooperate.ts for a job's short budget, solver/epochs.ts for
 * `solveParallel`'s long ones) with the same shared matrix and the same stop rules.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { matrixSize } from '../model/matrix.js';
import { allocateSharedMatrix, omitMatrixInput, settleSharedTask, sharedMatrixRef, type SharedMatrix } from '../model/shared-matrix.js';
import type { SolveTask } from './messages.js';
import { PoolTaskError } from './pool.js';
import { overrunVerdict, taskCpuBuffer, taskCpuMs, threadCpuKnowable } from './thread-cpu.js';
import { processCpuMs } from './thread-clock.js';
import { cooperate, cooperates, type CoopPlan, type CoopRunner } from '../solver/cooperate.js';

/** What the scheduler needs of a pool (SolverPool fits). */
export interface SolveRunner {
  readonly size: number;
  run(task: SolveTask, options?: { signal?: AbortSignal }): Promise<SolveResult>;
}

export interface SolveSchedulerOptions {
  pool: SolveRunner;
  /** Seed of the solver (default 1). */
  seed?: number;
  /** A fixed number of seeds per solve (seed, seed+1, ...; the best is kept). Default: one seed,
   *  joined by spare seeds on idle threads, or a cooperative solve (see the file's comment). */
  seedsPerSolve?: number;
  objective?: SolveOptions['objective'];
  /** One matrix per solve in shared memory (default true); false: each thread builds its own. */
  shareMatrix?: boolean;
  /** Extra time before a solve that ignores its deadline is aborted, s (default 10). On Linux a
   *  solve is aborted only once its thread has also used that much CPU on it (a starved thread is
   *  waited for, pool/thread-cpu.ts), or after `abortCapSec` of wall time whatever it used. */
  abortGraceSec?: number;
  /** Wall time after which a solve is aborted even if its thread is starved, s (default: four
   *  times its time limit plus the grace, at least 60). */
  abortCapSec?: number;
  /** How long a spare seed asked to give its thread up may take before its thread is terminated
   *  (default 250 ms; it stops within one iteration, the rest is the message back). */
  spareStopGraceMs?: number;
  /** Whether other work waits for a thread now (no spare seed starts then). Default: never. */
  demand?: () => boolean;
  /**
   * The clock, in ms, that a cooperative solve schedules its epochs by (default
   * `performance.now`). Tests pass a virtual one that moves by each epoch's own budget, so the
   * sequence of epochs they check does not depend on how busy the machine is.
   */
  clock?: () => number;
  /** The error a solve asked of a closed scheduler throws (default: a plain Error saying so). */
  closedError?: () => Error;
  /** How a cooperative solve cuts its budget (default: cooperate's measured defaults; benchmarks vary it). */
  coopPlan?: CoopPlan;
}

/** A solve (not a spare) that ran past its time limit plus the grace and was stopped. */
export class SolveOverrunError extends Error {
  override readonly name = 'SolveOverrunError';
  constructor(readonly graceSec: number) {
    super(`the solve ran past its time limit plus ${graceSec} s grace and was stopped`);
  }
}

/** A spare seed: a solve on an otherwise idle thread that gives the thread up when its flag is set. */
interface Spare {
  flag: Int32Array;
  controller: AbortController;
  /** A task of a warm-up (`warmUp`): every solve stops it, and it is never terminated. */
  warmUp?: true;
}

const asked = (spare: Spare) => Atomics.load(spare.flag, 0) !== 0;

/** How long a spare seed may take to stop on its flag before its thread is terminated (default). */
const SPARE_STOP_GRACE_MS = 250;

type Work = Pick<SolveTask, 'problem' | 'matrix' | 'key' | 'deadline'>;

/** The tasks of one solve and their share of its matrix (see `shareMatrix`). */
interface MatrixShare {
  shared: boolean;
  task(i: number): Work;
  part(part: ProblemInput, i: number): Work;
}

/** Names each keyed solve of the process (a thread keeps the model of its last keyed task). */
let keys = 0;

export class SolveScheduler {
  private readonly pool: SolveRunner;
  private readonly options: SolveSchedulerOptions;
  readonly graceSec: number;
  private readonly aborts = new Set<AbortController>();
  /** Pool tasks not yet settled (each holds or waits for a thread). */
  private tasks = 0;
  /** Spare seeds not yet settled (some perhaps asked to stop already). */
  private readonly spares = new Set<Spare>();
  private warmUpStopped = false;
  private closed = false;

  constructor(options: SolveSchedulerOptions) {
    this.options = options;
    this.pool = options.pool;
    this.graceSec = options.abortGraceSec ?? 10;
  }

  /** The pool's threads. */
  get size(): number {
    return this.pool.size;
  }

  /** Aborts every solve and starts no new one (they would hold threads nobody waits for). */
  close(): void {
    this.closed = true;
    this.stopWarmUp();
    for (const c of this.aborts) c.abort();
  }

  /**
   * Plans `problem` once on the pool's threads, as a solve of `timeLimit` seconds would (two
   * threads cooperating when two are idle, else one), and throws the answer away: the search's code
   * is then compiled, in every thread, for the kinds of tasks a job sends (halves, whole day,
   * sectors). Every task is stoppable like a spare seed, and the first `solve` stops them all: the
   * warm-up never holds a thread a solve waits for. Resolves true when it ran to its end, false
   * when a solve (or close) stopped it or it failed; it never throws.
   *
   * Why: a solver thread's first seconds run on code the JIT has not compiled yet. The 500-order
   * city's first job after a pool started got about 4.8 s of solver CPU on two threads (8.5 s in a
   * later job) and planned 619-624 km (medians of six, three runs) against 607-615 km when it came
   * after this warm-up (bench/RESULTS.md, session 35, `bench/jobs.ts --first-job`).
   */
  async warmUp(problem: ProblemInput, timeLimit: number): Promise<boolean> {
    if (this.closed || this.warmUpStopped) return false;
    const signal = new AbortController().signal;
    const share = this.shareMatrix(problem);
    const stopped = new Error('the warm-up was stopped');
    let task = 0;
    const runner: CoopRunner = {
      free: () => (this.warmUpStopped ? 1 : this.pool.size - this.threadsHeld()),
      processCpuMs,
      run: (taskProblem, solveOptions, main, deadline) => {
        // after a stop the driver's next epoch gets nothing: the main search fails the warm-up
        if (this.warmUpStopped) return main ? Promise.reject(stopped) : Promise.resolve(null);
        const work = taskProblem === problem ? share.task(task++) : share.part(taskProblem, task++);
        if (deadline !== undefined) work.deadline = deadline;
        const spare: Spare = { flag: new Int32Array(new SharedArrayBuffer(4)), controller: new AbortController(), warmUp: true };
        this.spares.add(spare);
        return this.solveOnce(work, solveOptions, signal, spare).finally(() => this.spares.delete(spare));
      },
    };
    try {
      const seed = this.options.seed ?? 1;
      if (this.pool.size >= 2 && cooperates(problem, {}, 2, timeLimit)) await cooperate(problem, { timeLimit, seed }, runner, this.options.clock, this.options.coopPlan);
      // too short to cooperate: a seed on every thread, as a solve with spare seeds
      else await Promise.all(Array.from({ length: this.pool.size }, (_, i) => runner.run(problem, { timeLimit, seed: seed + i }, i === 0)));
      return !this.warmUpStopped;
    } catch {
      return false;
    }
  }

  /** Stops a warm-up: each of its tasks returns within an iteration, and it starts no other. */
  private stopWarmUp(): void {
    this.warmUpStopped = true;
    for (const spare of this.spares) if (spare.warmUp) this.askToStop(spare);
  }

  /**
   * Solves one problem within `timeLimit` seconds: `seedsPerSolve` seeds in parallel when set.
   * Otherwise, when a second pool thread is idle at the start and the problem is large enough
   * (solver/cooperate.ts: 400 orders and more, a budget of at least two sector epochs), the two
   * threads cooperate on one search: both on the whole problem first, then each on its own sector
   * of the routes, in turns; the second thread's tasks give way to other work as a spare seed
   * does, and the solve goes on alone. Otherwise one seed, joined by a spare seed on each thread
   * idle at the start. The best answer wins: fewest unassigned orders, then least distance, then
   * the lowest seed. A spare that fails or is stopped early only drops out of the comparison.
   * `signal` stops every task of the solve.
   */
  async solve(problem: ProblemInput, timeLimit: number, signal: AbortSignal): Promise<SolveResult> {
    const first = this.options.seed ?? 1;
    const fixed = this.options.seedsPerSolve;
    // a warm-up gives way at once: its tasks stop within an iteration and count as gone below
    this.stopWarmUp();
    const share = this.shareMatrix(problem);
    const demand = () => this.options.demand?.() ?? false;
    let results: SolveResult[];
    if (fixed !== undefined) {
      const count = Math.max(1, Math.floor(fixed));
      results = await Promise.all(Array.from({ length: count }, (_, i) => this.solveOnce(share.task(i), { timeLimit, seed: first + i }, signal)));
    } else {
      this.makeRoom();
      const idle = this.pool.size - this.threadsHeld();
      const objective = this.options.objective === undefined ? {} : { objective: this.options.objective };
      // an explicit matrix cooperates only in shared memory: its rows would be cloned for every epoch
      const shareable = share.shared || problem.matrix.kind !== 'explicit';
      if (idle >= 2 && !demand() && shareable && cooperates(problem, objective, 2, timeLimit)) {
        const runner = this.threadsFor(problem, signal, share, undefined);
        return cooperate(problem, { timeLimit, seed: first, ...objective }, runner, this.options.clock, this.options.coopPlan);
      }
      // a spare ends with the main search's budget, wherever its thread begins it: one that begins
      // late (behind a warm-up or another job's task that has not yet let its thread go) would
      // otherwise run its whole budget from then on, and the solve would wait for it
      const deadline = Date.now() + timeLimit * 1000;
      const main = this.solveOnce(share.task(0), { timeLimit, seed: first }, signal);
      const spares: Array<Promise<SolveResult | null>> = [];
      // counted again: the main search now holds a thread
      const free = this.pool.size - this.threadsHeld();
      for (let i = 0; i < free && !demand(); i++) spares.push(this.solveSpare({ ...share.task(i + 1), deadline }, { timeLimit, seed: first + 1 + i }, signal));
      results = [await main];
      for (const r of await Promise.all(spares)) if (r !== null) results.push(r);
    }
    let best = results[0];
    for (const r of results.slice(1)) {
      if (r.unassigned.length < best.unassigned.length || (r.unassigned.length === best.unassigned.length && r.distance < best.distance)) best = r;
    }
    return best;
  }

  /**
   * The threads of this pool for one solve, as an epoch driver uses them: every task of the solve
   * shares one matrix; a task the driver calls main must answer, another is run as a spare seed
   * (it gives its thread to other work that needs one, and may come back empty). `free()` counts
   * the threads the next epoch may use (one when other work waits). With `keyed`, each thread
   * keeps the model of the whole problem between the solve's epochs.
   */
  runner(problem: ProblemInput, signal: AbortSignal, options: { keyed?: boolean } = {}): CoopRunner {
    this.stopWarmUp();
    return this.threadsFor(problem, signal, this.shareMatrix(problem), options.keyed ? `${process.pid}-${++keys}` : undefined);
  }

  private threadsFor(problem: ProblemInput, signal: AbortSignal, share: MatrixShare, key: string | undefined): CoopRunner {
    const demand = () => this.options.demand?.() ?? false;
    let task = 0;
    return {
      // this solve holds no thread between its epochs
      free: () => (demand() ? 1 : this.pool.size - this.threadsHeld()),
      processCpuMs,
      run: (taskProblem, solveOptions, main, deadline) => {
        const work = taskProblem === problem ? share.task(task++) : share.part(taskProblem, task++);
        if (key !== undefined && taskProblem === problem) work.key = key;
        if (deadline !== undefined) work.deadline = deadline;
        return main ? this.solveOnce(work, solveOptions, signal) : this.solveSpare(work, solveOptions, signal);
      },
    };
  }

  /**
   * The tasks of one solve share one matrix (model/shared-matrix.ts): here only the buffers are
   * allocated, the first task to start builds it on its thread. Task 0 carries the whole problem;
   * the others leave an explicit matrix out (a road matrix of 1000 locations is two million
   * numbers to clone for each thread), so only task 0 can build it and they wait for it.
   */
  private shareMatrix(problem: ProblemInput): MatrixShare {
    let shared: SharedMatrix | undefined;
    if (this.options.shareMatrix !== false) {
      try {
        shared = allocateSharedMatrix(matrixSize(problem.matrix));
      } catch {
        // a size the buffers cannot hold: each thread builds (or refuses) its own as before
      }
    }
    if (shared === undefined) return { shared: false, task: () => ({ problem }), part: (part) => ({ problem: part }) };
    const slim = omitMatrixInput(problem);
    const explicit = slim !== problem;
    return {
      shared: true,
      task: (i) => {
        const omitted = i > 0 && explicit;
        return { problem: omitted ? slim : problem, matrix: sharedMatrixRef(shared, i + 1, omitted) };
      },
      // a part of a cooperative solve (a half or a sector): the same locations, fewer orders and
      // vehicles; like a task, only the first carries an explicit matrix's rows (the first half
      // builds the matrix when the day starts with halves)
      part: (part, i) => {
        const omitted = i > 0 && explicit;
        return { problem: omitted ? omitMatrixInput(part) : part, matrix: sharedMatrixRef(shared, i + 1, omitted) };
      },
    };
  }

  /** Threads the tasks hold or wait for; a spare asked to stop counts as gone. */
  private threadsHeld(): number {
    let held = this.tasks;
    for (const spare of this.spares) if (asked(spare)) held--;
    return held;
  }

  /** A new solve needs a thread: asks a spare seed to give its thread back when none is idle. */
  private makeRoom(): void {
    if (this.threadsHeld() < this.pool.size) return;
    for (const spare of this.spares) {
      if (asked(spare)) continue;
      this.askToStop(spare);
      return;
    }
  }

  /**
   * Asks a spare seed to give its thread back; one that does not stop on its flag within the grace
   * loses its thread. A warm-up task is not terminated: aborting a task whose thread
   * is still loading (a process's first second) would stop the thread and start a cold one for the
   * solve that asked, and a warm-up task returns at once when it begins, or within an iteration.
   */
  private askToStop(spare: Spare): void {
    if (asked(spare)) return;
    Atomics.store(spare.flag, 0, 1);
    if (spare.warmUp) return;
    setTimeout(() => {
      if (this.spares.has(spare)) spare.controller.abort();
    }, this.options.spareStopGraceMs ?? SPARE_STOP_GRACE_MS).unref();
  }

  private async solveSpare(work: Work, options: SolveOptions, signal: AbortSignal): Promise<SolveResult | null> {
    const spare: Spare = { flag: new Int32Array(new SharedArrayBuffer(4)), controller: new AbortController() };
    this.spares.add(spare);
    try {
      return await this.solveOnce(work, options, signal, spare);
    } catch {
      return null;
    } finally {
      this.spares.delete(spare);
    }
  }

  /**
   * The overrun guard of one task: at its time limit plus the grace (wall clock, from now) the task
   * is aborted if its thread has used that much CPU on it (stuck: the solver watches its own
   * deadline, so a healthy one has stopped long before) or the platform cannot tell; a thread that
   * has not (starved, or not begun) is looked at again, until the cap.
   */
  private guard(timeLimit: number, cpu: SharedArrayBuffer, controller: AbortController): { current: ReturnType<typeof setTimeout> } {
    const started = globalThis.performance.now();
    const limitMs = (timeLimit + this.graceSec) * 1000;
    const capMs = (this.options.abortCapSec ?? Math.max(60, 4 * (timeLimit + this.graceSec))) * 1000;
    const again = Math.min(2000, Math.max(100, this.graceSec * 500));
    const timer = { current: setTimeout(check, limitMs) };
    function check() {
      const verdict = overrunVerdict({ elapsedMs: globalThis.performance.now() - started, limitMs, capMs, cpuMs: taskCpuMs(cpu), begunKnowable: threadCpuKnowable });
      if (verdict === 'abort') controller.abort();
      else timer.current = setTimeout(check, again);
    }
    return timer;
  }

  private async solveOnce(work: Work, solveOptions: SolveOptions, signal: AbortSignal, spare?: Spare): Promise<SolveResult> {
    if (this.closed) throw this.options.closedError?.() ?? new Error('the solve scheduler is closed');
    if (signal.aborted) throw signal.reason ?? new Error('the solve was stopped');
    const controller = spare?.controller ?? new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    this.aborts.add(controller);
    this.tasks++;
    const cpu = taskCpuBuffer();
    // an iteration budget has no time to overrun
    const timer = solveOptions.timeLimit === undefined ? undefined : this.guard(solveOptions.timeLimit, cpu, controller);
    try {
      const options: SolveOptions = { ...solveOptions };
      if (this.options.objective) options.objective = this.options.objective;
      const task: SolveTask = { ...work, options, cpu };
      if (spare) task.stop = spare.flag.buffer as SharedArrayBuffer;
      return await this.pool.run(task, { signal: controller.signal });
    } catch (error) {
      if (error instanceof PoolTaskError && error.kind === 'aborted' && !spare && !signal.aborted && !this.closed) throw new SolveOverrunError(this.graceSec);
      throw error;
    } finally {
      // the pool marks a build this task left unfinished; a runner that is not a SolverPool may not
      if (work.matrix !== undefined) settleSharedTask(work.matrix);
      this.tasks--;
      if (timer !== undefined) clearTimeout(timer.current);
      signal.removeEventListener('abort', stop);
      this.aborts.delete(controller);
    }
  }
}
