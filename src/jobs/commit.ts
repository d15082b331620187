/**
 * Committing a plan: the rules, written once for every store. In one transaction of the store
 * (PlanningDataStore.commitTransaction), over its narrow primitives (PlanCommitTx):
 *
 * 1. the lease is held: the job is still `running` under `plan.owner` (without an owner, only a
 *    job already done or failed is refused): else LeaseLostError;
 * 2. every placed order is still `new` (else OrdersNotNewError) and unchanged since the job read
 *    it: its version is the one in `plan.versions` (else OrdersChangedError, naming the orders);
 * 3. no route's vehicle has a route on its date yet: else VehicleBusyError;
 * then the routes and stops are written, the orders go in_route with history, the job is done,
 * and the webhooks of those changes are written to the outbox in the same transaction.
 * On any refusal nothing is written.
 *
 * Why a version and not "still new": an order stays `new` while its client edits it, so a job that
 * read it before an edit would otherwise place the old address, coordinates and weight (issue 41).
 */
import { toJobView } from './view.js';
import {
  LeaseLostError,
  OrdersChangedError,
  OrdersNotNewError,
  VehicleBusyError,
  type JobRecord,
  type JobResult,
  type OrderStatus,
  type OrderStatusChange,
  type PlanCommit,
  type PlanningDataStore,
} from './ports.js';

export async function commitPlan(
  store: Pick<PlanningDataStore, 'commitTransaction'>,
  plan: PlanCommit,
): Promise<{ job: JobRecord; changes: OrderStatusChange[] }> {
  return store.commitTransaction(async (tx) => {
    const held = await tx.jobLease(plan.jobId);
    if (!held) throw new Error(`Planning job ${plan.jobId} does not exist.`);
    if (held.status === 'done' || held.status === 'failed' || (plan.owner !== undefined && (held.status !== 'running' || held.owner !== plan.owner))) {
      throw new LeaseLostError(plan.jobId);
    }
    await tx.lockRoutes(plan.companyId);

    const orderIds = plan.routes.flatMap((r) => r.stops.filter((s) => s.orderId !== null).map((s) => s.orderId!));
    const byId = new Map((await tx.ordersAtCommit(plan.companyId, orderIds)).map((o) => [o.id, o]));
    const notNew = orderIds
      .map((id) => ({ id, status: byId.get(id)?.status ?? ('archived' as OrderStatus) }))
      .filter((o) => o.status !== 'new')
      .sort((a, b) => a.id - b.id);
    if (notNew.length > 0) throw new OrdersNotNewError(notNew);
    const changed = orderIds.filter((id) => plan.versions[id] === undefined || plan.versions[id] !== byId.get(id)!.version).sort((a, b) => a - b);
    if (changed.length > 0) throw new OrdersChangedError(changed);

    const busy: Array<{ id: number; date: string }> = [];
    const busyOn = new Map<string, number[]>();
    for (const r of plan.routes) {
      let taken = busyOn.get(r.date);
      if (!taken) busyOn.set(r.date, (taken = await tx.vehicleIdsWithRouteOn(plan.companyId, r.date)));
      if (taken.includes(r.vehicleId)) busy.push({ id: r.vehicleId, date: r.date });
    }
    if (busy.length > 0) throw new VehicleBusyError(busy);

    const routeIds: number[] = [];
    for (const r of plan.routes) routeIds.push(await tx.insertRoute(r, plan.at));
    if (orderIds.length > 0) await tx.markInRoute(plan.companyId, orderIds, plan.at);
    const changes: OrderStatusChange[] = orderIds.map((id) => ({
      order_id: id,
      external_id: byId.get(id)!.externalId,
      status: 'in_route',
      previous_status: 'new',
      at: plan.at,
    }));
    const result: JobResult = {
      route_ids: routeIds,
      summary: { route_count: routeIds.length, unassigned_count: plan.unassigned.length },
      unassigned: plan.unassigned.map((u) => ({ ...u })),
    };
    const job = await tx.finishJob(plan.jobId, result, plan.at);
    for (const c of changes) await tx.publish(plan.companyId, 'order.status_changed', c);
    await tx.publish(plan.companyId, 'planning_job.finished', toJobView(job));
    return { job, changes };
  });
}
