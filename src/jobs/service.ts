/**
 * The planning job service: validates and accepts jobs (at most `maxJobsPerCompany` of a company
 * queued or running), runs them on the solver pool with a time budget each, writes their routes
 * through the store, emits the events.
 *
 * The queue is the store: any number of services (processes) on one store take jobs from it with
 * `claimJob`, which leases a job to one of them; companies take turns (round-robin; FIFO within a
 * company). The holder renews its lease while it plans; a process that dies stops renewing, and
 * when the lease runs out another service takes the job over. Every status write names the
 * holder, so a process that lost its lease (it stalled, or was taken for dead) writes nothing.
 *
 * Life of a job: submit -> `queued` (store) -> `running` when a service claims it -> `done`
 * (commitPlan: routes, stops, orders in_route and the job result in one transaction) or `failed`
 * (readable error, nothing placed). `planning_job.finished` fires for both. Nothing accepted is
 * lost, and nothing is placed twice, because placement, `done` and the lease check are one
 * transaction. A job whose process died `MAX_JOB_ATTEMPTS` times fails.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ProblemInput, SolveOptions, SolveResult, UnassignedReason } from '../model/input.js';
import { matrixSize } from '../model/matrix.js';
import { allocateSharedMatrix, omitMatrixInput, settleSharedTask, sharedMatrixRef, type SharedMatrix } from '../model/shared-matrix.js';
import { scaleTravelTimes } from '../model/travel-time.js';
import type { SolveTask } from '../pool/messages.js';
import { MatrixProviderError } from '../matrix/osrm.js';
import { cooperate, cooperates, type CoopRunner } from '../solver/cooperate.js';
import { PoolTaskError } from '../pool/pool.js';
import { MAX_ORDERS_PER_JOB, JobServiceClosedError, PlanningInputError, type PlanningProblem } from './errors.js';
import { EventBus } from './events.js';
import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyKeyReusedError,
  IdempotentReplayError,
  LeaseLostError,
  MAX_JOB_ATTEMPTS,
  OrdersNotNewError,
  TooManyJobsError,
  type IdempotencyKey,
  VehicleBusyError,
  type JobRecord,
  type NewRoute,
  type PlanningOrder,
  type PlanningStore,
  type Warehouse,
} from './ports.js';
import { buildProblem, haversineProvider, toRoutes, type MatrixProvider } from './problem.js';
import type { PlanningRequest } from './request.js';
import { toJobView, type JobView } from './view.js';

/** What the service needs of a pool (SolverPool fits). */
export interface SolveRunner {
  readonly size: number;
  run(task: SolveTask, options?: { signal?: AbortSignal }): Promise<SolveResult>;
}

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
  /** Extra time before a solve that ignores its deadline is aborted (default 10 s). */
  abortGraceSec?: number;
  /** How long a spare seed asked to give its thread up may take to answer before its thread is
   *  terminated (default 250 ms; it stops within one iteration, the rest is the message back). */
  spareStopGraceMs?: number;
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
   *  Default 4 (operations.md "Request limits"); 0 or Infinity: no cap. */
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
}

export const DEFAULT_LEASE_MS = 30_000;

export const DEFAULT_MAX_JOBS_PER_COMPANY = 4;

/** A job failure with the text that goes into the job's `error`. */
class JobFailure extends Error {}

/**
 * The default solver budget of a job: 1 s plus 7 ms an order, at most 4.5 s. Small jobs come back
 * fast (41 orders: 1.3 s; Solomon's 100 orders are within 0.3 % of their best known at 1 s), and a
 * 500-order job gets 4.5 s, which keeps its job time under 5 s (the 500-order city: p50 4.5 s).
 */
export function defaultBudgetSec(orders: number): number {
  return Math.min(4.5, 1 + 0.007 * orders);
}

/** A spare seed: a solve on an otherwise idle thread that gives the thread up when its flag is set. */
interface Spare {
  flag: Int32Array;
  controller: AbortController;
}

const asked = (spare: Spare) => Atomics.load(spare.flag, 0) !== 0;

/** How long a spare seed may take to stop on its flag before its thread is terminated (default). */
const SPARE_STOP_GRACE_MS = 250;

export class JobService {
  readonly events: EventBus;
  private readonly store: PlanningStore;
  private readonly pool: SolveRunner;
  private readonly matrix: MatrixProvider;
  private readonly budgetSec: number | undefined;
  private readonly graceSec: number;
  private readonly concurrency: number;
  private readonly options: JobServiceOptions;
  /** The lease holder name of this service. */
  readonly owner: string;
  private readonly leaseMs: number;
  /** The jobs this service holds, each with the controller that stops its work. */
  private readonly held = new Map<number, AbortController>();
  private pumping = false;
  private pumpAgain = false;
  private poll: NodeJS.Timeout | undefined;
  private readonly aborts = new Set<AbortController>();
  private idleWaiters: Array<() => void> = [];
  private active = 0;
  /** Pool tasks of this service not yet settled (each holds or waits for a thread). */
  private tasks = 0;
  /** Spare seeds not yet settled (some perhaps asked to stop already). */
  private readonly spares = new Set<Spare>();
  private closed = false;
  private abandoned = false;
  /** Back-off sleepers, woken by close(). */
  private readonly wakeOnClose = new Set<() => void>();

  constructor(options: JobServiceOptions) {
    this.options = options;
    this.store = options.store;
    this.pool = options.pool;
    this.events = options.events ?? new EventBus();
    this.matrix = options.matrix ?? haversineProvider();
    this.budgetSec = options.timeBudgetSec;
    this.graceSec = options.abortGraceSec ?? 10;
    this.concurrency = Math.max(1, options.concurrency ?? options.pool.size);
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = Math.max(300, options.leaseMs ?? DEFAULT_LEASE_MS);
  }

  /**
   * Starts taking work from the store: what is queued now, and from then on, every `pollMs`, what
   * other processes queue and the jobs whose holder's lease ran out.
   */
  async start(): Promise<void> {
    if (this.options.runJobs === false || this.closed) return;
    clearInterval(this.poll);
    this.poll = setInterval(() => this.pump(), Math.max(50, this.options.pollMs ?? 1_000));
    this.poll.unref();
    this.pump();
  }

  /**
   * Validates the whole selection at once and creates a queued job, or throws PlanningInputError
   * (no job created) with the contract's detail text.
   */
  /**
   * submit() under an Idempotency-Key: within 24 h the same key and request give the key's first
   * job again (`replayed`), a different request is IdempotencyKeyReusedError. A request refused
   * by validation records no key, so the client can fix it and send it again with the same key.
   */
  async submitOnce(companyId: number, request: PlanningRequest, idempotency: IdempotencyKey): Promise<{ job: JobView; replayed: boolean }> {
    const replay = async (jobId: number) => ({ job: (await this.get(companyId, jobId))!, replayed: true });
    const since = new Date(Date.parse(this.stamp()) - IDEMPOTENCY_WINDOW_MS).toISOString();
    const used = await this.store.findIdempotent(companyId, idempotency.key, since);
    if (used) {
      if (used.fingerprint !== idempotency.fingerprint) throw new IdempotencyKeyReusedError();
      return replay(used.jobId);
    }
    try {
      return { job: await this.submit(companyId, request, idempotency), replayed: false };
    } catch (error) {
      // another request with the same key got there first (same fingerprint, or it would be a conflict)
      if (error instanceof IdempotentReplayError) return replay(error.jobId);
      throw error;
    }
  }

  async submit(companyId: number, request: PlanningRequest, idempotency?: IdempotencyKey): Promise<JobView> {
    if (this.closed) throw new JobServiceClosedError();
    const problems: PlanningProblem[] = [];
    const orderIds = distinct(request.order_ids ?? []);
    const externalIds = distinct(request.external_ids ?? []);
    if (orderIds.length === 0 && externalIds.length === 0) problems.push({ kind: 'empty_selection' });

    const resolved = new Set<number>();
    // the selection's size counts what it names but cannot resolve too: 501 ids are too many
    // whether or not they exist, and that is the first thing the client has to fix
    let unresolved = 0;
    if (orderIds.length > 0) {
      const found = new Set((await this.store.getOrdersByIds(companyId, orderIds)).map((o) => o.id));
      const missing = orderIds.filter((id) => !found.has(id)).sort((a, b) => a - b);
      if (missing.length > 0) problems.push({ kind: 'orders_not_found', ids: missing });
      unresolved += missing.length;
      for (const id of found) resolved.add(id);
    }
    if (externalIds.length > 0) {
      const byExternal = new Map<string, PlanningOrder[]>();
      for (const o of await this.store.getOrdersByExternalIds(companyId, externalIds)) {
        const list = byExternal.get(o.externalId!) ?? [];
        list.push(o);
        byExternal.set(o.externalId!, list);
      }
      const missing = externalIds.filter((x) => !byExternal.has(x));
      if (missing.length > 0) problems.push({ kind: 'external_ids_not_found', externalIds: missing });
      unresolved += missing.length;
      // external_id is not unique: a value selects its orders in status new; when none is new,
      // all of them (so the job fails, as for an order already in a route).
      for (const matches of byExternal.values()) {
        const fresh = matches.filter((o) => o.status === 'new');
        for (const o of fresh.length > 0 ? fresh : matches) resolved.add(o.id);
      }
    }
    const selected = resolved.size + unresolved;
    if (selected > MAX_ORDERS_PER_JOB) problems.unshift({ kind: 'too_many_orders', count: selected });

    const vehicleIds = distinct(request.vehicle_ids ?? []).sort((a, b) => a - b);
    if (vehicleIds.length > 0) {
      const usable = new Set((await this.store.getVehiclesByIds(companyId, vehicleIds)).filter((v) => v.active).map((v) => v.id));
      const missing = vehicleIds.filter((id) => !usable.has(id));
      if (missing.length > 0) problems.push({ kind: 'vehicles_not_found', ids: missing });
    }
    const warehouseId = request.warehouse_id ?? null;
    if (warehouseId !== null && (await this.store.getWarehousesByIds(companyId, [warehouseId])).length === 0) {
      problems.push({ kind: 'warehouse_not_found', id: warehouseId });
    }
    if (problems.length > 0) throw new PlanningInputError(problems);

    const cap = this.options.maxJobsPerCompany ?? DEFAULT_MAX_JOBS_PER_COMPANY;
    const job = await this.store.createJob(
      companyId,
      { order_ids: [...resolved].sort((a, b) => a - b), vehicle_ids: vehicleIds, warehouse_id: warehouseId },
      this.stamp(),
      cap > 0 && Number.isFinite(cap) ? cap : undefined,
      idempotency,
    );
    this.pump();
    return toJobView(job);
  }

  /** The job object of 2.2, or undefined when there is no such job for this company. */
  async get(companyId: number, jobId: number): Promise<JobView | undefined> {
    const job = await this.store.getJob(companyId, jobId);
    return job && toJobView(job);
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
    if (this.active === 0 && !this.pumping) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops taking jobs. `drain` (default) waits for the running jobs and leaves queued ones queued
   * in the store; `abandon` aborts running solves, writes no outcome and hands their jobs back
   * (lease ended, still `running`, the attempt not counted) for this or another process to run.
   */
  async close(mode: 'drain' | 'abandon' = 'drain'): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    for (const wake of [...this.wakeOnClose]) wake();
    if (mode === 'abandon') {
      this.abandoned = true;
      for (const c of this.aborts) c.abort();
      const at = this.stamp();
      await Promise.all(
        [...this.held.keys()].map((jobId) =>
          // a store that fails here leaves the lease to run out: the job is taken over then
          Promise.resolve()
            .then(() => this.store.releaseJob(jobId, this.owner, at))
            .catch((error) => this.options.onError?.(error, jobId)),
        ),
      );
      return;
    }
    await this.idle();
  }

  /** Claims jobs while there is room (once at a time; a call meanwhile makes it look again). */
  private pump(): void {
    if (this.options.runJobs === false || this.closed) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.fill().finally(() => {
      this.pumping = false;
      this.settleIdle();
    });
  }

  private async fill(): Promise<void> {
    let faults = 0;
    do {
      this.pumpAgain = false;
      while (!this.closed && this.active < this.concurrency) {
        let job: JobRecord | undefined;
        try {
          job = await this.store.claimJob(this.owner, this.stamp(), this.leaseUntil());
        } catch (error) {
          // a store that fails here (busy, full, gone) leaves the job queued: try again
          this.options.onError?.(error, 0);
          await this.backOff(faults++);
          continue;
        }
        if (!job) break;
        this.active++;
        const claimed = job;
        void this.runJob(claimed)
          .catch((error) => this.options.onError?.(error, claimed.id))
          .finally(() => {
            this.active--;
            this.pump();
            this.settleIdle();
          });
      }
    } while (this.pumpAgain && !this.closed);
  }

  private settleIdle(): void {
    if (this.active !== 0 || this.pumping) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private leaseUntil(): string {
    return new Date(Date.parse(this.stamp()) + this.leaseMs).toISOString();
  }

  /** Runs a claimed job under its lease: renewed every third of its length; lost, the work stops. */
  private async runJob(job: JobRecord): Promise<void> {
    const lease = new AbortController();
    this.held.set(job.id, lease);
    const renew = setInterval(() => {
      void Promise.resolve()
        .then(() => this.store.renewLease(job.id, this.owner, this.leaseUntil()))
        .then(
          (still) => {
            if (!still) lease.abort(new LeaseLostError(job.id));
          },
          // a storage fault: the next renewal tries again (the lease is three renewals long)
          (error) => this.options.onError?.(error, job.id),
        );
    }, Math.floor(this.leaseMs / 3));
    renew.unref();
    try {
      let finished: JobRecord | undefined;
      try {
        const attempts = job.attempts ?? 1;
        if (attempts > MAX_JOB_ATTEMPTS) {
          throw new JobFailure(
            `The planning was interrupted ${attempts - 1} times (the process running it stopped each time) and was not tried again. Nothing was planned.`,
          );
        }
        finished = await this.plan(job, lease.signal);
      } catch (error) {
        if (this.abandoned) return;
        if (error instanceof LeaseLostError || lease.signal.aborted) {
          this.options.onLeaseLost?.(job.id);
          return;
        }
        this.options.onJobFailed?.(error, job.id);
        const text = this.describe(error);
        try {
          finished = await this.storeWrite(() => this.store.updateJob(job.id, { status: 'failed', error: text }, this.stamp(), this.owner), job.id);
        } catch (lost) {
          if (!(lost instanceof LeaseLostError)) throw lost;
          this.options.onLeaseLost?.(job.id);
          return;
        }
      }
      if (finished) this.events.emit('planning_job.finished', finished.companyId, toJobView(finished), finished.updatedAt);
    } finally {
      clearInterval(renew);
      this.held.delete(job.id);
    }
  }

  /**
   * A store write that must happen: a storage fault (anything but the store's own refusals) is
   * retried with growing delays, 0.1 s doubling to 30 s, for as long as the service runs. After
   * close() it gives up (undefined): the job stays queued or running in the store and runs again
   * on the next start.
   */
  private async storeWrite<T>(write: () => T | Promise<T>, jobId: number): Promise<T | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (isRefusal(error) || this.closed) throw error;
        this.options.onError?.(error, jobId);
        await this.backOff(attempt);
        if (this.closed) return undefined;
      }
    }
  }

  private backOff(attempt: number): Promise<void> {
    const ms = Math.min(30_000, (this.options.storeRetryBaseMs ?? 100) * 2 ** Math.min(attempt, 20));
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeOnClose.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeOnClose.add(wake);
    });
  }

  /** Plans every delivery date of the job and commits; returns the done job. */
  private async plan(job: JobRecord, lease: AbortSignal): Promise<JobRecord> {
    const retries = this.options.commitRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const { routes, unassigned } = await this.compute(job, lease);
      if (this.abandoned) throw new JobServiceClosedError();
      if (lease.aborted) throw new LeaseLostError(job.id);
      try {
        // the plan is kept through storage faults: only a vehicle taken meanwhile plans again
        const committed = await this.storeWrite(() => {
          const at = this.stamp();
          return Promise.resolve(this.store.commitPlan({ jobId: job.id, companyId: job.companyId, at, routes, unassigned, owner: this.owner })).then((c) => ({
            ...c,
            at,
          }));
        }, job.id);
        if (!committed) throw new JobServiceClosedError();
        for (const change of committed.changes) this.events.emit('order.status_changed', job.companyId, change, committed.at);
        return committed.job;
      } catch (error) {
        if (error instanceof VehicleBusyError && attempt < retries) continue;
        throw error;
      }
    }
  }

  private async compute(job: JobRecord, lease: AbortSignal): Promise<{ routes: NewRoute[]; unassigned: Array<{ order_id: number; reason: UnassignedReason }> }> {
    const { companyId, input } = job;
    const company = await this.store.getCompany(companyId);
    if (!company) throw new JobFailure(`Company ${companyId} no longer exists. Nothing was planned.`);
    const orders = await this.store.getOrdersByIds(companyId, input.order_ids);
    const present = new Set(orders.map((o) => o.id));
    const gone = input.order_ids.filter((id) => !present.has(id));
    if (gone.length > 0) throw new JobFailure(`Orders no longer exist: [${gone.join(', ')}]. Nothing was planned.`);
    const notNew = orders.filter((o) => o.status !== 'new');
    if (notNew.length > 0) throw new OrdersNotNewError(notNew.map((o) => ({ id: o.id, status: o.status })).sort((a, b) => a.id - b.id));

    // Orders without coordinates are dropped: neither routed nor unassigned.
    const byDate = new Map<string, PlanningOrder[]>();
    for (const o of orders) {
      if (o.lat === null || o.lon === null) continue;
      const list = byDate.get(o.deliveryDate) ?? [];
      list.push(o);
      byDate.set(o.deliveryDate, list);
    }
    const active = (await this.store.listActiveVehicles(companyId)).sort((a, b) => a.id - b.id);
    const pinned = input.vehicle_ids.length === 1 ? input.vehicle_ids[0] : null;
    const override = input.warehouse_id;
    const warehouses = new Map<number, Warehouse>();
    const wanted = override !== null ? [override] : distinct(active.map((v) => v.warehouseId));
    for (const w of await this.store.getWarehousesByIds(companyId, wanted)) warehouses.set(w.id, w);
    if (override !== null && !warehouses.has(override)) throw new JobFailure(`Warehouse ${override} no longer exists. Nothing was planned.`);

    const dates = [...byDate.keys()].sort();
    const plans = [];
    for (const date of dates) {
      const busy = new Set(await this.store.vehicleIdsWithRouteOn(companyId, date));
      const free = active.filter(
        (v) => !busy.has(v.id) && (pinned === null || v.id === pinned) && warehouses.has(override ?? v.warehouseId),
      );
      plans.push({ date, orders: byDate.get(date)!.sort((a, b) => a.id - b.id), free });
    }
    const planned = plans.filter((p) => p.free.length > 0).reduce((n, p) => n + p.orders.length, 0);
    const budget = this.budgetSec ?? defaultBudgetSec(planned);
    const routes: NewRoute[] = [];
    const unassigned: Array<{ order_id: number; reason: UnassignedReason }> = [];
    const matrixDeadline = AbortSignal.any([AbortSignal.timeout(this.options.matrixDeadlineMs ?? 120_000), lease]);
    for (const { date, orders: dayOrders, free } of plans) {
      if (free.length === 0) {
        for (const o of dayOrders) unassigned.push({ order_id: o.id, reason: 'no_vehicle' });
        continue;
      }
      const { problem: partial, context } = buildProblem({
        jobId: job.id,
        companyId,
        timeZone: company.timezone,
        date,
        orders: dayOrders,
        vehicles: free,
        warehouses,
        warehouseOverride: override,
      });
      let matrix;
      try {
        matrix = await this.matrix(context.points, matrixDeadline);
      } catch (error) {
        // the tenant reads why, never where: the provider's address and answer go to the log
        const reason = error instanceof MatrixProviderError ? error.reason : 'the road-matrix service failed';
        throw new JobFailure(`The road matrix could not be obtained (${reason}). Nothing was planned.`, { cause: error });
      }
      // a road matrix says where its locations are, so that a large day can still be cut for the
      // threads that plan it together (solver/cooperate.ts); costs and times stay the matrix's
      if (matrix.kind === 'explicit' && matrix.coordinates === undefined && matrix.distance.length === context.points.length)
        matrix = { ...matrix, coordinates: context.points };
      // the company's speed factor (a dense centre, a rural area, or what its drivers' days showed)
      matrix = scaleTravelTimes(matrix, company.speedFactor ?? 1);
      const problem: ProblemInput = { ...partial, matrix };
      const result = await this.solve(problem, (budget * dayOrders.length) / planned, budget, lease);
      if (lease.aborted) throw new LeaseLostError(job.id);
      this.options.onSolved?.({ jobId: job.id, date, problem, result });
      const day = toRoutes(result, context);
      routes.push(...day.routes);
      unassigned.push(...day.unassigned);
    }
    unassigned.sort((a, b) => a.order_id - b.order_id);
    return { routes, unassigned };
  }

  /**
   * Solves one date: `seedsPerSolve` seeds in parallel when set. Otherwise, when a second pool
   * thread is idle at the start and the day is large enough (solver/cooperate.ts: 400 orders and
   * more, a budget of at least two sector epochs), the two threads cooperate on one search: both
   * on the whole day first, then each on its own sector of the routes, in turns; the second
   * thread's tasks give way to another job as a spare seed does, and the solve goes on alone.
   * Otherwise one seed, joined by a spare seed on each pool thread idle at the start. The best
   * answer wins: fewest unassigned orders, then least distance, then the lowest seed. A spare that
   * fails or is stopped early only drops out of the comparison.
   */
  private async solve(problem: ProblemInput, timeLimit: number, jobBudget: number, lease: AbortSignal): Promise<SolveResult> {
    const first = this.options.seed ?? 1;
    const fixed = this.options.seedsPerSolve;
    const share = this.shareMatrix(problem);
    let results: SolveResult[];
    if (fixed !== undefined) {
      const count = Math.max(1, Math.floor(fixed));
      results = await Promise.all(Array.from({ length: count }, (_, i) => this.solveOnce(share.task(i), { timeLimit, seed: first + i }, jobBudget, lease)));
    } else {
      this.makeRoom();
      const idle = this.pool.size - this.threadsHeld();
      const objective = this.options.objective === undefined ? {} : { objective: this.options.objective };
      // an explicit matrix cooperates only in shared memory: its rows would be cloned for every epoch
      const shareable = share.shared || problem.matrix.kind !== 'explicit';
      if (idle >= 2 && !this.pumpAgain && shareable && cooperates(problem, objective, 2, timeLimit)) {
        let task = 0;
        const runner: CoopRunner = {
          // this solve holds no thread between its epochs
          free: () => (this.pumpAgain ? 1 : this.pool.size - this.threadsHeld()),
          run: (taskProblem, options, main) => {
            const work = taskProblem === problem ? share.task(task++) : share.part(taskProblem, task++);
            return main ? this.solveOnce(work, options, jobBudget, lease) : this.solveSpare(work, options, jobBudget, lease);
          },
        };
        return cooperate(problem, { timeLimit, seed: first, ...objective }, runner);
      }
      const main = this.solveOnce(share.task(0), { timeLimit, seed: first }, jobBudget, lease);
      const spares: Array<Promise<SolveResult | null>> = [];
      // counted again: the main search now holds a thread
      const free = this.pool.size - this.threadsHeld();
      for (let i = 0; i < free && !this.pumpAgain; i++) spares.push(this.solveSpare(share.task(i + 1), { timeLimit, seed: first + 1 + i }, jobBudget, lease));
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
   * The tasks of one date's solve share one matrix (model/shared-matrix.ts): here only the buffers
   * are allocated, the first task to start builds it on its thread. Task 0 carries the whole
   * problem; the others leave an explicit matrix out (a road matrix of 1000 locations is two
   * million numbers to clone for each thread), so only task 0 can build it and they wait for it.
   */
  private shareMatrix(problem: ProblemInput): {
    shared: boolean;
    task(i: number): Pick<SolveTask, 'problem' | 'matrix'>;
    part(part: ProblemInput, i: number): Pick<SolveTask, 'problem' | 'matrix'>;
  } {
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

  /** Threads this service's tasks hold or wait for; a spare asked to stop counts as gone. */
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
      Atomics.store(spare.flag, 0, 1);
      // a solve that does not stop on its flag loses its thread
      setTimeout(() => {
        if (this.spares.has(spare)) spare.controller.abort();
      }, this.options.spareStopGraceMs ?? SPARE_STOP_GRACE_MS).unref();
      return;
    }
  }

  private async solveSpare(work: Pick<SolveTask, 'problem' | 'matrix'>, options: SolveOptions, jobBudget: number, lease: AbortSignal): Promise<SolveResult | null> {
    const spare: Spare = { flag: new Int32Array(new SharedArrayBuffer(4)), controller: new AbortController() };
    this.spares.add(spare);
    try {
      return await this.solveOnce(work, options, jobBudget, lease, spare);
    } catch {
      return null;
    } finally {
      this.spares.delete(spare);
    }
  }

  private async solveOnce(work: Pick<SolveTask, 'problem' | 'matrix'>, solveOptions: SolveOptions, jobBudget: number, lease: AbortSignal, spare?: Spare): Promise<SolveResult> {
    // after close('abandon') no new solve starts (it would hold a thread nobody waits for)
    if (this.abandoned) throw new JobServiceClosedError();
    if (lease.aborted) throw new LeaseLostError(0);
    const controller = spare?.controller ?? new AbortController();
    const stop = () => controller.abort();
    lease.addEventListener('abort', stop, { once: true });
    this.aborts.add(controller);
    this.tasks++;
    const timer = setTimeout(() => controller.abort(), ((solveOptions.timeLimit ?? 0) + this.graceSec) * 1000);
    try {
      const options: SolveOptions = { ...solveOptions };
      if (this.options.objective) options.objective = this.options.objective;
      const task: SolveTask = { ...work, options };
      if (spare) task.stop = spare.flag.buffer as SharedArrayBuffer;
      return await this.pool.run(task, { signal: controller.signal });
    } catch (error) {
      if (error instanceof PoolTaskError && error.kind === 'aborted' && !spare) {
        throw new JobFailure(
          `The planning did not finish within its time budget (${Number(jobBudget.toFixed(3))} s plus ${this.graceSec} s grace) and was stopped. Nothing was planned.`,
        );
      }
      throw error;
    } finally {
      // the pool marks a build this task left unfinished; a runner that is not a SolverPool may not
      if (work.matrix !== undefined) settleSharedTask(work.matrix);
      this.tasks--;
      clearTimeout(timer);
      lease.removeEventListener('abort', stop);
      this.aborts.delete(controller);
    }
  }

  /** The readable text of a job's `error`. */
  private describe(error: unknown): string {
    if (error instanceof JobFailure) return error.message;
    if (error instanceof OrdersNotNewError) {
      const list = error.orders.map((o) => `${o.id} (${o.status})`).join(', ');
      return `Only orders in status new can be planned; these are not (already in a route or closed): ${list}. Nothing was planned.`;
    }
    if (error instanceof VehicleBusyError) return 'Other planning jobs kept taking the vehicles of this job; nothing was planned. Start the job again.';
    if (error instanceof PoolTaskError) {
      switch (error.kind) {
        case 'aborted':
          return `The planning was stopped. Nothing was planned.`;
        case 'out_of_memory':
          return 'The planning worker ran out of memory and was stopped. Nothing was planned; try fewer orders per job.';
        case 'crashed':
          return `The planning worker crashed (${error.message}). Nothing was planned.`;
        case 'failed':
          return `The planning failed: ${error.message}. Nothing was planned.`;
      }
    }
    return `The planning failed: ${(error as Error)?.message ?? String(error)}. Nothing was planned.`;
  }

  private stamp(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}

/** The store's own answers (not faults): retrying the same write cannot change them. */
function isRefusal(error: unknown): boolean {
  return error instanceof VehicleBusyError || error instanceof OrdersNotNewError || error instanceof TooManyJobsError || error instanceof LeaseLostError;
}

function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}
