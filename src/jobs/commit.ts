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
 * A re-plan of a day (commitReplan, below) keeps rules 1 to 3 for what it places, and adds its fence:
 * the stops of the date as the job read them.
 *
 * Why a version and not "still new": an order stays `new` while its client edits it, so a job that
 * read it before an edit would otherwise place the old address, coordinates and weight (issue 41).
 */
import { toJobView } from './view.js';
import {
  LeaseLostError,
  OrdersChangedError,
  OrdersNotNewError,
  StopsChangedError,
  VehicleBusyError,
  type DayRoute,
  type NewRoute,
  type OrderAtCommit,
  type PlanCommitTx,
  type ReplanCommit,
  type JobRecord,
  type JobResult,
  type OrderStatus,
  type OrderStatusChange,
  type PlanCommit,
  type PlanningDataStore,
} from './ports.js';

/** Rule 1: the job is still `running` under `owner` (without an owner, not yet done or failed). */
async function holdLease(tx: PlanCommitTx, jobId: number, owner: string | undefined): Promise<void> {
  const held = await tx.jobLease(jobId);
  if (!held) throw new Error(`Planning job ${jobId} does not exist.`);
  if (held.status === 'done' || held.status === 'failed' || (owner !== undefined && (held.status !== 'running' || held.owner !== owner))) {
    throw new LeaseLostError(jobId);
  }
}

/** Rule 2: every order to place is still `new` and at the version the job read. */
async function ordersStillNew(tx: PlanCommitTx, companyId: number, orderIds: number[], versions: Readonly<Record<number, number>>): Promise<Map<number, OrderAtCommit>> {
  const byId = new Map((await tx.ordersAtCommit(companyId, orderIds)).map((o) => [o.id, o]));
  const notNew = orderIds
    .map((id) => ({ id, status: byId.get(id)?.status ?? ('archived' as OrderStatus) }))
    .filter((o) => o.status !== 'new')
    .sort((a, b) => a.id - b.id);
  if (notNew.length > 0) throw new OrdersNotNewError(notNew);
  const changed = orderIds.filter((id) => versions[id] === undefined || versions[id] !== byId.get(id)!.version).sort((a, b) => a - b);
  if (changed.length > 0) throw new OrdersChangedError(changed);
  return byId;
}

/** Rule 3: no new route's vehicle has a route on its date yet. */
async function vehiclesFree(tx: PlanCommitTx, companyId: number, routes: NewRoute[]): Promise<void> {
  const busy: Array<{ id: number; date: string }> = [];
  const busyOn = new Map<string, number[]>();
  for (const r of routes) {
    let taken = busyOn.get(r.date);
    if (!taken) busyOn.set(r.date, (taken = await tx.vehicleIdsWithRouteOn(companyId, r.date)));
    if (taken.includes(r.vehicleId)) busy.push({ id: r.vehicleId, date: r.date });
  }
  if (busy.length > 0) throw new VehicleBusyError(busy);
}

export async function commitPlan(
  store: Pick<PlanningDataStore, 'commitTransaction'>,
  plan: PlanCommit,
): Promise<{ job: JobRecord; changes: OrderStatusChange[] }> {
  return store.commitTransaction(async (tx) => {
    await holdLease(tx, plan.jobId, plan.owner);
    await tx.lockRoutes(plan.companyId);
    const orderIds = plan.routes.flatMap((r) => r.stops.filter((s) => s.orderId !== null).map((s) => s.orderId!));
    const byId = await ordersStillNew(tx, plan.companyId, orderIds, plan.versions);
    await vehiclesFree(tx, plan.companyId, plan.routes);

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

/**
 * What a re-plan read of its date's routes, to fence its commit: each planned or active route's
 * status and its stops' ids and statuses, in order.
 */
export function dayFingerprint(routes: DayRoute[]): string {
  return routes.map((r) => `${r.id}:${r.status}:${r.vehicleId ?? ''}[${r.stops.map((s) => `${s.id}=${s.status}`).join(',')}]`).join(';');
}

/** The stops whose status differs between two reads of a day (or that appeared or went), by id. */
function changedStops(read: DayRoute[], now: DayRoute[]): number[] {
  const before = new Map(read.flatMap((r) => r.stops.map((s) => [s.id, `${r.id}:${r.status}:${s.status}`] as const)));
  const after = new Map(now.flatMap((r) => r.stops.map((s) => [s.id, `${r.id}:${r.status}:${s.status}`] as const)));
  const ids = new Set<number>();
  for (const [id, v] of before) if (after.get(id) !== v) ids.add(id);
  for (const [id, v] of after) if (before.get(id) !== v) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/**
 * Committing a re-plan of a day (operations.md "Re-planning a day"), in one transaction: rule 1
 * (the lease), then the fence: the date's planned and active routes, with every stop's status, are
 * what the job read (else StopsChangedError, naming the stops: a status written meanwhile wins, the
 * job computes again from the fresh day or fails), rules 2 (the new orders it places are new and
 * unchanged) and 3 (the vehicles of its new routes are free). Then the routes are rewritten (kept
 * stops keep their ids), new routes inserted, the new orders placed go in_route and the orders of
 * an unavailable vehicle that fit nowhere go back to new (history, `order.status_changed`), the job
 * is done, `route.updated` is written for every route whose stops changed, and
 * `planning_job.finished`.
 */
export async function commitReplan(
  store: Pick<PlanningDataStore, 'commitTransaction'>,
  plan: ReplanCommit,
): Promise<{ job: JobRecord; changes: OrderStatusChange[] }> {
  return store.commitTransaction(async (tx) => {
    await holdLease(tx, plan.jobId, plan.owner);
    await tx.lockRoutes(plan.companyId);
    const now = await tx.openRoutesOn(plan.companyId, plan.date);
    if (dayFingerprint(now) !== dayFingerprint(plan.read)) {
      const stops = changedStops(plan.read, now);
      throw new StopsChangedError(stops, now.map((r) => r.id).join(',') !== plan.read.map((r) => r.id).join(','));
    }
    const byId = await ordersStillNew(tx, plan.companyId, plan.placed, plan.versions);
    await vehiclesFree(tx, plan.companyId, plan.newRoutes);

    // a new route is inserted without stops, then written with the others: a kept stop moved
    // onto it keeps its id
    const inserted: number[] = [];
    const rewrites = [...plan.rewrites];
    for (const r of plan.newRoutes) {
      const id = await tx.insertRoute({ ...r, stops: [] }, plan.at);
      inserted.push(id);
      const { plannedMileageKm, plannedDurationMin, totalWeightKg, totalVolumeM3 } = r;
      rewrites.push({ routeId: id, stops: r.stops, plannedMileageKm, plannedDurationMin, totalWeightKg, totalVolumeM3, breaks: r.breaks ?? [] });
    }
    await tx.rewriteRoutes(plan.companyId, rewrites, plan.at);
    const routeIds = plan.rewrites.filter((r) => r.status !== 'cancelled').map((r) => r.routeId);
    if (plan.placed.length > 0) await tx.markInRoute(plan.companyId, plan.placed, plan.at);
    if (plan.backToNew.length > 0) await tx.markNew(plan.companyId, plan.backToNew.map((o) => o.id), plan.at);
    const changes: OrderStatusChange[] = [
      ...plan.placed.map((id): OrderStatusChange => ({ order_id: id, external_id: byId.get(id)!.externalId, status: 'in_route', previous_status: 'new', at: plan.at })),
      ...plan.backToNew.map((o): OrderStatusChange => ({ order_id: o.id, external_id: o.externalId, status: 'new', previous_status: 'in_route', at: plan.at })),
    ];
    const allRoutes = [...routeIds, ...inserted].sort((a, b) => a - b);
    const result: JobResult = {
      route_ids: allRoutes,
      summary: { route_count: allRoutes.length, unassigned_count: plan.unassigned.length },
      unassigned: plan.unassigned.map((u) => ({ ...u })),
    };
    const job = await tx.finishJob(plan.jobId, result, plan.at);
    for (const c of changes) await tx.publish(plan.companyId, 'order.status_changed', c);
    const updated = [...plan.rewrites.filter((r) => plan.changed.includes(r.routeId)).map((r) => r.routeId), ...inserted].sort((a, b) => a - b);
    for (const id of updated) await tx.publish(plan.companyId, 'route.updated', { route_id: id, date: plan.date, changed_at: plan.at });
    await tx.publish(plan.companyId, 'planning_job.finished', toJobView(job));
    return { job, changes };
  });
}
