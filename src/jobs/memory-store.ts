import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyKeyReusedError,
  IdempotentReplayError,
  TooManyJobsError,
  type IdempotencyKey,
  LeaseLostError,
  type Company,
  type DayPosition,
  type DayRoute,
  type RouteRewrite,
  type JobInput,
  type JobRecord,
  type NewRoute,
  type NewStop,
  type OrderStatus,
  type JobResult,
  type OrderStatusChange,
  type PlanCommitTx,
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
    order.version = (order.version ?? 0) + 1;
  }
  /** Changes an order's fields as a client's edit would (its version goes up). */
  updateOrder(orderId: number, change: Partial<Omit<PlanningOrder, 'id' | 'companyId' | 'status' | 'version'>>): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    Object.assign(order, structuredClone(change));
    order.version = (order.version ?? 0) + 1;
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
  openRoutesOn(companyId: number, date: string): DayRoute[] {
    return [...this.routes.values()]
      .filter((r) => r.companyId === companyId && r.date === date && (r.status === 'planned' || r.status === 'active'))
      .sort((a, b) => a.id - b.id)
      .map((r) => ({
        id: r.id,
        jobId: r.jobId,
        vehicleId: r.vehicleId,
        name: r.name,
        date: r.date,
        status: r.status,
        actualStartAt: null,
        breaks: structuredClone(r.breaks ?? []),
        stops: r.stops.map((s) => ({
          id: s.id,
          position: s.position,
          stopType: s.stopType,
          status: s.status,
          orderId: s.orderId,
          orderExternalId: s.orderExternalId,
          warehouseId: s.warehouseId,
          address: s.address,
          lat: s.lat,
          lon: s.lon,
          plannedArrivalAt: s.plannedArrivalAt,
          plannedDepartureAt: s.plannedDepartureAt,
          actualArrivalAt: null,
          actualDepartureAt: null,
        })),
      }));
  }

  /** This store keeps no positions. */
  lastPositions(): DayPosition[] {
    return [];
  }

  newOrderIdsOn(companyId: number, date: string): number[] {
    return [...this.orders.values()].filter((o) => o.companyId === companyId && o.status === 'new' && o.deliveryDate === date).map((o) => o.id).sort((a, b) => a - b);
  }

  private rewriteRoutes(rewrites: RouteRewrite[], at: string): void {
    const stops = new Map<number, StoredStop>();
    for (const r of rewrites) for (const s of this.routes.get(r.routeId)!.stops) stops.set(s.id, s);
    for (const r of rewrites) {
      const route = this.routes.get(r.routeId)!;
      route.stops = r.stops.map((s) => {
        const { id, ...fields } = s;
        const old = id === undefined ? undefined : stops.get(id);
        return { ...structuredClone(fields), id: old?.id ?? this.nextStopId++, status: old?.status ?? 'pending' };
      });
      route.plannedMileageKm = r.plannedMileageKm;
      route.plannedDurationMin = r.plannedDurationMin;
      route.totalWeightKg = r.totalWeightKg;
      route.totalVolumeM3 = r.totalVolumeM3;
      route.breaks = structuredClone(r.breaks);
      if (r.status) route.status = r.status;
      void at;
    }
  }

  /**
   * The commit primitives on the maps. Commits run one at a time (a chain of promises), and the
   * rules (src/jobs/commit.ts) check everything before their first write, so a refused commit
   * leaves nothing behind, as a database's rollback would.
   */
  commitTransaction<T>(fn: (tx: PlanCommitTx) => Promise<T>): Promise<T> {
    const run = this.commits.then(() => fn(this.commitTx));
    this.commits = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
  private commits: Promise<void> = Promise.resolve();

  private readonly commitTx: PlanCommitTx = {
    jobLease: (jobId) => {
      const job = this.jobs.get(jobId);
      return job && { status: job.status, owner: job.status === 'running' ? (this.leases.get(jobId)?.owner ?? null) : null };
    },
    lockRoutes: () => {},
    ordersAtCommit: (companyId, ids) =>
      this.getOrdersByIds(companyId, ids).map((o) => ({ id: o.id, status: o.status, version: o.version ?? 0, externalId: o.externalId })),
    vehicleIdsWithRouteOn: (companyId, date) => this.vehicleIdsWithRouteOn(companyId, date),
    insertRoute: (route) => this.insertRoute(route),
    markInRoute: (_companyId, orderIds, at) => {
      for (const id of orderIds) {
        const order = this.orders.get(id)!;
        this.history.get(id)!.push({ order_id: id, external_id: order.externalId, status: 'in_route', previous_status: order.status, at });
        order.status = 'in_route';
        order.updatedAt = at;
        order.version = (order.version ?? 0) + 1;
      }
    },
    finishJob: (jobId, result, at) => this.finishJob(jobId, result, at),
    publish: () => {},
    openRoutesOn: (companyId, date) => this.openRoutesOn(companyId, date),
    rewriteRoutes: (_companyId, rewrites, at) => this.rewriteRoutes(rewrites, at),
    markNew: (_companyId, orderIds, at) => {
      for (const id of orderIds) {
        const order = this.orders.get(id)!;
        if (order.status !== 'in_route') continue;
        this.history.get(id)!.push({ order_id: id, external_id: order.externalId, status: 'new', previous_status: order.status, at });
        order.status = 'new';
        order.updatedAt = at;
        order.version = (order.version ?? 0) + 1;
      }
    },
  };

  /** Marks the job done with its result, ending its lease (the last write of a plan commit). */
  protected finishJob(jobId: number, result: JobResult, at: string): JobRecord {
    const job = this.jobs.get(jobId)!;
    job.status = 'done';
    job.error = '';
    job.result = structuredClone(result);
    job.updatedAt = at;
    this.leases.delete(job.id);
    return structuredClone(job);
  }

  private insertRoute(route: NewRoute): number {
    const id = this.nextRouteId++;
    const stops = route.stops.map((s) => ({ ...s, id: this.nextStopId++, status: 'pending' as const }));
    this.routes.set(id, { ...structuredClone(route), id, status: 'planned', stops });
    return id;
  }
}
