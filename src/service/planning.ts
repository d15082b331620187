/**
 * The planning side of `serve`, wired in one place: the JobService on the SQLite planning store,
 * the Piscina solver pool, the road-matrix provider (haversine or OSRM), and webhook delivery of
 * both events from both sources (src/service/webhooks.ts).
 *
 * Life: create -> pass `jobs` and `events` to buildApp -> `start()` once listening (resumes jobs
 * left queued or running by a previous process, starts the webhook loop, which sends what the
 * outbox still holds) -> `stop()` on shutdown (running jobs get `drainMs` to finish, then are
 * abandoned: they stay `running` in the store and run again on the next start).
 */
import { EventBus } from '../jobs/events.js';
import { haversineProvider, type MatrixProvider } from '../jobs/problem.js';
import { JobService, type JobServiceOptions } from '../jobs/service.js';
import { osrmMatrix } from '../matrix/osrm.js';
import { SolverPool } from '../pool/pool.js';
import { IDEMPOTENCY_WINDOW_MS, type JobRecord, type PlanCommit } from '../jobs/ports.js';
import { toJobView } from '../jobs/view.js';
import type { Db } from '../store/db.js';
import { SqlitePlanningStore } from '../store/planning.js';
import type { Store } from '../store/store.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { ServiceEvents } from './events.js';
import { bridgeEvents, createWebhookDispatcher, type EventBridge } from './webhooks.js';

export interface PlanningRuntimeOptions {
  store: Store;
  /** The order service's events (the same object goes to buildApp). */
  events: ServiceEvents;
  /** Solver worker threads (default: cores, at most 4). */
  workers?: number;
  /** Solver time budget of one job in seconds (default: `defaultBudgetSec` of its order count). */
  jobTimeLimitSec?: number;
  matrix?: 'haversine' | 'osrm';
  osrmUrl?: string;
  webhookTimeoutMs?: number;
  webhookRetryDelaysMs?: readonly number[];
  /** Vehicle positions are removed this many days after the server received them (default 30). */
  positionRetentionDays?: number;
  /** Deadline of all road-matrix calls of one job, ms (default 120 000). */
  matrixDeadlineMs?: number;
  /** Planning jobs of one company queued or running at once (default 4). */
  maxJobsPerCompany?: number;
  /** How long stop() lets running jobs finish before abandoning them (default 5 s). */
  drainMs?: number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Called with each date's engine problem and result (tests check them independently). */
  onSolved?: JobServiceOptions['onSolved'];
}

export interface PlanningRuntime {
  jobs: JobService;
  bus: EventBus;
  dispatcher: WebhookDispatcher;
  pool: SolverPool;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One housekeeping pass (also run at start and hourly). */
  housekeep(): Promise<void>;
}

export function matrixProvider(kind: 'haversine' | 'osrm', osrmUrl?: string): MatrixProvider {
  if (kind === 'haversine') return haversineProvider();
  if (!osrmUrl) throw new Error('the osrm matrix provider needs a URL');
  return (points, signal) => osrmMatrix(points, { url: osrmUrl }, signal);
}

/**
 * The SQLite planning store that also writes the job layer's webhooks inside the transactions that
 * make the changes: a plan's in_route changes and its `planning_job.finished` commit with the plan,
 * a failed job's `planning_job.finished` with the failure. Nothing is lost between a commit and
 * the outbox, even to a kill -9. (The job service still emits the events on its bus afterwards,
 * for in-process listeners; the bridge then publishes none of them again.)
 */
export class OutboxPlanningStore extends SqlitePlanningStore {
  constructor(
    private readonly database: Db,
    private readonly publish: (companyId: number, event: 'planning_job.finished' | 'order.status_changed', data: unknown) => void,
  ) {
    super(database);
  }

  override commitPlan(plan: PlanCommit) {
    return this.database.transaction(() => {
      const committed = super.commitPlan(plan);
      for (const c of committed.changes) this.publish(plan.companyId, 'order.status_changed', c);
      this.publish(plan.companyId, 'planning_job.finished', toJobView(committed.job));
      return committed;
    }).immediate();
  }

  override updateJob(jobId: number, change: { status: 'running' } | { status: 'failed'; error: string }, at: string): JobRecord {
    if (change.status !== 'failed') return super.updateJob(jobId, change, at);
    return this.database.transaction(() => {
      const job = super.updateJob(jobId, change, at);
      this.publish(job.companyId, 'planning_job.finished', toJobView(job));
      return job;
    }).immediate();
  }
}

export const DEFAULT_POSITION_RETENTION_DAYS = 30;
const POSITION_PRUNE_BATCH = 5_000;

export function createPlanningRuntime(options: PlanningRuntimeOptions): PlanningRuntime {
  const log = options.log;
  const bus = new EventBus((error, event) => log?.error({ err: error, event: event.event }, 'event handler failed'));
  const pool = new SolverPool({ threads: options.workers });
  const dispatcher = createWebhookDispatcher(options.store, {
    timeoutMs: options.webhookTimeoutMs,
    retryDelaysMs: options.webhookRetryDelaysMs,
    log,
  });
  const jobs = new JobService({
    store: new OutboxPlanningStore(options.store.db, (companyId, event, data) => dispatcher.publish(companyId, event, data)),
    pool,
    events: bus,
    matrix: matrixProvider(options.matrix ?? 'haversine', options.osrmUrl),
    timeBudgetSec: options.jobTimeLimitSec,
    maxJobsPerCompany: options.maxJobsPerCompany,
    matrixDeadlineMs: options.matrixDeadlineMs,
    onSolved: options.onSolved,
    onError: (error, jobId) => log?.error({ err: error, job_id: jobId }, 'planning job could not be written; retrying'),
    onJobFailed: (error, jobId) => log?.warn({ err: error, job_id: jobId }, 'planning job failed'),
  });
  let bridge: EventBridge | undefined = bridgeEvents({
    store: options.store,
    dispatcher,
    serviceEvents: options.events,
    bus,
    busPublishedInStore: true,
    onError: (error) => log?.error({ err: error }, 'webhook outbox write failed'),
  });
  bus.on('planning_job.finished', (e) =>
    log?.info({ job_id: e.data.job_id, status: e.data.status, routes: 'route_ids' in e.data.result ? e.data.result.route_ids.length : 0 }, 'planning job finished'),
  );

  // Housekeeping, hourly: delivered webhooks are kept 7 days (for support questions), then
  // removed (pending and failed ones stay); vehicle positions are kept `positionRetentionDays`
  // (by the time the server received them), removed in batches that each hold the event loop
  // only briefly.
  const retentionMs = (options.positionRetentionDays ?? DEFAULT_POSITION_RETENTION_DAYS) * 86_400_000;
  const prune = async () => {
    try {
      const removed = options.store.db
        .prepare(`DELETE FROM webhook_deliveries WHERE status = 'delivered' AND delivered_at < ?`)
        .run(Date.now() - 7 * 86_400_000).changes;
      if (removed > 0) log?.info({ removed }, 'old delivered webhooks removed');
      options.store.db.prepare(`DELETE FROM idempotency_keys WHERE created_at < ?`).run(new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString());
      const before = new Date(Date.now() - retentionMs).toISOString();
      let positions = 0;
      for (;;) {
        const n = options.store.routes.prunePositions(before, POSITION_PRUNE_BATCH);
        positions += n;
        if (n < POSITION_PRUNE_BATCH) break;
        await new Promise((resolve) => setImmediate(resolve)); // let requests in between batches
      }
      if (positions > 0) log?.info({ removed: positions, before }, 'old vehicle positions removed');
    } catch (error) {
      log?.error({ err: error }, 'housekeeping failed; trying again in an hour');
    }
  };
  let housekeeping: NodeJS.Timeout | undefined;

  return {
    jobs,
    bus,
    dispatcher,
    pool,
    housekeep: prune,
    async start() {
      void prune();
      housekeeping = setInterval(() => void prune(), 3_600_000);
      housekeeping.unref();
      dispatcher.start();
      pool.warm();
      await jobs.start();
    },
    async stop() {
      clearInterval(housekeeping);
      const drained = jobs.close('drain');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        drained.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), options.drainMs ?? 5_000))),
      ]);
      clearTimeout(timer);
      if (timedOut) await jobs.close('abandon');
      bridge?.close();
      bridge = undefined;
      await dispatcher.stop();
      await pool.destroy();
    },
  };
}

/** The `serve` options of this part, parsed from node:util parseArgs values. */
export interface FlowServeOptions {
  jobTimeLimitSec?: number;
  webhookTimeoutMs?: number;
  webhookRetryDelaysMs?: number[];
  maxJobsPerCompany?: number;
  positionRetentionDays?: number;
}

/** The parseArgs option specs `serve` adds for planning and webhooks. */
export const flowServeArgs = {
  'job-time-limit': { type: 'string' },
  'webhook-timeout': { type: 'string' },
  'webhook-retry-delays': { type: 'string' },
  'max-jobs-per-company': { type: 'string' },
  'position-retention-days': { type: 'string' },
} as const;

export const FLOW_SERVE_USAGE = '[--job-time-limit SECONDS] [--webhook-timeout MS] [--webhook-retry-delays MS,MS,...] [--max-jobs-per-company 4] [--position-retention-days 30]';

/** Validates the values; throws `usage(message)` on a bad one. */
export function parseFlowServeArgs(
  v: { 'job-time-limit'?: string; 'webhook-timeout'?: string; 'webhook-retry-delays'?: string; 'max-jobs-per-company'?: string; 'position-retention-days'?: string },
  usage: (message: string) => Error,
): FlowServeOptions {
  const out: FlowServeOptions = {};
  const limit = v['job-time-limit'];
  if (limit !== undefined) {
    if (!/^\d{1,5}(\.\d{1,3})?$/.test(limit) || Number(limit) <= 0) throw usage(`--job-time-limit: expected seconds above 0, got '${limit}'`);
    out.jobTimeLimitSec = Number(limit);
  }
  const timeout = v['webhook-timeout'];
  if (timeout !== undefined) {
    if (!/^\d{1,7}$/.test(timeout) || Number(timeout) < 1) throw usage(`--webhook-timeout: expected milliseconds (1 or more), got '${timeout}'`);
    out.webhookTimeoutMs = Number(timeout);
  }
  const delays = v['webhook-retry-delays'];
  if (delays !== undefined) {
    const parts = delays.split(',').map((s) => s.trim());
    if (parts.length === 0 || parts.length > 50 || parts.some((p) => !/^\d{1,9}$/.test(p))) {
      throw usage(`--webhook-retry-delays: expected a comma-separated list of milliseconds, got '${delays}'`);
    }
    out.webhookRetryDelaysMs = parts.map(Number);
  }
  const cap = v['max-jobs-per-company'];
  if (cap !== undefined) {
    if (!/^\d{1,4}$/.test(cap) || Number(cap) < 1) throw usage(`--max-jobs-per-company: expected a positive integer, got '${cap}'`);
    out.maxJobsPerCompany = Number(cap);
  }
  const days = v['position-retention-days'];
  if (days !== undefined) {
    if (!/^\d{1,5}$/.test(days) || Number(days) < 1) throw usage(`--position-retention-days: expected a positive number of days, got '${days}'`);
    out.positionRetentionDays = Number(days);
  }
  return out;
}
