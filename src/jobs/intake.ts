/**
 * Job intake: validates a planning request against the store and queues one job, all or nothing
 * (PlanningInputError carries the contract's text; no job is created). At most
 * `maxJobsPerCompany` jobs of a company are queued or running at once (the store checks the cap in
 * the job's insert). Under an Idempotency-Key, the key's first job is answered again.
 */
import { MAX_ORDERS_PER_JOB, JobServiceClosedError, PlanningInputError, type PlanningProblem } from './errors.js';
import { IDEMPOTENCY_WINDOW_MS, IdempotencyKeyReusedError, IdempotentReplayError, type IdempotencyKey, type PlanningOrder, type PlanningStore } from './ports.js';
import type { PlanningRequest } from '../contract/planning.js';
import { toJobView, type JobView } from './view.js';

export const DEFAULT_MAX_JOBS_PER_COMPANY = 4;

export interface JobIntakeOptions {
  store: PlanningStore;
  /** Jobs of one company queued or running at once (default 4); 0 or Infinity: no cap. */
  maxJobsPerCompany?: number;
  /** The time of the request, as an ISO string. */
  stamp: () => string;
  /** Whether intake is shut (a submit then throws JobServiceClosedError). */
  closed: () => boolean;
  /** A job was queued (wakes the runner). */
  onQueued: () => void;
}

export class JobIntake {
  constructor(private readonly options: JobIntakeOptions) {}

  /** See submitReplan. */
  replan(companyId: number, request: ReplanSubmit): Promise<JobView> {
    return submitReplan(this.options, companyId, request);
  }

  /** The job object of 2.2, or undefined when there is no such job for this company. */
  async get(companyId: number, jobId: number): Promise<JobView | undefined> {
    const job = await this.options.store.getJob(companyId, jobId);
    return job && toJobView(job);
  }

  /**
   * submit() under an Idempotency-Key: within 24 h the same key and request give the key's first
   * job again (`replayed`), a different request is IdempotencyKeyReusedError. A request refused
   * by validation records no key, so the client can fix it and send it again with the same key.
   */
  async submitOnce(companyId: number, request: PlanningRequest, idempotency: IdempotencyKey): Promise<{ job: JobView; replayed: boolean }> {
    const replay = async (jobId: number) => ({ job: (await this.get(companyId, jobId))!, replayed: true });
    const since = new Date(Date.parse(this.options.stamp()) - IDEMPOTENCY_WINDOW_MS).toISOString();
    const used = await this.options.store.findIdempotent(companyId, idempotency.key, since);
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

  /**
   * Validates the whole selection at once and creates a queued job, or throws PlanningInputError
   * (no job created) with the contract's detail text.
   */
  async submit(companyId: number, request: PlanningRequest, idempotency?: IdempotencyKey): Promise<JobView> {
    if (this.options.closed()) throw new JobServiceClosedError();
    const store = this.options.store;
    const problems: PlanningProblem[] = [];
    const orderIds = distinct(request.order_ids ?? []);
    const externalIds = distinct(request.external_ids ?? []);
    if (orderIds.length === 0 && externalIds.length === 0) problems.push({ kind: 'empty_selection' });

    const resolved = new Set<number>();
    // the selection's size counts what it names but cannot resolve too: 501 ids are too many
    // whether or not they exist, and that is the first thing the client has to fix
    let unresolved = 0;
    if (orderIds.length > 0) {
      const found = new Set((await store.getOrdersByIds(companyId, orderIds)).map((o) => o.id));
      const missing = orderIds.filter((id) => !found.has(id)).sort((a, b) => a - b);
      if (missing.length > 0) problems.push({ kind: 'orders_not_found', ids: missing });
      unresolved += missing.length;
      for (const id of found) resolved.add(id);
    }
    if (externalIds.length > 0) {
      const byExternal = new Map<string, PlanningOrder[]>();
      for (const o of await store.getOrdersByExternalIds(companyId, externalIds)) {
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
      const usable = new Set((await store.getVehiclesByIds(companyId, vehicleIds)).filter((v) => v.active).map((v) => v.id));
      const missing = vehicleIds.filter((id) => !usable.has(id));
      if (missing.length > 0) problems.push({ kind: 'vehicles_not_found', ids: missing });
    }
    const warehouseId = request.warehouse_id ?? null;
    if (warehouseId !== null && (await store.getWarehousesByIds(companyId, [warehouseId])).length === 0) {
      problems.push({ kind: 'warehouse_not_found', id: warehouseId });
    }
    if (problems.length > 0) throw new PlanningInputError(problems);

    const cap = this.options.maxJobsPerCompany ?? DEFAULT_MAX_JOBS_PER_COMPANY;
    const job = await store.createJob(
      companyId,
      { order_ids: [...resolved].sort((a, b) => a - b), vehicle_ids: vehicleIds, warehouse_id: warehouseId },
      this.options.stamp(),
      cap > 0 && Number.isFinite(cap) ? cap : undefined,
      idempotency,
    );
    this.options.onQueued();
    return toJobView(job);
  }
}

/** A re-plan of one date as the job service takes it (src/contract/dispatch.ts, validated). */
export interface ReplanSubmit {
  date: string;
  order_ids?: number[];
  external_ids?: string[];
  vehicle_ids?: number[];
  /** The vehicle out of service from `from` on (POST /vehicles/{id}/unavailable). */
  unavailable?: { vehicle_id: number; from: string };
}

/** Queues a re-plan job after checking what it names, all or nothing (PlanningInputError). */
export async function submitReplan(options: JobIntakeOptions, companyId: number, request: ReplanSubmit): Promise<JobView> {
  if (options.closed()) throw new JobServiceClosedError();
  const store = options.store;
  const problems: PlanningProblem[] = [];
  const orderIds = distinct(request.order_ids ?? []);
  const externalIds = distinct(request.external_ids ?? []);
  const resolved = new Set<number>();
  if (orderIds.length > 0) {
    const found = new Set((await store.getOrdersByIds(companyId, orderIds)).map((o) => o.id));
    const missing = orderIds.filter((id) => !found.has(id)).sort((a, b) => a - b);
    if (missing.length > 0) problems.push({ kind: 'orders_not_found', ids: missing });
    for (const id of found) resolved.add(id);
  }
  if (externalIds.length > 0) {
    const matches = await store.getOrdersByExternalIds(companyId, externalIds);
    const seen = new Set(matches.map((o) => o.externalId));
    const missing = externalIds.filter((x) => !seen.has(x));
    if (missing.length > 0) problems.push({ kind: 'external_ids_not_found', externalIds: missing });
    for (const o of matches) if (o.status === 'new') resolved.add(o.id);
  }
  if (resolved.size > MAX_ORDERS_PER_JOB) problems.unshift({ kind: 'too_many_orders', count: resolved.size });
  const vehicleIds = distinct(request.vehicle_ids ?? []).sort((a, b) => a - b);
  if (vehicleIds.length > 0) {
    const usable = new Set((await store.getVehiclesByIds(companyId, vehicleIds)).filter((v) => v.active).map((v) => v.id));
    const missing = vehicleIds.filter((id) => !usable.has(id));
    if (missing.length > 0) problems.push({ kind: 'vehicles_not_found', ids: missing });
  }
  if (problems.length > 0) throw new PlanningInputError(problems);
  const cap = options.maxJobsPerCompany ?? DEFAULT_MAX_JOBS_PER_COMPANY;
  const job = await store.createJob(
    companyId,
    {
      order_ids: [...resolved].sort((a, b) => a - b),
      vehicle_ids: vehicleIds,
      warehouse_id: null,
      replan: { date: request.date, ...(request.unavailable ? { unavailable: request.unavailable } : {}) },
    },
    options.stamp(),
    cap > 0 && Number.isFinite(cap) ? cap : undefined,
  );
  options.onQueued();
  return toJobView(job);
}

export function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}
