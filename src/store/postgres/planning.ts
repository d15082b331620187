/**
 * The planning job layer's port (src/jobs/ports.ts) on PostgreSQL: the answers of
 * SqlitePlanningStore (src/store/sqlite/planning.ts), safe with any number of processes on one database.
 *
 * - claimJob is ONE statement: the next claimable job (a running one whose lease ran out first,
 *   then the company whose last claim is oldest via planning_turns, then FIFO) is locked
 *   FOR UPDATE SKIP LOCKED and leased; two processes claiming at once get two different jobs.
 *   Turns come from a sequence, so they ascend across processes without a read of MAX(turn).
 * - Every status write by a lease holder (updateJob with owner, renewLease, releaseJob) checks the
 *   lease in the same UPDATE's WHERE; a plan commit locks the job row (FOR UPDATE) and checks it first.
 * - createJob takes the company's advisory lock (locks.ts) for the count of unfinished jobs, the
 *   Idempotency-Key lookup and the insert: the cap and the key hold across processes.
 * - commitTransaction offers the primitives of a plan commit on one transaction; the rules are
 *   src/jobs/commit.ts: the job row locked FOR UPDATE, the company's routes lock (the busy-vehicle
 *   check and the dispatch API's assignment cannot interleave), the orders locked FOR UPDATE and
 *   checked still new and unchanged, routes and stops inserted, orders in_route with history, the
 *   job done; and the publish hook (below) writes the webhook rows in that same transaction.
 *
 * The publish hook (setPublisher, or PgStore.open's `publish`): called inside a plan commit's
 * transaction (each order change as `order.status_changed`, then `planning_job.finished` with the
 * job's view) and inside a failed job's updateJob, with the transaction's repositories, as
 * OutboxPlanningStore does on SQLite. If it throws, nothing of the commit is written.
 */
import { dayRoutesFromRows, jobFromRow, orderFromRow, rewritePlan, vehicleFromRow, type JobRow, type OrderRow, type VehicleRow } from '../planning-rows.js';
import type { RouteRow, StopRow } from '../types.js';
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
import { toJobView } from '../../jobs/view.js';
import type { Repositories } from '../port.js';
import type { Conn } from './db.js';
import { lockAll, lockKey } from './locks.js';
import { safeIds } from './util.js';

export type { PlanningEvent };
/** Writes an event's webhook deliveries with the transaction's repositories (tx.webhooks, tx.outbox). */
export type PlanningPublisher = (tx: Repositories, companyId: number, event: PlanningEvent, data: unknown) => Promise<void>;

/** Unfinished jobs are bounded by the per-company cap times the companies; this bounds the read anyway. */
const MAX_UNFINISHED = 100_000;
/** Ids one lookup may carry (a planning request names at most a few thousand orders). */
const MAX_IDS = 100_000;

function bounded<T>(list: readonly T[]): readonly T[] {
  if (list.length > MAX_IDS) throw new RangeError(`at most ${MAX_IDS} ids in one lookup`);
  return list;
}

export class PgPlanningStore implements PlanningStore {
  private publisher: PlanningPublisher | undefined;

  constructor(
    private readonly db: Conn,
    /** The repositories bound to a transaction (for the publish hook). */
    private readonly repositoriesOf: (tx: Conn) => Repositories,
    publish?: PlanningPublisher,
  ) {
    this.publisher = publish;
  }

  /** Idempotency-Keys recorded before `before` (ISO), removed in batches of `batch`; how many. */
  async pruneIdempotencyKeys(before: string, batch = 5_000): Promise<number> {
    let removed = 0;
    for (;;) {
      const n = await this.db.run(
        `DELETE FROM idempotency_keys WHERE (company_id, key) IN (
           SELECT company_id, key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
        [before, batch],
      );
      removed += n;
      if (n < batch) return removed;
    }
  }

  /** Sets (or clears) the hook that writes the job layer's webhooks inside its transactions. */
  setPublisher(publish: PlanningPublisher | undefined): void {
    this.publisher = publish;
  }

  async createJob(companyId: number, input: JobInput, at: string, maxUnfinished?: number, idempotency?: IdempotencyKey): Promise<JobRecord> {
    return this.db.atomic(async (tx) => {
      await lockAll(tx, [lockKey.planningJobs(companyId)]);
      if (idempotency) {
        const since = new Date(Date.parse(at) - IDEMPOTENCY_WINDOW_MS).toISOString();
        const used = await this.findIdempotentOn(tx, companyId, idempotency.key, since);
        if (used) throw used.fingerprint === idempotency.fingerprint ? new IdempotentReplayError(used.jobId) : new IdempotencyKeyReusedError();
        await tx.run('DELETE FROM idempotency_keys WHERE company_id = $1 AND key = $2', [companyId, idempotency.key]);
      }
      if (maxUnfinished !== undefined) {
        const { n } = (await tx.one<{ n: number }>(
          `SELECT COUNT(*) AS n FROM planning_jobs WHERE company_id = $1 AND status IN ('queued', 'running')`,
          [companyId],
        ))!;
        if (n >= maxUnfinished) throw new TooManyJobsError(maxUnfinished);
      }
      const row = (await tx.one<JobRow>(
        `INSERT INTO planning_jobs (company_id, status, input, created_at, updated_at) VALUES ($1, 'queued', $2, $3, $3) RETURNING *`,
        [companyId, JSON.stringify(input), at],
      ))!;
      if (idempotency) {
        await tx.run('INSERT INTO idempotency_keys (company_id, key, fingerprint, job_id, created_at) VALUES ($1, $2, $3, $4, $5)', [
          companyId,
          idempotency.key,
          idempotency.fingerprint,
          row.id,
          at,
        ]);
      }
      return jobFromRow(row);
    });
  }

  findIdempotent(companyId: number, key: string, since: string): Promise<{ jobId: number; fingerprint: string } | undefined> {
    return this.findIdempotentOn(this.db, companyId, key, since);
  }

  private async findIdempotentOn(c: Conn, companyId: number, key: string, since: string) {
    const row = await c.one<{ job_id: number; fingerprint: string }>(
      'SELECT job_id, fingerprint FROM idempotency_keys WHERE company_id = $1 AND key = $2 AND created_at >= $3',
      [companyId, key, since],
    );
    return row && { jobId: row.job_id, fingerprint: row.fingerprint };
  }

  async getJob(companyId: number, jobId: number): Promise<JobRecord | undefined> {
    if (!Number.isSafeInteger(jobId)) return undefined;
    const row = await this.db.one<JobRow>('SELECT * FROM planning_jobs WHERE id = $1 AND company_id = $2', [jobId, companyId]);
    return row && jobFromRow(row);
  }

  async updateJob(jobId: number, change: { status: 'running' } | { status: 'failed'; error: string }, at: string, owner?: string): Promise<JobRecord> {
    const write = async (tx: Conn): Promise<JobRecord> => {
      const error = change.status === 'failed' ? change.error : '';
      if (owner !== undefined) {
        const row = await tx.one<JobRow>(
          `UPDATE planning_jobs SET status = $1, error = $2, result = NULL, updated_at = $3, lease_owner = NULL, lease_until = NULL
           WHERE id = $4 AND status = 'running' AND lease_owner = $5 RETURNING *`,
          [change.status, error, at, jobId, owner],
        );
        if (!row) throw new LeaseLostError(jobId);
        return jobFromRow(row);
      }
      const row = await tx.one<JobRow>('UPDATE planning_jobs SET status = $1, error = $2, result = NULL, updated_at = $3 WHERE id = $4 RETURNING *', [
        change.status,
        error,
        at,
        jobId,
      ]);
      if (!row) throw new Error(`Planning job ${jobId} does not exist.`);
      return jobFromRow(row);
    };
    const publish = this.publisher;
    if (change.status !== 'failed' || !publish) return write(this.db);
    return this.db.atomic(async (tx) => {
      const job = await write(tx);
      await publish(this.repositoriesOf(tx), job.companyId, 'planning_job.finished', toJobView(job));
      return job;
    });
  }

  async claimJob(owner: string, at: string, leaseUntil: string): Promise<JobRecord | undefined> {
    // one statement: pick (skipping rows another claim has locked), lease, and take the company's turn
    const row = await this.db.one<JobRow>(
      `WITH pick AS (
         SELECT j.id, j.company_id FROM planning_jobs j LEFT JOIN planning_turns t ON t.company_id = j.company_id
          WHERE j.status = 'queued' OR (j.status = 'running' AND (j.lease_until IS NULL OR j.lease_until < $2))
          ORDER BY (j.status = 'running') DESC, COALESCE(t.turn, -1), j.id
          LIMIT 1
          FOR UPDATE OF j SKIP LOCKED),
       claimed AS (
         UPDATE planning_jobs j SET status = 'running', lease_owner = $1, lease_until = $3, attempts = j.attempts + 1, updated_at = $2
           FROM pick WHERE j.id = pick.id
         RETURNING j.*),
       turn AS (
         INSERT INTO planning_turns (company_id, turn) SELECT company_id, nextval('planning_turn_seq') FROM claimed
         ON CONFLICT (company_id) DO UPDATE SET turn = excluded.turn)
       SELECT * FROM claimed`,
      [owner, at, leaseUntil],
    );
    return row && jobFromRow(row);
  }

  async renewLease(jobId: number, owner: string, leaseUntil: string): Promise<boolean> {
    const n = await this.db.run(`UPDATE planning_jobs SET lease_until = $1 WHERE id = $2 AND status = 'running' AND lease_owner = $3`, [
      leaseUntil,
      jobId,
      owner,
    ]);
    return n === 1;
  }

  async releaseJob(jobId: number, owner: string, at: string): Promise<boolean> {
    const n = await this.db.run(
      `UPDATE planning_jobs SET lease_owner = NULL, lease_until = NULL, attempts = GREATEST(attempts - 1, 0), updated_at = $1
       WHERE id = $2 AND status = 'running' AND lease_owner = $3`,
      [at, jobId, owner],
    );
    return n === 1;
  }

  async listUnfinishedJobs(): Promise<JobRecord[]> {
    const rows = await this.db.rows<JobRow>(`SELECT * FROM planning_jobs WHERE status IN ('queued', 'running') ORDER BY id LIMIT $1`, [MAX_UNFINISHED]);
    return rows.map(jobFromRow);
  }

  async getCompany(companyId: number): Promise<Company | undefined> {
    if (!Number.isSafeInteger(companyId)) return undefined;
    return this.db.one<Company>('SELECT id, timezone, speed_factor AS "speedFactor" FROM companies WHERE id = $1', [companyId]);
  }

  getOrdersByIds(companyId: number, ids: number[]): Promise<PlanningOrder[]> {
    return this.ordersByIdsOn(this.db, companyId, ids, false);
  }

  private async ordersByIdsOn(c: Conn, companyId: number, ids: number[], forUpdate: boolean): Promise<PlanningOrder[]> {
    const wanted = safeIds(bounded(ids));
    if (wanted.length === 0) return [];
    const rows = await c.rows<OrderRow>(
      `SELECT * FROM orders WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id${forUpdate ? ' FOR UPDATE' : ''}`,
      [companyId, wanted],
    );
    return rows.map(orderFromRow);
  }

  async getOrdersByExternalIds(companyId: number, externalIds: string[]): Promise<PlanningOrder[]> {
    if (externalIds.length === 0) return [];
    const rows = await this.db.rows<OrderRow>('SELECT * FROM orders WHERE company_id = $1 AND external_id = ANY($2::text[]) ORDER BY id', [
      companyId,
      bounded(externalIds),
    ]);
    return rows.map(orderFromRow);
  }

  async getVehiclesByIds(companyId: number, ids: number[]): Promise<PlanningVehicle[]> {
    const wanted = safeIds(bounded(ids));
    if (wanted.length === 0) return [];
    const rows = await this.db.rows<VehicleRow>('SELECT * FROM vehicles WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id', [companyId, wanted]);
    return rows.map(vehicleFromRow);
  }

  async listActiveVehicles(companyId: number): Promise<PlanningVehicle[]> {
    const rows = await this.db.rows<VehicleRow>('SELECT * FROM vehicles WHERE company_id = $1 AND active ORDER BY id LIMIT $2', [companyId, MAX_IDS]);
    return rows.map(vehicleFromRow);
  }

  async getWarehousesByIds(companyId: number, ids: number[]): Promise<Warehouse[]> {
    const wanted = safeIds(bounded(ids));
    if (wanted.length === 0) return [];
    return this.db.rows<Warehouse>(
      `SELECT id, company_id AS "companyId", name, address, lat, lon FROM warehouses
        WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id`,
      [companyId, wanted],
    );
  }

  vehicleIdsWithRouteOn(companyId: number, date: string): Promise<number[]> {
    return this.vehicleIdsWithRouteOnOn(this.db, companyId, date);
  }

  private async vehicleIdsWithRouteOnOn(c: Conn, companyId: number, date: string): Promise<number[]> {
    const rows = await c.rows<{ id: number }>(
      `SELECT DISTINCT vehicle_id AS id FROM routes
        WHERE company_id = $1 AND date = $2 AND status <> 'cancelled' AND vehicle_id IS NOT NULL ORDER BY vehicle_id LIMIT $3`,
      [companyId, date, MAX_IDS],
    );
    return rows.map((r) => r.id);
  }

  openRoutesOn(companyId: number, date: string): Promise<DayRoute[]> {
    return this.openRoutesOnOn(this.db, companyId, date, false);
  }

  /** With `lock`, the routes and their stops are locked FOR UPDATE: a stop status written meanwhile waits for the commit, or is seen by it. */
  private async openRoutesOnOn(c: Conn, companyId: number, date: string, lock: boolean): Promise<DayRoute[]> {
    const routes = await c.rows<RouteRow>(
      `SELECT * FROM routes WHERE company_id = $1 AND date = $2 AND status IN ('planned', 'active') ORDER BY id LIMIT $3${lock ? ' FOR UPDATE' : ''}`,
      [companyId, date, MAX_IDS],
    );
    if (routes.length === 0) return [];
    const stops = await c.rows<StopRow>(
      `SELECT * FROM route_stops WHERE route_id = ANY($1::bigint[]) ORDER BY route_id, position LIMIT $2${lock ? ' FOR UPDATE' : ''}`,
      [routes.map((r) => r.id), MAX_IDS],
    );
    return dayRoutesFromRows(routes, stops);
  }

  async lastPositions(companyId: number, vehicleIds: number[], notAfter: string): Promise<DayPosition[]> {
    const wanted = safeIds(bounded(vehicleIds));
    if (wanted.length === 0) return [];
    return this.db.rows<DayPosition>(
      `SELECT p.vehicle_id AS "vehicleId", p.lat, p.lon, p.timestamp FROM unnest($2::bigint[]) AS v(id)
         CROSS JOIN LATERAL (SELECT * FROM vehicle_positions WHERE company_id = $1 AND vehicle_id = v.id AND timestamp <= $3
                             ORDER BY timestamp DESC, id DESC LIMIT 1) p`,
      [companyId, wanted, notAfter],
    );
  }

  async newOrderIdsOn(companyId: number, date: string): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      `SELECT id FROM orders WHERE company_id = $1 AND status = 'new' AND delivery_date = $2 ORDER BY id LIMIT $3`,
      [companyId, date, MAX_IDS],
    );
    return rows.map((r) => Number(r.id));
  }

  /** A re-plan's new stop lists: kept stops are parked at -id first (the positions are unique per route). */
  private async rewriteRoutesOn(tx: Conn, rewrites: RouteRewrite[], at: string): Promise<void> {
    if (rewrites.length === 0) return;
    const current = await tx.rows<{ id: number; route_id: number }>(`SELECT id, route_id FROM route_stops WHERE route_id = ANY($1::bigint[])`, [
      rewrites.map((r) => r.routeId),
    ]);
    const { kept, added, dropped } = rewritePlan(
      rewrites,
      current.map((s) => ({ id: Number(s.id), route_id: Number(s.route_id) })),
    );
    if (dropped.length > 0) await tx.run(`DELETE FROM route_stops WHERE id = ANY($1::bigint[])`, [dropped]);
    if (kept.length > 0) {
      await tx.run(`UPDATE route_stops SET position = -id WHERE id = ANY($1::bigint[])`, [kept.map((k) => k.id)]);
      await tx.run(
        `UPDATE route_stops AS s SET route_id = k.route_id, position = k.position, planned_arrival_at = k.arrival, planned_departure_at = k.departure
           FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::text[], $5::text[]) AS k(id, route_id, position, arrival, departure)
          WHERE s.id = k.id`,
        [kept.map((k) => k.id), kept.map((k) => k.routeId), kept.map((k) => k.stop.position), kept.map((k) => k.stop.plannedArrivalAt), kept.map((k) => k.stop.plannedDepartureAt)],
      );
    }
    if (added.length > 0) await insertStops(tx, added);
    for (const r of rewrites) {
      await tx.run(
        `UPDATE routes SET planned_mileage_km = $1, planned_duration_min = $2, total_weight_kg = $3, total_volume_m3 = $4, breaks = $5,
           status = COALESCE($6::text, status), actual_end_at = CASE WHEN $6::text = 'completed' THEN $7 ELSE actual_end_at END, updated_at = $7 WHERE id = $8`,
        [r.plannedMileageKm, r.plannedDurationMin, r.totalWeightKg, r.totalVolumeM3, JSON.stringify(r.breaks), r.status ?? null, at, r.routeId],
      );
    }
  }

  /** One transaction (one pooled client) around `fn`, with the commit primitives bound to it. */
  commitTransaction<T>(fn: (tx: PlanCommitTx) => Promise<T>): Promise<T> {
    return this.db.atomic((tx) => fn(this.commitTxOn(tx)));
  }

  private commitTxOn(tx: Conn): PlanCommitTx {
    const publish = this.publisher;
    let repos: Repositories | undefined;
    return {
      jobLease: async (jobId) => {
        const row = await tx.one<{ status: JobStatus; lease_owner: string | null }>('SELECT status, lease_owner FROM planning_jobs WHERE id = $1 FOR UPDATE', [jobId]);
        return row && { status: row.status, owner: row.lease_owner };
      },
      // the busy-vehicle check and the dispatch API's assignment cannot interleave
      lockRoutes: (companyId) => lockAll(tx, [lockKey.companyRoutes(companyId)]),
      ordersAtCommit: async (companyId, ids) =>
        (await this.ordersByIdsOn(tx, companyId, ids, true)).map((o) => ({ id: o.id, status: o.status, version: o.version ?? 0, externalId: o.externalId })),
      vehicleIdsWithRouteOn: (companyId, date) => this.vehicleIdsWithRouteOnOn(tx, companyId, date),
      insertRoute: (route, at) => this.insertRoute(route, at, tx),
      markInRoute: async (companyId, orderIds, at) => {
        await tx.run(`UPDATE orders SET status = 'in_route', updated_at = $1, version = version + 1 WHERE company_id = $2 AND id = ANY($3::bigint[])`, [
          at,
          companyId,
          orderIds,
        ]);
        await tx.run(
          `INSERT INTO order_status_history (order_id, status, previous_status, at)
           SELECT o.id, 'in_route', 'new', $1 FROM unnest($2::bigint[]) WITH ORDINALITY AS o(id, n) ORDER BY o.n`,
          [at, orderIds],
        );
      },
      openRoutesOn: (companyId, date) => this.openRoutesOnOn(tx, companyId, date, true),
      rewriteRoutes: (_companyId, rewrites, at) => this.rewriteRoutesOn(tx, rewrites, at),
      markNew: async (companyId, orderIds, at) => {
        if (orderIds.length === 0) return;
        await tx.run(
          `WITH moved AS (
             UPDATE orders SET status = 'new', updated_at = $1, version = version + 1
              WHERE company_id = $2 AND id = ANY($3::bigint[]) AND status = 'in_route' RETURNING id)
           INSERT INTO order_status_history (order_id, status, previous_status, at)
           SELECT o.id, 'new', 'in_route', $1 FROM unnest($3::bigint[]) WITH ORDINALITY AS o(id, n) WHERE o.id IN (SELECT id FROM moved) ORDER BY o.n`,
          [at, companyId, orderIds],
        );
      },
      finishJob: async (jobId, result, at) => {
        const row = (await tx.one<JobRow>(
          `UPDATE planning_jobs SET status = 'done', result = $1, error = '', updated_at = $2, lease_owner = NULL, lease_until = NULL
           WHERE id = $3 RETURNING *`,
          [JSON.stringify(result), at, jobId],
        ))!;
        return jobFromRow(row);
      },
      publish: async (companyId, event, data) => {
        if (publish) await publish((repos ??= this.repositoriesOf(tx)), companyId, event, data);
      },
    };
  }

  /** Inserts a route (status planned) and its stops (status pending, one statement); returns the route id. */
  async insertRoute(r: NewRoute, at: string, c: Conn = this.db): Promise<number> {
    const write = async (tx: Conn) => {
      const route = (await tx.one<{ id: number }>(
        `INSERT INTO routes (company_id, job_id, vehicle_id, name, date, planned_mileage_km, planned_duration_min,
           total_weight_kg, total_volume_m3, created_at, updated_at, breaks)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11) RETURNING id`,
        [r.companyId, r.jobId, r.vehicleId, r.name, r.date, r.plannedMileageKm, r.plannedDurationMin, r.totalWeightKg, r.totalVolumeM3, at, JSON.stringify(r.breaks ?? [])],
      ))!;
      if (r.stops.length > 0) await insertStops(tx, r.stops.map((stop) => ({ routeId: route.id, stop })));
      return route.id;
    };
    return c.atomic(write);
  }
}

type StopFields = Pick<NewRoute['stops'][number], 'position' | 'stopType' | 'orderId' | 'orderExternalId' | 'warehouseId' | 'address' | 'lat' | 'lon' | 'plannedArrivalAt' | 'plannedDepartureAt'>;

/** New stops (status pending) of one route or several, in one statement, in the order given. */
async function insertStops(tx: Conn, rows: Array<{ routeId: number; stop: StopFields }>): Promise<void> {
  const col = <K extends keyof StopFields>(k: K) => rows.map((r) => r.stop[k]);
  await tx.run(
    `INSERT INTO route_stops (route_id, position, stop_type, order_id, order_external_id, warehouse_id, address, lat, lon,
       planned_arrival_at, planned_departure_at)
     SELECT s.route_id, s.position, s.stop_type, s.order_id, s.order_external_id, s.warehouse_id, s.address, s.lat, s.lon, s.arrival, s.departure
       FROM unnest($1::bigint[], $2::int[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::text[], $8::float8[], $9::float8[], $10::text[], $11::text[])
         WITH ORDINALITY AS s(route_id, position, stop_type, order_id, order_external_id, warehouse_id, address, lat, lon, arrival, departure, n)
      ORDER BY s.n`,
    [
      rows.map((r) => r.routeId),
      col('position'),
      col('stopType'),
      col('orderId'),
      col('orderExternalId'),
      col('warehouseId'),
      col('address'),
      col('lat'),
      col('lon'),
      col('plannedArrivalAt'),
      col('plannedDepartureAt'),
    ],
  );
}
