/**
 * The planning job service: the face the HTTP layer, `serve` and `worker` use, composed of four
 * parts, each in its own file (the fourth shared with `solveParallel`):
 * - intake.ts: validates and queues a job (idempotency, at most `maxJobsPerCompany` a company);
 * - runner.ts: claims queued jobs under a lease, renews it, retries store faults, hands jobs back;
 * - plan-date.ts: plans a claimed job date by date (load, build the problem, solve) and commits;
 * - ../pool/scheduler.ts: how a date's solve uses the pool's threads (portfolio, spare seeds,
 *   cooperation, shared matrix).
 *
 * Life of a job: submit -> `queued` (store) -> `running` when a service claims it -> `done`
 * (commitPlan, src/jobs/commit.ts: routes, stops, orders in_route and the job result in one
 * transaction, only over orders unchanged since the job read them) or `failed`
 * (readable error, nothing placed). `planning_job.finished` fires for both. Nothing accepted is
 * lost, and nothing is placed twice, because placement, `done` and the lease check are one
 * transaction. A job whose process died `MAX_JOB_ATTEMPTS` times fails.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { JobServiceClosedError } from './errors.js';
import { EventBus } from './events.js';
import { JobIntake, type ReplanSubmit } from './intake.js';
import { quoteFromStore, type Quote, type QuoteAsk } from './quote.js';
import { DatePlanner } from './plan-date.js';
import type { IdempotencyKey, PlanningStore } from './ports.js';
import { haversineProvider, type MatrixProvider } from './problem.js';
import type { PlanningRequest } from '../contract/planning.js';
import { JobRunner } from './runner.js';
import { SolveScheduler, type SolveRunner } from '../pool/scheduler.js';
import type { CoopPlan } from '../solver/cooperate.js';
import { WARM_UP_SEC, warmUpProblem } from './warm-up.js';
import type { JobView } from './view.js';

export { defaultBudgetSec } from './plan-date.js';
export { DEFAULT_LEASE_MS } from './runner.js';
export { DEFAULT_MAX_JOBS_PER_COMPANY } from './intake.js';
export type { SolveRunner } from '../pool/scheduler.js';

export interface JobServiceOptions {
  store: PlanningStore;
  pool: SolveRunner;
  /** Where the events go (default: a new bus, see `events`). */
  events?: EventBus;
  /** Road matrix (default: haversine at 30 km/h with detour factor 1.3). */
  matrix?: MatrixProvider;
  /** Solver wall-clock budget of one job in seconds, shared by its delivery dates in proportion to
   *  their orders (default: `defaultBudgetSec` of the job's order count, 1 to 4.5 s). */
  timeBudgetSec?: number;
  /** Room kept at the end of each van's shift by planning jobs for orders that come during the day, s (default 0; docs/day.md). */
  shiftReserveSec?: number;
  /** Extra time before a solve that ignores its deadline is aborted (default 10 s; a starved
   *  thread is waited for, see pool/scheduler.ts `abortGraceSec`). */
  abortGraceSec?: number;
  /** Wall time after which a solve is aborted even if its thread is starved (scheduler.ts). */
  abortCapSec?: number;
  /** How long a spare seed asked to give its thread up may take to answer before its thread is
   *  terminated (default 250 ms; it stops within one iteration, the rest is the message back). */
  spareStopGraceMs?: number;
  /** The clock a cooperative solve schedules its epochs by (scheduler.ts `clock`; tests only). */
  solveClock?: () => number;
  /** Jobs running at once (default: the pool's size). */
  concurrency?: number;
  /** One matrix per delivery date in shared memory, built once by a worker thread for all the
   *  date's solves (default true); false: every thread builds its own (benchmarks compare). */
  shareMatrix?: boolean;
  /** Seed of the solver (default 1). */
  seed?: number;
  /** A fixed number of solves in parallel per delivery date, with seeds seed, seed+1, ...; the
   *  best is kept. Default: one solve, joined by one more seed on each pool thread that is idle
   *  when the solve starts; such a spare seed stops early (keeping its best so far) as soon as
   *  another job needs the thread. */
  seedsPerSolve?: number;
  objective?: SolveOptions['objective'];
  /** Jobs of one company queued or running at once; one more is refused (TooManyJobsError).
   *  Default 4 (docs/contract/operations.md "Request limits"); 0 or Infinity: no cap. */
  maxJobsPerCompany?: number;
  /** First delay before a failed store write is tried again, doubling to 30 s (default 100 ms). */
  storeRetryBaseMs?: number;
  /** Planning again after another job took a vehicle meanwhile (default 3). */
  commitRetries?: number;
  now?: () => Date;
  /** Sees every solve (tests check feasibility with it; logging). */
  onSolved?: (info: { jobId: number; date: string; problem: ProblemInput; result: SolveResult }) => void;
  /** Errors that could not be written to a job (the store failed). */
  onError?: (error: unknown, jobId: number) => void;
  /** The whole error behind a failed job (its `error` text keeps internal details out). */
  onJobFailed?: (error: unknown, jobId: number) => void;
  /** Deadline for all road-matrix calls of one job, in ms (default 120 000). */
  matrixDeadlineMs?: number;
  /** The name this service claims jobs under (default: host, pid and a random part). */
  owner?: string;
  /** How long a claimed job stays leased without renewal, ms (default 30 000); renewed every third
   *  of it. A job of a process that died is taken over after at most this long. */
  leaseMs?: number;
  /** How often the store is asked for claimable work after start(), ms (default 1 000): jobs
   *  queued by other processes, jobs whose holder died. A submit here wakes the service at once. */
  pollMs?: number;
  /** false: accept jobs only, run none (an API process beside worker processes). Default true. */
  runJobs?: boolean;
  /** A job this service was running was taken over by another (its lease ran out); nothing written. */
  onLeaseLost?: (jobId: number) => void;
  /** How a cooperative solve cuts its budget (SolveSchedulerOptions.coopPlan; benchmarks vary it). */
  coopPlan?: CoopPlan;
}

export class JobService {
  readonly events: EventBus;
  /** The lease holder name of this service. */
  readonly owner: string;
  private readonly intake: JobIntake;
  private readonly runner: JobRunner;
  private readonly scheduler: SolveScheduler;
  private readonly store: PlanningStore;
  private readonly matrix: MatrixProvider;
  private readonly stamp: () => string;

  constructor(options: JobServiceOptions) {
    this.events = options.events ?? new EventBus();
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const stamp = () => (options.now?.() ?? new Date()).toISOString();
    this.store = options.store;
    this.matrix = options.matrix ?? haversineProvider();
    this.stamp = stamp;
    const scheduler = (this.scheduler = new SolveScheduler({
      pool: options.pool,
      seed: options.seed,
      seedsPerSolve: options.seedsPerSolve,
      objective: options.objective,
      shareMatrix: options.shareMatrix,
      abortGraceSec: options.abortGraceSec,
      abortCapSec: options.abortCapSec,
      spareStopGraceMs: options.spareStopGraceMs,
      demand: () => this.runner.waiting,
      clock: options.solveClock,
      closedError: () => new JobServiceClosedError(),
      coopPlan: options.coopPlan,
    }));
    const planner = new DatePlanner({
      store: options.store,
      scheduler,
      matrix: this.matrix,
      events: this.events,
      timeBudgetSec: options.timeBudgetSec,
      shiftReserveSec: options.shiftReserveSec,
      matrixDeadlineMs: options.matrixDeadlineMs,
      commitRetries: options.commitRetries,
      stamp,
      onSolved: options.onSolved,
    });
    this.runner = new JobRunner({
      store: options.store,
      events: this.events,
      plan: (job, run) => planner.planJob(job, run),
      abortSolves: () => scheduler.close(),
      owner: this.owner,
      concurrency: Math.max(1, options.concurrency ?? options.pool.size),
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      storeRetryBaseMs: options.storeRetryBaseMs,
      runJobs: options.runJobs,
      stamp,
      onError: options.onError,
      onJobFailed: options.onJobFailed,
      onLeaseLost: options.onLeaseLost,
    });
    this.intake = new JobIntake({
      store: options.store,
      maxJobsPerCompany: options.maxJobsPerCompany,
      stamp,
      closed: () => this.runner.isClosed,
      onQueued: () => this.runner.pump(),
    });
  }

  /**
   * Starts taking work from the store: what is queued now, and from then on, every `pollMs`, what
   * other processes queue and the jobs whose holder's lease ran out.
   */
  async start(): Promise<void> {
    this.runner.start();
  }

  /**
   * Plans a made-up day of WARM_UP_SEC on the pool's threads and throws it away, so that the first
   * job after a start runs on compiled code (warm-up.ts, SolveScheduler.warmUp). The first solve of
   * a job or re-plan stops it at once. Resolves whether it ran to its end; never throws.
   */
  async warmUp(seconds = WARM_UP_SEC): Promise<boolean> {
    try {
      return await this.scheduler.warmUp(await warmUpProblem(), seconds);
    } catch {
      return false; // a warm-up that cannot be built is no warm-up, never a failed start
    }
  }

  /** See JobIntake.submitOnce: submit() under an Idempotency-Key. */
  submitOnce(companyId: number, request: PlanningRequest, idempotency: IdempotencyKey): Promise<{ job: JobView; replayed: boolean }> {
    return this.intake.submitOnce(companyId, request, idempotency);
  }

  /** Validates the whole selection at once and queues a job, or throws PlanningInputError. */
  submit(companyId: number, request: PlanningRequest, idempotency?: IdempotencyKey): Promise<JobView> {
    return this.intake.submit(companyId, request, idempotency);
  }

  /** One more order on a date: its cheapest place on the date's routes now, changing nothing. */
  quote(companyId: number, ask: QuoteAsk): Promise<Quote> {
    return quoteFromStore(this.store, this.matrix, companyId, ask, this.stamp());
  }

  /** Queues a re-plan of one date (dispatch API), or throws PlanningInputError. */
  replan(companyId: number, request: ReplanSubmit): Promise<JobView> {
    return this.intake.replan(companyId, request);
  }

  /** The job object of 2.2, or undefined when there is no such job for this company. */
  get(companyId: number, jobId: number): Promise<JobView | undefined> {
    return this.intake.get(companyId, jobId);
  }

  /** Resolves with the job once it is done or failed (here or in another process: it looks every second). */
  async waitFor(companyId: number, jobId: number): Promise<JobView> {
    for (;;) {
      const finished = new Promise<void>((resolve) => {
        const done = () => {
          off();
          clearInterval(timer);
          resolve();
        };
        const off = this.events.on('planning_job.finished', (e) => {
          if (e.data.job_id === jobId) done();
        });
        const look = () =>
          void this.get(companyId, jobId).then(
            (view) => {
              if (!view || view.status === 'done' || view.status === 'failed') done();
            },
            () => undefined,
          );
        const timer = setInterval(look, 1_000);
        look();
      });
      await finished;
      const view = await this.get(companyId, jobId);
      if (!view) throw new Error(`no planning job ${jobId} for company ${companyId}`);
      if (view.status === 'done' || view.status === 'failed') return view;
    }
  }

  /** Resolves when this service runs no job and found nothing more to claim. */
  idle(): Promise<void> {
    return this.runner.idle();
  }

  /**
   * Stops taking jobs. `drain` (default) waits for the running jobs and leaves queued ones queued
   * in the store; `abandon` aborts running solves, writes no outcome and hands their jobs back
   * (lease ended, still `running`, the attempt not counted) for this or another process to run.
   */
  close(mode: 'drain' | 'abandon' = 'drain'): Promise<void> {
    return this.runner.close(mode);
  }
}
