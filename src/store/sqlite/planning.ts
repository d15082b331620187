/**
 * The SQLite side of planning: jobs and their queue, routes, stops and vehicle positions, behind
 * the planning-job layer's storage port (src/jobs/ports.ts). It passes the same contract suite as
 * the in-memory store (test/jobs/store-contract.ts, run in test/store/planning.test.ts).
 *
 * Units on disk follow the order tables of migration 1 where they meet them (order weight in
 * grams, volume in litres, coordinates in micro-degrees); the planning tables keep plain REAL
 * kilometres, kilograms, cubic metres and degrees, which round-trip exactly as JS numbers.
 */
import type {
  DayPosition,
  DayRoute,
  PlanningEvent,
  RouteRewrite,
  Company,
  JobInput,
  JobRecord,
  JobStatus,
  NewRoute,
  PlanCommitTx,
  PlanningOrder,
  PlanningStore,
  PlanningVehicle,
  Warehouse,
} from '../../jobs/ports.js';
import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyKeyReusedError,
  IdempotentReplayError,
  LeaseLostError,
  TooManyJobsError,
  type IdempotencyKey,
} from '../../jobs/ports.js';
import { prepare, type Db } from './db.js';
import { dayRoutesFromRows, jobFromRow, orderFromRow, rewritePlan, vehicleFromRow, type JobRow, type OrderRow, type VehicleRow } from '../planning-rows.js';
import type { RouteRow, StopRow } from '../types.js';

let savepoints = 0;

export class SqlitePlanningStore implements PlanningStore {
  constructor(private readonly db: Db) {}

  createJob(companyId: number, input: JobInput, at: string, maxUnfinished?: number, idempotency?: IdempotencyKey): JobRecord {
    return this.db.transaction(() => {
      if (idempotency) {
        const since = new Date(Date.parse(at) - IDEMPOTENCY_WINDOW_MS).toISOString();
        const used = this.findIdempotent(companyId, idempotency.key, since);
        if (used) throw used.fingerprint === idempotency.fingerprint ? new IdempotentReplayError(used.jobId) : new IdempotencyKeyReusedError();
        prepare(this.db, `DELETE FROM idempotency_keys WHERE company_id = ? AND key = ?`).run(companyId, idempotency.key);
      }
      if (maxUnfinished !== undefined) {
        const { n } = prepare(this.db, `SELECT COUNT(*) AS n FROM planning_jobs WHERE company_id = ? AND status IN ('queued', 'running')`)
          .get(companyId) as { n: number };
        if (n >= maxUnfinished) throw new TooManyJobsError(maxUnfinished);
      }
      const { lastInsertRowid } = prepare(this.db, `INSERT INTO planning_jobs (company_id, status, input, created_at, updated_at) VALUES (?, 'queued', ?, ?, ?)`)
        .run(companyId, JSON.stringify(input), at, at);
      if (idempotency) {
        prepare(this.db, `INSERT INTO idempotency_keys (company_id, key, fingerprint, job_id, created_at) VALUES (?, ?, ?, ?, ?)`)
          .run(companyId, idempotency.key, idempotency.fingerprint, Number(lastInsertRowid), at);
      }
      return this.jobById(Number(lastInsertRowid))!;
    }).immediate();
  }

  pruneIdempotencyKeys(before: string): number {
    return prepare(this.db, `DELETE FROM idempotency_keys WHERE created_at < ?`).run(before).changes;
  }

  findIdempotent(companyId: number, key: string, since: string): { jobId: number; fingerprint: string } | undefined {
    const row = prepare(this.db, `SELECT job_id, fingerprint FROM idempotency_keys WHERE company_id = ? AND key = ? AND created_at >= ?`)
      .get(companyId, key, since) as { job_id: number; fingerprint: string } | undefined;
    return row && { jobId: row.job_id, fingerprint: row.fingerprint };
  }

  getJob(companyId: number, jobId: number): JobRecord | undefined {
    const row = prepare(this.db, `SELECT * FROM planning_jobs WHERE id = ? AND company_id = ?`).get(jobId, companyId) as JobRow | undefined;
    return row && jobFromRow(row);
  }

  updateJob(jobId: number, change: { status: 'running' } | { status: 'failed'; error: string }, at: string, owner?: string): JobRecord {
    const error = change.status === 'failed' ? change.error : '';
    if (owner !== undefined) {
      const { changes } = prepare(this.db,
          `UPDATE planning_jobs SET status = ?, error = ?, result = NULL, updated_at = ?, lease_owner = NULL, lease_until = NULL
           WHERE id = ? AND status = 'running' AND lease_owner = ?`,
        )
        .run(change.status, error, at, jobId, owner);
      if (changes === 0) throw new LeaseLostError(jobId);
      return this.jobById(jobId)!;
    }
    const { changes } = prepare(this.db, `UPDATE planning_jobs SET status = ?, error = ?, result = NULL, updated_at = ? WHERE id = ?`)
      .run(change.status, error, at, jobId);
    if (changes === 0) throw new Error(`Planning job ${jobId} does not exist.`);
    return this.jobById(jobId)!;
  }

  claimJob(owner: string, at: string, leaseUntil: string): JobRecord | undefined {
    return this.db.transaction(() => {
      // bounded: at most --max-jobs-per-company unfinished jobs per company
      const row = prepare(this.db,
          `SELECT j.id, j.company_id FROM planning_jobs j LEFT JOIN planning_turns t ON t.company_id = j.company_id
           WHERE j.status = 'queued' OR (j.status = 'running' AND (j.lease_until IS NULL OR j.lease_until < ?))
           ORDER BY j.status = 'running' DESC, COALESCE(t.turn, -1), j.id
           LIMIT 1`,
        )
        .get(at) as { id: number; company_id: number } | undefined;
      if (!row) return undefined;
      prepare(this.db,
          `UPDATE planning_jobs SET status = 'running', lease_owner = ?, lease_until = ?, attempts = attempts + 1, updated_at = ? WHERE id = ?`,
        )
        .run(owner, leaseUntil, at, row.id);
      prepare(this.db,
          `INSERT INTO planning_turns (company_id, turn) VALUES (?, (SELECT COALESCE(MAX(turn), 0) + 1 FROM planning_turns))
           ON CONFLICT (company_id) DO UPDATE SET turn = excluded.turn`,
        )
        .run(row.company_id);
      return this.jobById(row.id);
    }).immediate();
  }

  renewLease(jobId: number, owner: string, leaseUntil: string): boolean {
    return (
      prepare(this.db, `UPDATE planning_jobs SET lease_until = ? WHERE id = ? AND status = 'running' AND lease_owner = ?`)
        .run(leaseUntil, jobId, owner).changes === 1
    );
  }

  releaseJob(jobId: number, owner: string, at: string): boolean {
    return (
      prepare(this.db,
          `UPDATE planning_jobs SET lease_owner = NULL, lease_until = NULL, attempts = MAX(attempts - 1, 0), updated_at = ?
           WHERE id = ? AND status = 'running' AND lease_owner = ?`,
        )
        .run(at, jobId, owner).changes === 1
    );
  }

  listUnfinishedJobs(): JobRecord[] {
    const rows = prepare(this.db, `SELECT * FROM planning_jobs WHERE status IN ('queued', 'running') ORDER BY id`).all() as JobRow[];
    return rows.map(jobFromRow);
  }

  getCompany(companyId: number): Company | undefined {
    return prepare(this.db, `SELECT id, timezone, speed_factor AS "speedFactor" FROM companies WHERE id = ?`).get(companyId) as Company | undefined;
  }

  getOrdersByIds(companyId: number, ids: number[]): PlanningOrder[] {
    if (ids.length === 0) return [];
    const rows = prepare(this.db, `SELECT * FROM orders WHERE company_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(companyId, JSON.stringify(ids)) as OrderRow[];
    return rows.map(orderFromRow);
  }

  getOrdersByExternalIds(companyId: number, externalIds: string[]): PlanningOrder[] {
    if (externalIds.length === 0) return [];
    const rows = prepare(this.db, `SELECT * FROM orders WHERE company_id = ? AND external_id IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(companyId, JSON.stringify(externalIds)) as OrderRow[];
    return rows.map(orderFromRow);
  }

  getVehiclesByIds(companyId: number, ids: number[]): PlanningVehicle[] {
    if (ids.length === 0) return [];
    const rows = prepare(this.db, `SELECT * FROM vehicles WHERE company_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(companyId, JSON.stringify(ids)) as VehicleRow[];
    return rows.map(vehicleFromRow);
  }

  listActiveVehicles(companyId: number): PlanningVehicle[] {
    const rows = prepare(this.db, `SELECT * FROM vehicles WHERE company_id = ? AND active = 1 ORDER BY id`).all(companyId) as VehicleRow[];
    return rows.map(vehicleFromRow);
  }

  getWarehousesByIds(companyId: number, ids: number[]): Warehouse[] {
    if (ids.length === 0) return [];
    const rows = prepare(this.db,
        `SELECT id, company_id AS companyId, name, address, lat, lon FROM warehouses
         WHERE company_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      )
      .all(companyId, JSON.stringify(ids)) as Warehouse[];
    return rows;
  }

  vehicleIdsWithRouteOn(companyId: number, date: string): number[] {
    const rows = prepare(this.db,
        `SELECT DISTINCT vehicle_id AS id FROM routes
         WHERE company_id = ? AND date = ? AND status <> 'cancelled' AND vehicle_id IS NOT NULL ORDER BY vehicle_id`,
      )
      .all(companyId, date) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  openRoutesOn(companyId: number, date: string): DayRoute[] {
    const routes = prepare(this.db, `SELECT * FROM routes WHERE company_id = ? AND date = ? AND status IN ('planned', 'active') ORDER BY id`)
      .all(companyId, date) as RouteRow[];
    if (routes.length === 0) return [];
    const stops = prepare(this.db, `SELECT * FROM route_stops WHERE route_id IN (SELECT value FROM json_each(?)) ORDER BY route_id, position`)
      .all(JSON.stringify(routes.map((r) => r.id))) as StopRow[];
    return dayRoutesFromRows(routes, stops);
  }

  lastPositions(companyId: number, vehicleIds: number[], notAfter: string): DayPosition[] {
    const latest = prepare(this.db,
      `SELECT vehicle_id AS "vehicleId", lat, lon, timestamp FROM vehicle_positions
        WHERE company_id = ? AND vehicle_id = ? AND timestamp <= ? ORDER BY timestamp DESC, id DESC LIMIT 1`,
    );
    return vehicleIds.map((id) => latest.get(companyId, id, notAfter) as DayPosition | undefined).filter((p): p is DayPosition => p !== undefined);
  }

  newOrderIdsOn(companyId: number, date: string): number[] {
    const rows = prepare(this.db, `SELECT id FROM orders WHERE company_id = ? AND status = 'new' AND delivery_date = ? ORDER BY id`)
      .all(companyId, date) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  /** A re-plan's new stop lists: kept stops are moved in two steps (the positions are unique per route). */
  private rewriteRoutes(rewrites: RouteRewrite[], at: string): void {
    if (rewrites.length === 0) return;
    const ids = rewrites.map((r) => r.routeId);
    const current = prepare(this.db, `SELECT id, route_id FROM route_stops WHERE route_id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as Array<{ id: number; route_id: number }>;
    const { kept, added, dropped } = rewritePlan(rewrites, current);
    const del = prepare(this.db, `DELETE FROM route_stops WHERE id = ?`);
    for (const id of dropped) del.run(id);
    const park = prepare(this.db, `UPDATE route_stops SET position = -id WHERE id = ?`);
    for (const k of kept) park.run(k.id);
    const move = prepare(this.db, `UPDATE route_stops SET route_id = ?, position = ?, planned_arrival_at = ?, planned_departure_at = ? WHERE id = ?`);
    for (const k of kept) move.run(k.routeId, k.stop.position, k.stop.plannedArrivalAt, k.stop.plannedDepartureAt, k.id);
    const addStop = prepare(this.db,
      `INSERT INTO route_stops (route_id, position, stop_type, order_id, order_external_id, warehouse_id, address, lat, lon,
         planned_arrival_at, planned_departure_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const { routeId, stop: s } of added) {
      addStop.run(routeId, s.position, s.stopType, s.orderId, s.orderExternalId, s.warehouseId, s.address, s.lat, s.lon, s.plannedArrivalAt, s.plannedDepartureAt);
    }
    const route = prepare(this.db,
      `UPDATE routes SET planned_mileage_km = ?, planned_duration_min = ?, total_weight_kg = ?, total_volume_m3 = ?, breaks = ?,
         status = COALESCE(?, status), actual_end_at = CASE WHEN ? = 'completed' THEN ? ELSE actual_end_at END, updated_at = ? WHERE id = ?`,
    );
    for (const r of rewrites) {
      route.run(r.plannedMileageKm, r.plannedDurationMin, r.totalWeightKg, r.totalVolumeM3, JSON.stringify(r.breaks), r.status ?? null, r.status ?? null, at, at, r.routeId);
    }
  }

  /**
   * One write transaction around `fn` (BEGIN IMMEDIATE, or a savepoint inside an open one). The
   * connection is the store's only one and better-sqlite3 is synchronous, so the primitives run
   * at once; while `fn` awaits them nothing else may use this connection: the storage port's gate
   * (src/store/sqlite/port.ts) holds every other call until the transaction ends.
   */
  async commitTransaction<T>(fn: (tx: PlanCommitTx) => Promise<T>): Promise<T> {
    const nested = this.db.inTransaction;
    const savepoint = `commit_plan_${++savepoints}`;
    this.db.exec(nested ? `SAVEPOINT ${savepoint}` : 'BEGIN IMMEDIATE');
    try {
      const result = await fn(this.commitTx);
      this.db.exec(nested ? `RELEASE ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec(nested ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
      throw error;
    }
  }

  /** The commit primitives on this connection (inside commitTransaction). */
  private readonly commitTx: PlanCommitTx = {
    jobLease: (jobId) => {
      const row = prepare(this.db, `SELECT status, lease_owner FROM planning_jobs WHERE id = ?`).get(jobId) as
        | { status: JobStatus; lease_owner: string | null }
        | undefined;
      return row && { status: row.status, owner: row.lease_owner };
    },
    // BEGIN IMMEDIATE holds the database's write lock for the whole transaction
    lockRoutes: () => {},
    ordersAtCommit: (companyId, ids) => this.getOrdersByIds(companyId, ids).map((o) => ({ id: o.id, status: o.status, version: o.version ?? 0, externalId: o.externalId })),
    vehicleIdsWithRouteOn: (companyId, date) => this.vehicleIdsWithRouteOn(companyId, date),
    insertRoute: (route, at) => this.insertRoute(route, at),
    markInRoute: (_companyId, orderIds, at) => {
      const setStatus = prepare(this.db, `UPDATE orders SET status = 'in_route', updated_at = ?, version = version + 1 WHERE id = ?`);
      const addHistory = prepare(this.db, `INSERT INTO order_status_history (order_id, status, previous_status, at) VALUES (?, 'in_route', 'new', ?)`);
      for (const id of orderIds) {
        setStatus.run(at, id);
        addHistory.run(id, at);
      }
    },
    openRoutesOn: (companyId, date) => this.openRoutesOn(companyId, date),
    rewriteRoutes: (_companyId, rewrites, at) => this.rewriteRoutes(rewrites, at),
    markNew: (_companyId, orderIds, at) => {
      const setStatus = prepare(this.db, `UPDATE orders SET status = 'new', updated_at = ?, version = version + 1 WHERE id = ? AND status = 'in_route'`);
      const addHistory = prepare(this.db, `INSERT INTO order_status_history (order_id, status, previous_status, at) VALUES (?, 'new', 'in_route', ?)`);
      for (const id of orderIds) if (setStatus.run(at, id).changes === 1) addHistory.run(id, at);
    },
    finishJob: (jobId, result, at) => {
      prepare(this.db, `UPDATE planning_jobs SET status = 'done', result = ?, error = '', updated_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?`)
        .run(JSON.stringify(result), at, jobId);
      return this.jobById(jobId)!;
    },
    publish: (companyId, event, data) => this.publish(companyId, event, data),
  };

  /** Writes an event's webhook deliveries in the open transaction; this store keeps none (OutboxPlanningStore does). */
  protected publish(_companyId: number, _event: PlanningEvent, _data: unknown): void {}

  /** Inserts a route (status planned) and its stops (status pending); returns the route id. */
  insertRoute(r: NewRoute, at: string): number {
    const { lastInsertRowid } = prepare(this.db,
        `INSERT INTO routes (company_id, job_id, vehicle_id, name, date, planned_mileage_km, planned_duration_min,
           total_weight_kg, total_volume_m3, created_at, updated_at, breaks)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.companyId, r.jobId, r.vehicleId, r.name, r.date, r.plannedMileageKm, r.plannedDurationMin, r.totalWeightKg, r.totalVolumeM3, at, at, JSON.stringify(r.breaks ?? []));
    const routeId = Number(lastInsertRowid);
    const addStop = prepare(this.db,
      `INSERT INTO route_stops (route_id, position, stop_type, order_id, order_external_id, warehouse_id, address, lat, lon,
         planned_arrival_at, planned_departure_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const s of r.stops) {
      addStop.run(routeId, s.position, s.stopType, s.orderId, s.orderExternalId, s.warehouseId, s.address, s.lat, s.lon, s.plannedArrivalAt, s.plannedDepartureAt);
    }
    return routeId;
  }

  private jobById(id: number): JobRecord | undefined {
    const row = prepare(this.db, `SELECT * FROM planning_jobs WHERE id = ?`).get(id) as JobRow | undefined;
    return row && jobFromRow(row);
  }
}
