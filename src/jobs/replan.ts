/**
 * Running a re-plan job (operations.md "Re-planning a day"): read the date's planned and active
 * routes, the vehicles' last positions and the new orders; build the day in progress
 * (src/jobs/day.ts); solve it on the scheduler (warm-started from the routes as they are: the
 * kept orders in route order); commit through src/jobs/commit.ts `commitReplan`, fenced on the
 * stops as read. A stop status written meanwhile (or a route started, closed or added) makes the
 * job read the day again and compute again, at most `commitRetries` times, then fail with a
 * readable error; a new order changed meanwhile likewise.
 */
import type { ProblemInput, SolveResult } from '../model/input.js';
import { buildProblem as buildEngineProblem, costModel } from '../model/problem.js';
import { SearchSolution } from '../route/search-solution.js';
import { exportRoutes } from '../solver/result.js';
import { MatrixProviderError } from '../matrix/osrm.js';
import { scaleTravelTimes } from '../model/travel-time.js';
import { commitReplan } from './commit.js';
import { buildDayProblem, KeptOrderDroppedError, toDayOutcome, type DayOutcome, type KeptMoveRule } from './day.js';
import { JobFailure, JobServiceClosedError } from './errors.js';
import type { DatePlannerOptions, JobRun } from './plan-date.js';
import { LeaseLostError, OrdersChangedError, StopsChangedError, VehicleBusyError, type DayRoute, type JobRecord, type Warehouse } from './ports.js';
import { SolveOverrunError } from '../pool/scheduler.js';

/** What a kept order moved to another van costs, in metres of the distance objective (bench/replan.ts). */
export const KEPT_MOVE_COST_M = 200;

/**
 * The share of it each kept order pays (src/jobs/day.ts KeptMoveRule; docs/day.md): none on a van
 * that has not left (its parcels are not loaded), all of it on the stops a van out does in the
 * next 2 hours, none on its later ones (bench/RESULTS.md, issue 39 session 30).
 */
export const KEPT_MOVE_RULE: KeptMoveRule = { notStarted: 0, horizonSec: 2 * 3600, beyond: 0 };

/** The solver budget of a re-plan: 0.5 s plus 2 ms an order, at most 1.5 s (issue 39: a re-plan of 500 orders answers within 2 s, p50). */
export function replanBudgetSec(orders: number): number {
  return Math.min(1.5, 0.5 + 0.002 * orders);
}

type Computed = DayOutcome & { read: DayRoute[]; versions: Record<number, number> };

export class DayReplanner {
  constructor(private readonly options: DatePlannerOptions) {}

  async planJob(job: JobRecord, run: JobRun): Promise<JobRecord> {
    const retries = this.options.commitRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const plan = await this.compute(job, run.lease);
      if (run.abandoned()) throw new JobServiceClosedError();
      if (run.lease.aborted) throw new LeaseLostError(job.id);
      try {
        const committed = await run.write(() => {
          const at = this.options.stamp();
          return commitReplan(this.options.store, {
            jobId: job.id,
            companyId: job.companyId,
            at,
            owner: run.owner,
            date: job.input.replan!.date,
            read: plan.read,
            rewrites: plan.rewrites,
            changed: plan.changed,
            newRoutes: plan.newRoutes,
            placed: plan.placed,
            versions: plan.versions,
            backToNew: plan.backToNew,
            unassigned: plan.unassigned,
          }).then((c) => ({ ...c, at }));
        });
        if (!committed) throw new JobServiceClosedError();
        for (const change of committed.changes) this.options.events.emit('order.status_changed', job.companyId, change, committed.at);
        return committed.job;
      } catch (error) {
        if (error instanceof StopsChangedError || error instanceof VehicleBusyError || error instanceof OrdersChangedError) {
          if (attempt < retries) continue;
          if (error instanceof StopsChangedError) {
            throw new JobFailure(
              `Stops kept changing while the day was being re-planned (${error.stopIds.length > 0 ? `stops ${error.stopIds.join(', ')}` : 'routes started, closed or added'}); their new status stands. Nothing was changed. Start the re-plan again.`,
            );
          }
        }
        throw error;
      }
    }
  }

  private async compute(job: JobRecord, lease: AbortSignal): Promise<Computed> {
    const store = this.options.store;
    const { companyId } = job;
    const { date, unavailable } = job.input.replan!;
    const company = await store.getCompany(companyId);
    if (!company) throw new JobFailure(`Company ${companyId} no longer exists. Nothing was changed.`);
    const now = this.options.stamp();
    const routes = await store.openRoutesOn(companyId, date);
    // named new orders, else every new order of the date (a van out of service moves its stops only)
    const freshIds = job.input.order_ids.length > 0 ? job.input.order_ids : unavailable ? [] : await store.newOrderIdsOn(companyId, date);
    const stopOrderIds = routes.flatMap((r) => r.stops.filter((s) => s.orderId !== null).map((s) => s.orderId!));
    const loaded = await store.getOrdersByIds(companyId, [...new Set([...freshIds, ...stopOrderIds])]);
    const orders = new Map(loaded.map((o) => [o.id, o]));
    // the new orders: still new, of the date, with coordinates (else neither placed nor unassigned)
    const fresh = freshIds
      .map((id) => orders.get(id))
      .filter((o) => o !== undefined && o.status === 'new' && o.deliveryDate === date && o.lat !== null && o.lon !== null)
      .map((o) => o!);
    const active = (await store.listActiveVehicles(companyId)).sort((a, b) => a.id - b.id);
    const busy = new Set(await store.vehicleIdsWithRouteOn(companyId, date));
    const warehouseIds = [...new Set([...active.map((v) => v.warehouseId), ...routes.flatMap((r) => r.stops.filter((s) => s.warehouseId !== null).map((s) => s.warehouseId!))])];
    const warehouses = new Map<number, Warehouse>((await store.getWarehousesByIds(companyId, warehouseIds)).map((w) => [w.id, w]));
    const routeVehicles = routes.map((r) => r.vehicleId).filter((v): v is number => v !== null);
    const notAfter = new Date(Date.parse(now) + 5 * 60_000).toISOString();
    const positions = await store.lastPositions(companyId, routeVehicles, notAfter);
    const { problem: partial, context } = buildDayProblem({
      jobId: job.id,
      companyId,
      timeZone: company.timezone,
      date,
      now,
      routes,
      vehicles: active.filter((v) => warehouses.has(v.warehouseId)),
      busy,
      // a van out of service moves its stops to the date's other routes, opening none
      ...(unavailable ? { allowFree: new Set<number>() } : job.input.vehicle_ids.length > 0 ? { allowFree: new Set(job.input.vehicle_ids) } : {}),
      warehouses,
      positions,
      orders,
      fresh,
      ...(unavailable ? { unavailable: { vehicleId: unavailable.vehicle_id, from: unavailable.from } } : {}),
      keptMoveCost: KEPT_MOVE_COST_M,
      keptMoveRule: KEPT_MOVE_RULE,
    });
    const versions = Object.fromEntries(fresh.map((o) => [o.id, o.version ?? 0]));
    if (partial.vehicles.length === 0 || partial.orders.length === 0) {
      // nothing to plan: the routes are written as they are (an unavailable van's stops go back)
      const result: SolveResult = {
        routes: [],
        distance: 0,
        duration: 0,
        vehicles: 0,
        unassigned: partial.orders.map((o) => ({ orderId: o.id, reason: 'no_vehicle' as const })),
        stats: { elapsedMs: 0, iterations: 0 },
      };
      return { ...this.outcome(result, context), read: routes, versions };
    }
    let matrix;
    try {
      matrix = await this.options.matrix(context.points, AbortSignal.any([AbortSignal.timeout(this.options.matrixDeadlineMs ?? 120_000), lease]));
    } catch (error) {
      const reason = error instanceof MatrixProviderError ? error.reason : 'the road-matrix service failed';
      throw new JobFailure(`The road matrix could not be obtained (${reason}). Nothing was changed.`, { cause: error });
    }
    matrix = scaleTravelTimes(matrix, company.speedFactor ?? 1);
    const problem = relaxLateKept({ ...partial, matrix });
    const budget = this.options.timeBudgetSec ?? replanBudgetSec(problem.orders.length);
    const run = async (p: typeof problem, seconds: number): Promise<SolveResult> => {
      try {
        const r = await this.options.scheduler.solve(p, seconds, lease);
        if (lease.aborted) throw new LeaseLostError(job.id);
        this.options.onSolved?.({ jobId: job.id, date, problem: p, result: r });
        return r;
      } catch (error) {
        if (!(error instanceof SolveOverrunError)) throw error;
        throw new JobFailure(`The re-plan did not finish within its time budget (${seconds} s plus ${error.graceSec} s grace) and was stopped. Nothing was changed.`);
      }
    };
    let result = await run(problem, budget);
    // A stop on a route now is never dropped: one that fits nowhere in time any more (the van is
    // late for its window) is planned again without its window, late rather than left out.
    const late = new Set(result.unassigned.map((u) => Number(u.orderId)).filter((id) => context.pendingStop.has(id) && !context.displaced.has(id)).map(String));
    if (late.size > 0) {
      const relaxed = { ...problem, orders: problem.orders.map(({ timeWindow, ...o }) => (late.has(o.id) || timeWindow === undefined ? o : { ...o, timeWindow })) };
      result = await run(relaxed, Math.max(0.2, budget / 2));
    }
    return { ...this.outcome(result, context), read: routes, versions };
  }

  private outcome(result: SolveResult, context: Parameters<typeof toDayOutcome>[1]): DayOutcome {
    try {
      return toDayOutcome(result, context);
    } catch (error) {
      if (error instanceof KeptOrderDroppedError) throw new JobFailure(error.message, { cause: error });
      throw error;
    }
  }
}

/**
 * A van a little behind its plan (it left late, the road took longer) can no longer make some
 * windows of its kept stops: served late, they would make its whole route infeasible as a warm
 * start, and the engine would drop the route and rebuild it from nothing. So each van's kept stops
 * are timed in their order from where and when the van is now (the engine's own evaluation), and
 * the stops that would be served after their window closes lose their window: late rather than
 * moved or dropped. Repeated while one more turns up (at most 3 rounds).
 */
export function relaxLateKept(problem: ProblemInput): ProblemInput {
  let current = problem;
  for (let round = 0; round < 3; round++) {
    const p = buildEngineProblem(current);
    const sol = new SearchSolution(p, costModel(p, 'distance'));
    const index = new Map(p.orderIds.map((id, i) => [id, i]));
    const keptOf = new Map<string, number[]>();
    for (const o of current.orders) if (o.currentVehicle !== undefined) keptOf.set(o.currentVehicle, [...(keptOf.get(o.currentVehicle) ?? []), index.get(o.id)!]);
    let infeasible = false;
    for (let v = 0; v < p.nVehicles; v++) {
      const kept = keptOf.get(p.vehicleIds[v]);
      if (!kept) continue;
      sol.setRoute(sol.routes[v], kept);
      if (!sol.routes[v].feasible()) infeasible = true;
    }
    if (!infeasible) return current;
    const windows = new Map(current.orders.map((o) => [o.id, o.timeWindow]));
    const late = new Set<string>();
    for (const r of exportRoutes(p, sol)) {
      for (const s of r.stops.slice(r.fixed ?? 0)) {
        const w = windows.get(s.orderId);
        if (w && s.start > w[1] + 1e-6) late.add(s.orderId);
      }
    }
    if (late.size === 0) return current;
    current = { ...current, orders: current.orders.map(({ timeWindow, ...o }) => (late.has(o.id) || timeWindow === undefined ? o : { ...o, timeWindow })) };
  }
  return current;
}
