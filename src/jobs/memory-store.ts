import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyKeyReusedError,
  IdempotentReplayError,
  OrdersNotNewError,
  TooManyJobsError,
  type IdempotencyKey,
  VehicleBusyError,
  LeaseLostError,
  type Company,
  type JobInput,
  type JobRecord,
  type NewRoute,
  type NewStop,
  type OrderStatus,
  type OrderStatusChange,
  type PlanCommit,
  type PlanningOrder,
  type PlanningStore,
  type PlanningVehicle,
  type Warehouse,
} from './ports.js';

export interface StoredRoute extends Omit<NewRoute, 'stops'> {
  id: number;
  status: 'planned' | 'active' | 'completed' | 'archived' | 'cancelled';
  stops: StoredStop[];
}

export interface StoredStop extends NewStop {
  id: number;
  status: 'pending' | 'in_progress' | 'visited' | 'confirmed' | 'rejected' | 'skipped';
}

/**
 * The planning store in memory: the reference implementation of the port, used by the tests, the
 * benchmark and anyone embedding the job layer without a database. Records are copied in and out
 * (structuredClone), so callers can never change stored state by accident.
 */
export class MemoryPlanningStore implements PlanningStore {
  private readonly jobs = new Map<number, JobRecord>();
  private readonly companies = new Map<number, Company>();
  private readonly orders = new Map<number, PlanningOrder>();
  private readonly vehicles = new Map<number, PlanningVehicle>();
  private readonly warehouses = new Map<number, Warehouse>();
  private readonly routes = new Map<number, StoredRoute>();
  private readonly history = new Map<number, OrderStatusChange[]>();
  private nextJobId = 1;
  private nextRouteId = 1;
  private nextStopId = 1;

  // ---- seeding and inspection (not part of the port) ----

  addCompany(company: Company): Company {
    this.companies.set(company.id, { ...company });
    return company;
  }
  addOrder(order: PlanningOrder): PlanningOrder {
    this.orders.set(order.id, structuredClone(order));
    if (!this.history.has(order.id)) {
      this.history.set(order.id, [{ order_id: order.id, external_id: order.externalId, status: order.status, previous_status: null, at: order.updatedAt ?? '1970-01-01T00:00:00.000Z' }]);
    }
    return order;
  }
  addVehicle(vehicle: PlanningVehicle): PlanningVehicle {
    this.vehicles.set(vehicle.id, structuredClone(vehicle));
    return vehicle;
  }
  addWarehouse(warehouse: Warehouse): Warehouse {
    this.warehouses.set(warehouse.id, { ...warehouse });
    return warehouse;
  }
  /** Sets an order's status directly (a test stands in for the dispatcher or a cancel). */
  setOrderStatus(orderId: number, status: OrderStatus, at: string): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    this.history.get(orderId)!.push({ order_id: orderId, external_id: order.externalId, status, previous_status: order.status, at });
    order.status = status;
  }
  /** Adds a route without planning (a vehicle made busy on a date). */
  addRoute(route: NewRoute): number {
    return this.insertRoute(route);
  }
  getOrder(orderId: number): PlanningOrder | undefined {
    const order = this.orders.get(orderId);
    return order && structuredClone(order);
  }
  getOrderHistory(orderId: number): OrderStatusChange[] {
    return structuredClone(this.history.get(orderId) ?? []);
  }
  getRoute(routeId: number): StoredRoute | undefined {
    const route = this.routes.get(routeId);
    return route && structuredClone(route);
  }
  listRoutes(companyId: number): StoredRoute[] {
    return [...this.routes.values()].filter((r) => r.companyId === companyId).map((r) => structuredClone(r));
  }

  // ---- JobStore ----

  private readonly idempotency = new Map<string, { jobId: number; fingerprint: string; at: string }>();

  findIdempotent(companyId: number, key: string, since: string): { jobId: number; fingerprint: string } | undefined {
    const used = this.idempotency.get(`${companyId}\u0000${key}`);
    return used && used.at >= since ? { jobId: used.jobId, fingerprint: used.fingerprint } : undefined;
  }

  pruneIdempotencyKeys(before: string): number {
    let n = 0;
    for (const [k, v] of this.idempotency) if (v.at < before && this.idempotency.delete(k)) n++;
    return n;
  }
  createJob(companyId: number, input: JobInput, at: string, maxUnfinished?: number, idempotency?: IdempotencyKey): JobRecord {
    if (idempotency) {
      const used = this.findIdempotent(companyId, idempotency.key, new Date(Date.parse(at) - IDEMPOTENCY_WINDOW_MS).toISOString());
      if (used) throw used.fingerprint === idempotency.fingerprint ? new IdempotentReplayError(used.jobId) : new IdempotencyKeyReusedError();
    }
    if (maxUnfinished !== undefined) {
      let n = 0;
      for (const j of this.jobs.values()) if (j.companyId === companyId && (j.status === 'queued' || j.status === 'running')) n++;
      if (n >= maxUnfinished) throw new TooManyJobsError(maxUnfinished);
    }
    const job: JobRecord = { id: this.nextJobId++, companyId, status: 'queued', input: structuredClone(input), result: null, error: '', createdAt: at, updatedAt: at, attempts: 0 };
    this.jobs.set(job.id, job);
    if (idempotency) this.idempotency.set(`${companyId}\u0000${idempotency.key}`, { jobId: job.id, fingerprint: idempotency.fingerprint, at });
    return structuredClone(job);
  }
  getJob(companyId: number, jobId: number): JobRecord | undefined {
    const job = this.jobs.get(jobId);
    return job && job.companyId === companyId ? structuredClone(job) : undefined;
  }
  updateJob(jobId: number, change: { status: 'running' } | { status: 'failed'; error: string }, at: string, owner?: string): JobRecord {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    if (owner !== undefined && !this.holds(jobId, owner)) throw new LeaseLostError(jobId);
    if (owner !== undefined) this.leases.delete(jobId);
    job.status = change.status;
    job.error = change.status === 'failed' ? change.error : '';
    job.result = null;
    job.updatedAt = at;
    return structuredClone(job);
  }
  private readonly leases = new Map<number, { owner: string; until: string }>();
  private readonly turns = new Map<number, number>();
  private turn = 0;

  private holds(jobId: number, owner: string): boolean {
    return this.jobs.get(jobId)?.status === 'running' && this.leases.get(jobId)?.owner === owner;
  }
  claimJob(owner: string, at: string, leaseUntil: string): JobRecord | undefined {
    const rank = (j: JobRecord) => [j.status === 'running' ? 0 : 1, this.turns.get(j.companyId) ?? -1, j.id];
    const claimable = [...this.jobs.values()].filter((j) => {
      if (j.status === 'queued') return true;
      if (j.status !== 'running') return false;
      const lease = this.leases.get(j.id);
      return lease === undefined || lease.until < at;
    });
    claimable.sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    });
    const job = claimable[0];
    if (!job) return undefined;
    job.status = 'running';
    job.attempts = (job.attempts ?? 0) + 1;
    job.updatedAt = at;
    this.leases.set(job.id, { owner, until: leaseUntil });
    this.turns.set(job.companyId, this.turn++);
    return structuredClone(job);
  }
  renewLease(jobId: number, owner: string, leaseUntil: string): boolean {
    if (!this.holds(jobId, owner)) return false;
    this.leases.set(jobId, { owner, until: leaseUntil });
    return true;
  }
  releaseJob(jobId: number, owner: string, at: string): boolean {
    if (!this.holds(jobId, owner)) return false;
    const job = this.jobs.get(jobId)!;
    this.leases.delete(jobId);
    job.attempts = Math.max(0, (job.attempts ?? 1) - 1);
    job.updatedAt = at;
    return true;
  }
  listUnfinishedJobs(): JobRecord[] {
    return [...this.jobs.values()]
      .filter((j) => j.status === 'queued' || j.status === 'running')
      .sort((a, b) => a.id - b.id)
      .map((j) => structuredClone(j));
  }

  // ---- PlanningDataStore ----

  getCompany(companyId: number): Company | undefined {
    const company = this.companies.get(companyId);
    return company && { ...company };
  }
  getOrdersByIds(companyId: number, ids: number[]): PlanningOrder[] {
    return ids.map((id) => this.orders.get(id)).filter((o): o is PlanningOrder => o?.companyId === companyId).map((o) => structuredClone(o));
  }
  getOrdersByExternalIds(companyId: number, externalIds: string[]): PlanningOrder[] {
    const wanted = new Set(externalIds);
    return [...this.orders.values()]
      .filter((o) => o.companyId === companyId && o.externalId !== null && wanted.has(o.externalId))
      .map((o) => structuredClone(o));
  }
  getVehiclesByIds(companyId: number, ids: number[]): PlanningVehicle[] {
    return ids.map((id) => this.vehicles.get(id)).filter((v): v is PlanningVehicle => v?.companyId === companyId).map((v) => structuredClone(v));
  }
  listActiveVehicles(companyId: number): PlanningVehicle[] {
    return [...this.vehicles.values()].filter((v) => v.companyId === companyId && v.active).map((v) => structuredClone(v));
  }
  getWarehousesByIds(companyId: number, ids: number[]): Warehouse[] {
    return ids.map((id) => this.warehouses.get(id)).filter((w): w is Warehouse => w?.companyId === companyId).map((w) => ({ ...w }));
  }
  vehicleIdsWithRouteOn(companyId: number, date: string): number[] {
    const ids = new Set<number>();
    for (const r of this.routes.values()) {
      if (r.companyId === companyId && r.date === date && r.status !== 'cancelled') ids.add(r.vehicleId);
    }
    return [...ids].sort((a, b) => a - b);
  }
  commitPlan(plan: PlanCommit): { job: JobRecord; changes: OrderStatusChange[] } {
    const job = this.jobs.get(plan.jobId);
    if (!job) throw new Error(`no job ${plan.jobId}`);
    if (job.status === 'done' || job.status === 'failed' || (plan.owner !== undefined && !this.holds(plan.jobId, plan.owner))) {
      throw new LeaseLostError(plan.jobId);
    }
    // Checks first: nothing is written unless everything holds (the transaction of a real store).
    const notNew: Array<{ id: number; status: OrderStatus }> = [];
    for (const route of plan.routes) {
      for (const stop of route.stops) {
        if (stop.orderId === null) continue;
        const order = this.orders.get(stop.orderId);
        if (!order || order.companyId !== plan.companyId) throw new Error(`no order ${stop.orderId}`);
        if (order.status !== 'new') notNew.push({ id: order.id, status: order.status });
      }
    }
    if (notNew.length > 0) throw new OrdersNotNewError(notNew.sort((a, b) => a.id - b.id));
    const busy = plan.routes
      .filter((r) => this.vehicleIdsWithRouteOn(r.companyId, r.date).includes(r.vehicleId))
      .map((r) => ({ id: r.vehicleId, date: r.date }));
    if (busy.length > 0) throw new VehicleBusyError(busy);

    const routeIds = plan.routes.map((r) => this.insertRoute(r));
    const changes: OrderStatusChange[] = [];
    for (const route of plan.routes) {
      for (const stop of route.stops) {
        if (stop.orderId === null) continue;
        const order = this.orders.get(stop.orderId)!;
        const change: OrderStatusChange = { order_id: order.id, external_id: order.externalId, status: 'in_route', previous_status: 'new', at: plan.at };
        order.status = 'in_route';
        order.updatedAt = plan.at;
        this.history.get(order.id)!.push(change);
        changes.push({ ...change });
      }
    }
    job.status = 'done';
    job.error = '';
    job.result = {
      route_ids: routeIds,
      summary: { route_count: routeIds.length, unassigned_count: plan.unassigned.length },
      unassigned: plan.unassigned.map((u) => ({ ...u })),
    };
    job.updatedAt = plan.at;
    this.leases.delete(job.id);
    return { job: structuredClone(job), changes };
  }

  private insertRoute(route: NewRoute): number {
    const id = this.nextRouteId++;
    const stops = route.stops.map((s) => ({ ...s, id: this.nextStopId++, status: 'pending' as const }));
    this.routes.set(id, { ...structuredClone(route), id, status: 'planned', stops });
    return id;
  }
}
