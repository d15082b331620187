/**
 * Planning a claimed job: load what it selected (company, orders, vehicles, warehouses), plan
 * each delivery date (build its problem, get its road matrix, solve it on the scheduler, turn the
 * result into routes), then commit all dates at once (routes, stops, orders in_route and the job
 * `done` in one transaction: src/jobs/commit.ts checks the lease, that every order is unchanged
 * since it was read, and that the vehicles are free). The job's time budget is shared by its dates
 * in proportion to their orders. A vehicle taken or an order changed meanwhile plans again.
 */
import type { ProblemInput, SolveResult, UnassignedReason } from '../model/input.js';
import { MatrixProviderError } from '../matrix/osrm.js';
import { scaleTravelTimes } from '../model/travel-time.js';
import { commitPlan } from './commit.js';
import { JobFailure, JobServiceClosedError } from './errors.js';
import type { EventBus } from './events.js';
import { distinct } from './intake.js';
import { LeaseLostError, OrdersChangedError, OrdersNotNewError, VehicleBusyError, type Company, type JobRecord, type NewRoute, type PlanningOrder, type PlanningStore, type PlanningVehicle, type Warehouse } from './ports.js';
import { buildProblem, toRoutes, type MatrixProvider } from './problem.js';
import { SolveOverrunError, type SolveScheduler } from '../pool/scheduler.js';
import { DayReplanner } from './replan.js';
import { warmWithWholeShifts, withShiftReserve } from './day.js';

/**
 * The default solver budget of a job: 1 s plus 7 ms an order, at most 4.5 s. Small jobs come back
 * fast (41 orders: 1.3 s; Solomon's 100 orders are within 0.3 % of their best known at 1 s), and a
 * 500-order job gets 4.5 s, which keeps its job time under 5 s (the 500-order city: p50 4.5 s).
 */
export function defaultBudgetSec(orders: number): number {
  return Math.min(4.5, 1 + 0.007 * orders);
}

export interface DatePlannerOptions {
  store: PlanningStore;
  scheduler: SolveScheduler;
  matrix: MatrixProvider;
  events: EventBus;
  /** Solver budget of one job, s (default: `defaultBudgetSec` of its order count). */
  timeBudgetSec?: number;
  /** Room kept at the end of each van's shift for orders that come during the day, s (default 0; src/jobs/day.ts withShiftReserve). */
  shiftReserveSec?: number;
  /** Deadline for all road-matrix calls of one job, ms (default 120 000). */
  matrixDeadlineMs?: number;
  /** Planning again after another job took a vehicle meanwhile (default 3). */
  commitRetries?: number;
  stamp: () => string;
  onSolved?: (info: { jobId: number; date: string; problem: ProblemInput; result: SolveResult }) => void;
}

/** What the runner lends a job while it holds its lease. */
export interface JobRun {
  /** Aborts when the lease is lost. */
  lease: AbortSignal;
  /** The lease holder's name. */
  owner: string;
  /** A store write retried through storage faults; undefined once the service closed. */
  write<T>(write: () => T | Promise<T>): Promise<T | undefined>;
  /** True once the service gave its running jobs back (close('abandon')). */
  abandoned(): boolean;
}

type Plan = {
  routes: NewRoute[];
  unassigned: Array<{ order_id: number; reason: UnassignedReason }>;
  /** Each order's version when the job read it: the commit places only orders unchanged since. */
  versions: Record<number, number>;
};

/** One delivery date to plan: its orders (by id) and the vehicles free that day. */
interface DateWork {
  date: string;
  orders: PlanningOrder[];
  free: PlanningVehicle[];
}

export class DatePlanner {
  private readonly replanner: DayReplanner;

  constructor(private readonly options: DatePlannerOptions) {
    this.replanner = new DayReplanner(options);
  }

  /** Plans every delivery date of the job and commits; returns the done job. A re-plan job
   *  (dispatch API) re-plans its date (src/jobs/replan.ts). */
  async planJob(job: JobRecord, run: JobRun): Promise<JobRecord> {
    if (job.input.replan) return this.replanner.planJob(job, run);
    const retries = this.options.commitRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const plan = await this.compute(job, run.lease);
      if (run.abandoned()) throw new JobServiceClosedError();
      if (run.lease.aborted) throw new LeaseLostError(job.id);
      try {
        return await this.commit(job, plan, run);
      } catch (error) {
        if ((error instanceof VehicleBusyError || error instanceof OrdersChangedError) && attempt < retries) continue;
        throw error;
      }
    }
  }

  /**
   * The plan kept through storage faults: only a vehicle taken or an order changed meanwhile plans
   * again (from the fresh data; at most commitRetries times).
   */
  private async commit(job: JobRecord, { routes, unassigned, versions }: Plan, run: JobRun): Promise<JobRecord> {
    const store = this.options.store;
    const committed = await run.write(() => {
      const at = this.options.stamp();
      return commitPlan(store, { jobId: job.id, companyId: job.companyId, at, routes, unassigned, owner: run.owner, versions }).then((c) => ({ ...c, at }));
    });
    if (!committed) throw new JobServiceClosedError();
    for (const change of committed.changes) this.options.events.emit('order.status_changed', job.companyId, change, committed.at);
    return committed.job;
  }

  private async compute(job: JobRecord, lease: AbortSignal): Promise<Plan> {
    const { companyId, input } = job;
    const store = this.options.store;
    const company = await store.getCompany(companyId);
    if (!company) throw new JobFailure(`Company ${companyId} no longer exists. Nothing was planned.`);
    const orders = await store.getOrdersByIds(companyId, input.order_ids);
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
    const active = (await store.listActiveVehicles(companyId)).sort((a, b) => a.id - b.id);
    const pinned = input.vehicle_ids.length === 1 ? input.vehicle_ids[0] : null;
    const override = input.warehouse_id;
    const warehouses = new Map<number, Warehouse>();
    const wanted = override !== null ? [override] : distinct(active.map((v) => v.warehouseId));
    for (const w of await store.getWarehousesByIds(companyId, wanted)) warehouses.set(w.id, w);
    if (override !== null && !warehouses.has(override)) throw new JobFailure(`Warehouse ${override} no longer exists. Nothing was planned.`);

    const plans: DateWork[] = [];
    for (const date of [...byDate.keys()].sort()) {
      const busy = new Set(await store.vehicleIdsWithRouteOn(companyId, date));
      const free = active.filter((v) => !busy.has(v.id) && (pinned === null || v.id === pinned) && warehouses.has(override ?? v.warehouseId));
      plans.push({ date, orders: byDate.get(date)!.sort((a, b) => a.id - b.id), free });
    }
    const planned = plans.filter((p) => p.free.length > 0).reduce((n, p) => n + p.orders.length, 0);
    const budget = this.options.timeBudgetSec ?? defaultBudgetSec(planned);
    const routes: NewRoute[] = [];
    const unassigned: Plan['unassigned'] = [];
    const matrixDeadline = AbortSignal.any([AbortSignal.timeout(this.options.matrixDeadlineMs ?? 120_000), lease]);
    for (const work of plans) {
      if (work.free.length === 0) {
        for (const o of work.orders) unassigned.push({ order_id: o.id, reason: 'no_vehicle' });
        continue;
      }
      const day = await this.planDate(job, company, work, warehouses, {
        timeLimit: (budget * work.orders.length) / planned,
        budget,
        matrixDeadline,
        lease,
      });
      routes.push(...day.routes);
      unassigned.push(...day.unassigned);
    }
    unassigned.sort((a, b) => a.order_id - b.order_id);
    return { routes, unassigned, versions: Object.fromEntries(orders.map((o) => [o.id, o.version ?? 0])) };
  }

  /** One delivery date: its problem, its road matrix, its solve, its routes. */
  private async planDate(
    job: JobRecord,
    { timezone: timeZone, speedFactor = 1 }: Company,
    { date, orders, free }: DateWork,
    warehouses: Map<number, Warehouse>,
    limits: { timeLimit: number; budget: number; matrixDeadline: AbortSignal; lease: AbortSignal },
  ): Promise<Omit<Plan, 'versions'>> {
    const { problem: partial, context } = buildProblem({
      jobId: job.id,
      companyId: job.companyId,
      timeZone,
      date,
      orders,
      vehicles: free,
      warehouses,
      warehouseOverride: job.input.warehouse_id,
    });
    let matrix;
    try {
      matrix = await this.options.matrix(context.points, limits.matrixDeadline);
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
    matrix = scaleTravelTimes(matrix, speedFactor);
    const problem: ProblemInput = { ...partial, matrix };
    let result: SolveResult;
    const reserve = this.options.shiftReserveSec ?? 0;
    try {
      result = await this.options.scheduler.solve(withShiftReserve(problem, reserve), limits.timeLimit, limits.lease);
      // orders that fit only in the shifts' reserve are planned with the whole shifts
      if (reserve > 0 && result.unassigned.some((u) => u.reason === 'time_window' || u.reason === 'max_duration'))
        result = await this.options.scheduler.solve(warmWithWholeShifts(problem, result), Math.max(0.2, limits.timeLimit / 2), limits.lease);
    } catch (error) {
      if (!(error instanceof SolveOverrunError)) throw error;
      throw new JobFailure(
        `The planning did not finish within its time budget (${Number(limits.budget.toFixed(3))} s plus ${error.graceSec} s grace) and was stopped. Nothing was planned.`,
      );
    }
    if (limits.lease.aborted) throw new LeaseLostError(job.id);
    this.options.onSolved?.({ jobId: job.id, date, problem, result });
    return toRoutes(result, context);
  }
}
