/**
 * Routes, stops and vehicle positions as the read API and the dispatch API see them. Planning
 * writes routes and stops (a plan commit, src/jobs/commit.ts); this repository reads them, and makes
 * the dispatch changes: vehicle assignment, route start, stop status (with the order following in
 * the same transaction), positions. Every method is scoped by company.
 *
 * Migration 3 (migrations.ts) adds the dispatch side of a route: `assigned_vehicle_id` (set only by the dispatch
 * API; `has_vehicle` is true exactly when it is set) and when it was assigned. `vehicle_id` stays
 * the vehicle that makes the route's date busy for planning: planning sets it to the vehicle the
 * route was built for, and an assignment moves it to the assigned vehicle.
 */
import type { Db } from './db.js';
import type { NewPosition, OrderStatus, PositionRow, RouteListQuery, RouteRow, RouteStatus, StopRow, StopStatus } from '../types.js';

/** An order status change written by a stop status change (the payload of the event). */
export interface OrderChange {
  order_id: number;
  external_id: string | null;
  status: OrderStatus;
  previous_status: OrderStatus;
  at: string;
}

export class RouteRepository {
  constructor(private readonly db: Db) {}

  get(companyId: number, id: number): RouteRow | undefined {
    if (!Number.isSafeInteger(id)) return undefined;
    return this.db.prepare('SELECT * FROM routes WHERE company_id = ? AND id = ?').get(companyId, id) as RouteRow | undefined;
  }

  /** A page of the company's routes, newest first, and the count of the filtered set. */
  list(companyId: number, query: RouteListQuery): { count: number; rows: RouteRow[] } {
    const where = ['company_id = ?'];
    const args: unknown[] = [companyId];
    if (query.status !== undefined) {
      where.push('status = ?');
      args.push(query.status);
    }
    if (query.date !== undefined) {
      where.push('date = ?');
      args.push(query.date);
    }
    const clause = where.join(' AND ');
    const count = (this.db.prepare(`SELECT COUNT(*) AS n FROM routes WHERE ${clause}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM routes WHERE ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...args, query.limit, query.offset) as RouteRow[];
    return { count, rows };
  }

  stops(routeId: number): StopRow[] {
    return this.db.prepare('SELECT * FROM route_stops WHERE route_id = ? ORDER BY position').all(routeId) as StopRow[];
  }

  /** The stop and its route, when the route belongs to the company. */
  getStop(companyId: number, stopId: number): { stop: StopRow; route: RouteRow } | undefined {
    if (!Number.isSafeInteger(stopId)) return undefined;
    const stop = this.db.prepare('SELECT * FROM route_stops WHERE id = ?').get(stopId) as StopRow | undefined;
    if (!stop) return undefined;
    const route = this.get(companyId, stop.route_id);
    return route && { stop, route };
  }

  /** Another route (not cancelled) of the company that holds the vehicle on the date. */
  routeHoldingVehicle(companyId: number, vehicleId: number, date: string, exceptRouteId: number): RouteRow | undefined {
    return this.db
      .prepare(
        `SELECT * FROM routes WHERE company_id = ? AND date = ? AND id <> ? AND status <> 'cancelled'
           AND (vehicle_id = ? OR assigned_vehicle_id = ?) ORDER BY id LIMIT 1`,
      )
      .get(companyId, date, exceptRouteId, vehicleId, vehicleId) as RouteRow | undefined;
  }

  /** Moves a planned (not dispatcher-assigned) route to another vehicle, or to none. */
  setPlannedVehicle(routeId: number, vehicleId: number | null, at: string): void {
    this.db.prepare('UPDATE routes SET vehicle_id = ?, updated_at = ? WHERE id = ? AND assigned_vehicle_id IS NULL').run(vehicleId, at, routeId);
  }

  assignVehicle(routeId: number, vehicleId: number, at: string): void {
    this.db
      .prepare('UPDATE routes SET assigned_vehicle_id = ?, vehicle_id = ?, vehicle_assigned_at = ?, updated_at = ? WHERE id = ?')
      .run(vehicleId, vehicleId, at, at, routeId);
  }

  setStatus(routeId: number, status: RouteStatus, at: string, stamp?: { actual_start_at?: string; actual_end_at?: string }): void {
    const sets = ['status = @status', 'updated_at = @at'];
    if (stamp?.actual_start_at !== undefined) sets.push('actual_start_at = @actual_start_at');
    if (stamp?.actual_end_at !== undefined) sets.push('actual_end_at = @actual_end_at');
    this.db.prepare(`UPDATE routes SET ${sets.join(', ')} WHERE id = @id`).run({ id: routeId, status, at, ...stamp });
  }

  updateStop(stopId: number, change: { status: StopStatus; actual_arrival_at: string | null; actual_departure_at: string | null }): void {
    this.db
      .prepare('UPDATE route_stops SET status = @status, actual_arrival_at = @actual_arrival_at, actual_departure_at = @actual_departure_at WHERE id = @id')
      .run({ id: stopId, ...change });
  }

  /** Order stops of the route not yet in a final status. */
  openOrderStops(routeId: number): number {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM route_stops WHERE route_id = ? AND stop_type = 'order'
           AND status NOT IN ('confirmed', 'rejected', 'skipped')`,
      )
      .get(routeId) as { n: number };
    return row.n;
  }

  /** Order stops: total and final (confirmed, rejected, skipped). */
  progress(routeId: number): { total: number; completed: number } {
    return this.db
      .prepare(
        `SELECT COUNT(*) AS total,
                COALESCE(SUM(CASE WHEN status IN ('confirmed', 'rejected', 'skipped') THEN 1 ELSE 0 END), 0) AS completed
           FROM route_stops WHERE route_id = ? AND stop_type = 'order'`,
      )
      .get(routeId) as { total: number; completed: number };
  }

  addPositions(companyId: number, vehicleId: number, positions: NewPosition[], receivedAt: string): PositionRow[] {
    const insert = this.db.prepare(
      `INSERT INTO vehicle_positions (company_id, vehicle_id, lat, lon, timestamp, speed_kmh, heading_deg, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const ids = this.db.transaction(() =>
      positions.map((p) => Number(insert.run(companyId, vehicleId, p.lat, p.lon, p.timestamp, p.speed_kmh, p.heading_deg, receivedAt).lastInsertRowid)),
    )();
    const get = this.db.prepare('SELECT * FROM vehicle_positions WHERE id = ?');
    return ids.map((id) => get.get(id) as PositionRow);
  }

  /** Positions of the vehicle the server received at or after `since` (the per-minute quota). */
  countPositionsSince(vehicleId: number, since: string): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM vehicle_positions WHERE received_at >= ? AND vehicle_id = ?').get(since, vehicleId) as { n: number }).n;
  }

  /**
   * The vehicle's latest position (by its own timestamp, then arrival order) among those the
   * server received at or after `since` (default: all).
   */
  lastPosition(companyId: number, vehicleId: number, since = '', notAfter = '9999'): PositionRow | undefined {
    // `notAfter` (now plus the clock skew the dispatch API allows): a position stamped far ahead
    // by a bad device clock cannot stay "latest" for ever
    return this.db
      .prepare(
        `SELECT * FROM vehicle_positions WHERE company_id = ? AND vehicle_id = ? AND received_at >= ? AND timestamp <= ?
         ORDER BY timestamp DESC, id DESC LIMIT 1`,
      )
      .get(companyId, vehicleId, since, notAfter) as PositionRow | undefined;
  }

  /** Deletes up to `limit` positions the server received before `before`; returns how many. */
  prunePositions(before: string, limit = 5_000): number {
    return this.db
      .prepare(`DELETE FROM vehicle_positions WHERE id IN (SELECT id FROM vehicle_positions WHERE received_at < ? ORDER BY received_at LIMIT ?)`)
      .run(before, limit).changes;
  }
}
