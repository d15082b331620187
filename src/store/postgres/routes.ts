/**
 * Routes, stops and vehicle positions on PostgreSQL: the answers of src/store/sqlite/routes.ts.
 *
 * In a transaction, `routeHoldingVehicle` first takes the company's routes lock (locks.ts), the
 * one commitPlan holds while it checks and inserts routes: a dispatcher's assignment (check, then
 * assign, in one transaction) and a plan commit of the same company never interleave.
 */
import type { RoutesPort } from '../ports.js';
import type { NewPosition, PositionRow, RouteListQuery, RouteRow, RouteStatus, StopRow, StopStatus } from '../types.js';
import type { Conn } from './db.js';
import { lockAll, lockKey } from './locks.js';
import { safeId } from './util.js';

/** Stops of one route: its orders and depots (a route holds at most a few hundred). */
const MAX_STOPS = 10_000;
/** Positions one call may add (the dispatch API takes batches far smaller). */
const MAX_POSITIONS = 10_000;

export class PgRouteRepository implements RoutesPort {
  constructor(private readonly db: Conn) {}

  async get(companyId: number, id: number): Promise<RouteRow | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.one<RouteRow>('SELECT * FROM routes WHERE company_id = $1 AND id = $2', [companyId, id]);
  }

  async list(companyId: number, query: RouteListQuery): Promise<{ count: number; rows: RouteRow[] }> {
    const where = ['company_id = $1'];
    const args: unknown[] = [companyId];
    if (query.status !== undefined) {
      args.push(query.status);
      where.push(`status = $${args.length}`);
    }
    if (query.date !== undefined) {
      args.push(query.date);
      where.push(`date = $${args.length}`);
    }
    const clause = where.join(' AND ');
    const count = (await this.db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM routes WHERE ${clause}`, args))!.n;
    const rows = await this.db.rows<RouteRow>(
      `SELECT * FROM routes WHERE ${clause} ORDER BY id DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, query.limit, query.offset],
    );
    return { count, rows };
  }

  async stops(routeId: number): Promise<StopRow[]> {
    if (!safeId(routeId)) return [];
    return this.db.rows<StopRow>('SELECT * FROM route_stops WHERE route_id = $1 ORDER BY position LIMIT $2', [routeId, MAX_STOPS]);
  }

  async getStop(companyId: number, stopId: number): Promise<{ stop: StopRow; route: RouteRow } | undefined> {
    if (!safeId(stopId)) return undefined;
    const stop = await this.db.one<StopRow>('SELECT * FROM route_stops WHERE id = $1', [stopId]);
    if (!stop) return undefined;
    const route = await this.get(companyId, stop.route_id);
    return route && { stop, route };
  }

  async routeHoldingVehicle(companyId: number, vehicleId: number, date: string, exceptRouteId: number): Promise<RouteRow | undefined> {
    await lockAll(this.db, [lockKey.companyRoutes(companyId)]);
    return this.db.one<RouteRow>(
      `SELECT * FROM routes WHERE company_id = $1 AND date = $2 AND id <> $3 AND status <> 'cancelled'
         AND (vehicle_id = $4 OR assigned_vehicle_id = $4) ORDER BY id LIMIT 1`,
      [companyId, date, exceptRouteId, vehicleId],
    );
  }

  async setPlannedVehicle(routeId: number, vehicleId: number | null, at: string): Promise<void> {
    await this.db.run('UPDATE routes SET vehicle_id = $1, updated_at = $2 WHERE id = $3 AND assigned_vehicle_id IS NULL', [vehicleId, at, routeId]);
  }

  async assignVehicle(routeId: number, vehicleId: number, at: string): Promise<void> {
    await this.db.run('UPDATE routes SET assigned_vehicle_id = $1, vehicle_id = $1, vehicle_assigned_at = $2, updated_at = $2 WHERE id = $3', [
      vehicleId,
      at,
      routeId,
    ]);
  }

  async setStatus(routeId: number, status: RouteStatus, at: string, stamp?: { actual_start_at?: string; actual_end_at?: string }): Promise<void> {
    const sets = ['status = $2', 'updated_at = $3'];
    const args: unknown[] = [routeId, status, at];
    if (stamp?.actual_start_at !== undefined) {
      args.push(stamp.actual_start_at);
      sets.push(`actual_start_at = $${args.length}`);
    }
    if (stamp?.actual_end_at !== undefined) {
      args.push(stamp.actual_end_at);
      sets.push(`actual_end_at = $${args.length}`);
    }
    await this.db.run(`UPDATE routes SET ${sets.join(', ')} WHERE id = $1`, args);
  }

  async updateStop(stopId: number, change: { status: StopStatus; actual_arrival_at: string | null; actual_departure_at: string | null }): Promise<void> {
    await this.db.run('UPDATE route_stops SET status = $2, actual_arrival_at = $3, actual_departure_at = $4 WHERE id = $1', [
      stopId,
      change.status,
      change.actual_arrival_at,
      change.actual_departure_at,
    ]);
  }

  async openOrderStops(routeId: number): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM route_stops WHERE route_id = $1 AND stop_type = 'order'
         AND status NOT IN ('confirmed', 'rejected', 'skipped')`,
      [routeId],
    );
    return row!.n;
  }

  async progress(routeId: number): Promise<{ total: number; completed: number }> {
    const row = await this.db.one<{ total: number; completed: number }>(
      `SELECT COUNT(*) AS total,
              COALESCE(SUM(CASE WHEN status IN ('confirmed', 'rejected', 'skipped') THEN 1 ELSE 0 END), 0)::bigint AS completed
         FROM route_stops WHERE route_id = $1 AND stop_type = 'order'`,
      [routeId],
    );
    return { total: row!.total, completed: row!.completed };
  }

  /** Inserts the positions in one statement (in their order: ids ascend with it). */
  async addPositions(companyId: number, vehicleId: number, positions: NewPosition[], receivedAt: string): Promise<PositionRow[]> {
    if (positions.length === 0) return [];
    if (positions.length > MAX_POSITIONS) throw new RangeError(`addPositions: at most ${MAX_POSITIONS} positions at once`);
    const rows = await this.db.rows<PositionRow>(
      `INSERT INTO vehicle_positions (company_id, vehicle_id, lat, lon, timestamp, speed_kmh, heading_deg, received_at)
       SELECT $1, $2, p.lat, p.lon, p.ts, p.speed, p.heading, $3
         FROM unnest($4::float8[], $5::float8[], $6::text[], $7::float8[], $8::float8[]) WITH ORDINALITY AS p(lat, lon, ts, speed, heading, n)
         ORDER BY p.n
       RETURNING *`,
      [
        companyId,
        vehicleId,
        receivedAt,
        positions.map((p) => p.lat),
        positions.map((p) => p.lon),
        positions.map((p) => p.timestamp),
        positions.map((p) => p.speed_kmh),
        positions.map((p) => p.heading_deg),
      ],
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  async countPositionsSince(vehicleId: number, since: string): Promise<number> {
    const row = await this.db.one<{ n: string }>('SELECT COUNT(*) AS n FROM vehicle_positions WHERE received_at >= $1 AND vehicle_id = $2', [since, vehicleId]);
    return Number(row?.n ?? 0);
  }

  async lastPosition(companyId: number, vehicleId: number, since = '', notAfter = '9999'): Promise<PositionRow | undefined> {
    return this.db.one<PositionRow>(
      `SELECT * FROM vehicle_positions WHERE company_id = $1 AND vehicle_id = $2 AND received_at >= $3 AND timestamp <= $4
       ORDER BY timestamp DESC, id DESC LIMIT 1`,
      [companyId, vehicleId, since, notAfter],
    );
  }

  async prunePositions(before: string, limit = 5_000): Promise<number> {
    return this.db.run(
      `DELETE FROM vehicle_positions WHERE id IN (SELECT id FROM vehicle_positions WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
      [before, limit],
    );
  }
}
