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
import { WARM_UP_SEC } from '../jobs/warm-up.js';
import { osrmMatrix } from '../matrix/osrm.js';
import { SolverPool } from '../pool/pool.js';
import { IDEMPOTENCY_WINDOW_MS } from '../jobs/ports.js';
import type { StorePort } from '../store/port.js';
import { portOf } from '../store/sqlite/port.js';
import type { Store } from '../store/sqlite/store.js';
import type { PlannerMetrics } from './metrics.js';
import { observePlanning, storeBacklogs } from './ops.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { ServiceEvents } from './events.js';
import { bridgeEvents, createWebhookDispatcher, type EventBridge } from './webhooks.js';

export interface PlanningRuntimeOptions {
  /** /metrics: jobs, claims, webhook tries and the backlogs are counted here (src/service/ops.ts). */
  metrics?: PlannerMetrics;
  /** The storage port, or the SQLite store (used through its one port). */
  store: Store | StorePort;
  /** The order service's events (the same object goes to buildApp). */
  events: ServiceEvents;
  /** Solver worker threads (default: cores, at most 4). */
  workers?: number;
  /** Solver time budget of one job in seconds (default: `defaultBudgetSec` of its order count). */
  jobTimeLimitSec?: number;
  /** Room planning jobs keep at the end of each van's shift for orders that come during the day, minutes (default 0; docs/day.md). */
  shiftReserveMin?: number;
  /** Seconds of a made-up day planned at start, so the first job runs on compiled code (default WARM_UP_SEC; 0: none; src/jobs/warm-up.ts). */
  warmUpSec?: number;
  matrix?: 'haversine' | 'osrm';
  osrmUrl?: string;
  /** `--speed-kmh`: haversine travel at one fixed speed instead of the default travel curve. */
  speedKmh?: number;
  /** `--detour-factor`: road metres per great-circle metre for haversine (default 1.3). */
  detourFactor?: number;
  webhookTimeoutMs?: number;
  webhookRetryDelaysMs?: readonly number[];
  /** Vehicle positions are removed this many days after the server received them (default 30). */
  positionRetentionDays?: number;
  /** Deadline of all road-matrix calls of one job, ms (default 120 000). */
  matrixDeadlineMs?: number;
  /** Planning jobs of one company queued or running at once (default 4). */
  maxJobsPerCompany?: number;
  /** How long stop() lets running jobs finish before handing them back (default 5 s). */
  drainMs?: number;
  /** false (`serve --jobs off`): accept and queue work, run no planning job, webhook delivery or
   *  geocoding here; worker processes on the same database do. Default true. */
  runJobs?: boolean;
  /** How long work claimed by this process (a planning job, a webhook delivery, a geocoding task)
   *  stays its own without renewal, ms (default 30 s): a process that died loses it then. */
  leaseMs?: number;
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

export function matrixProvider(kind: 'haversine' | 'osrm', osrmUrl?: string, road: { speedKmh?: number; detourFactor?: number } = {}): MatrixProvider {
  if (kind === 'haversine') return haversineProvider(road);
  if (!osrmUrl) throw new Error('the osrm matrix provider needs a URL');
  return (points, signal) => osrmMatrix(points, { url: osrmUrl }, signal);
}

export const DEFAULT_POSITION_RETENTION_DAYS = 30;
const POSITION_PRUNE_BATCH = 5_000;

export function createPlanningRuntime(options: PlanningRuntimeOptions): PlanningRuntime {
  const log = options.log;
  const store = portOf(options.store);
  const bus = new EventBus((error, event) => log?.error({ err: error, event: event.event }, 'event handler failed'));
  const pool = new SolverPool({ threads: options.workers });
  const dispatcher = createWebhookDispatcher(store, {
    timeoutMs: options.webhookTimeoutMs,
    retryDelaysMs: options.webhookRetryDelaysMs,
    leaseMs: options.leaseMs,
    log,
    metrics: options.metrics,
  });
  if (options.metrics) storeBacklogs(options.metrics, store);
  const jobs = new JobService({
    store: options.metrics ? observePlanning(store.planning, bus, options.metrics) : store.planning,
    pool,
    events: bus,
    matrix: matrixProvider(options.matrix ?? 'haversine', options.osrmUrl, { speedKmh: options.speedKmh, detourFactor: options.detourFactor }),
    timeBudgetSec: options.jobTimeLimitSec,
    ...(options.shiftReserveMin ? { shiftReserveSec: options.shiftReserveMin * 60 } : {}),
    maxJobsPerCompany: options.maxJobsPerCompany,
    matrixDeadlineMs: options.matrixDeadlineMs,
    onSolved: options.onSolved,
    onError: (error, jobId) => log?.error({ err: error, job_id: jobId }, 'planning job could not be written; retrying'),
    onJobFailed: (error, jobId) => log?.warn({ err: error, job_id: jobId }, 'planning job failed'),
    onLeaseLost: (jobId) => log?.warn({ job_id: jobId }, 'planning job taken over by another process (its lease ran out); this one wrote nothing'),
    runJobs: options.runJobs !== false,
    leaseMs: options.leaseMs,
  });
  let bridge: EventBridge | undefined = bridgeEvents({ dispatcher, serviceEvents: options.events, bus });
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
      const removed = await store.outbox.pruneDelivered(Date.now() - 7 * 86_400_000);
      if (removed > 0) log?.info({ removed }, 'old delivered webhooks removed');
      await store.planning.pruneIdempotencyKeys(new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString());
      const before = new Date(Date.now() - retentionMs).toISOString();
      let positions = 0;
      for (;;) {
        const n = await store.routes.prunePositions(before, POSITION_PRUNE_BATCH);
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
      if (options.runJobs === false) return;
      dispatcher.start();
      pool.warm();
      // the search compiled before the first job (a job that comes meanwhile stops it at once)
      const warmUpSec = options.warmUpSec ?? WARM_UP_SEC;
      if (warmUpSec > 0) {
        const started = Date.now();
        void jobs.warmUp(warmUpSec).then((completed) =>
          log?.info({ warm_up_sec: warmUpSec, completed, ms: Date.now() - started }, completed ? 'solver warm-up done' : 'solver warm-up stopped (a solve came first)'),
        );
      }
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
