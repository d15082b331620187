/**
 * Rows of the planning tables as both adapters read them, and their planning-port records
 * (src/jobs/ports.ts). Shared so that the two adapters map a row the same way.
 */
import type { DayRoute, DayStop, JobInput, JobRecord, JobResult, JobStatus, OrderStatus, PlanningOrder, PlanningVehicle, RouteRewrite } from '../jobs/ports.js';
import type { RouteRow, StopRow } from './types.js';

/** Rows of the planning tables as both stores return them (SQLite's flags are 0/1, PostgreSQL's booleans). */
export interface JobRow {
  id: number;
  company_id: number;
  status: JobStatus;
  input: string;
  result: string | null;
  error: string;
  created_at: string;
  updated_at: string;
  attempts: number;
  lease_owner: string | null;
}

export interface OrderRow {
  id: number;
  company_id: number;
  external_id: string | null;
  status: OrderStatus;
  address: string;
  lat_e6: number | null;
  lon_e6: number | null;
  weight_g: number;
  volume_l: number;
  service_time: number;
  time_window_start: string | null;
  time_window_end: string | null;
  delivery_date: string;
  required_features: string;
  updated_at: string;
  version: number;
}

export interface VehicleRow {
  id: number;
  company_id: number;
  name: string;
  active: number | boolean;
  warehouse_id: number;
  capacity_kg: number;
  capacity_m3: number;
  shift_start: string | null;
  shift_end: string | null;
  max_distance_km: number | null;
  max_duration_min: number | null;
  max_orders: number | null;
  features: string;
  max_trips: number;
  reload_min: number;
  breaks?: string;
}

export const jobFromRow = (r: JobRow): JobRecord => ({
  id: r.id,
  companyId: r.company_id,
  status: r.status,
  input: JSON.parse(r.input) as JobInput,
  result: r.result === null ? null : (JSON.parse(r.result) as JobResult),
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  attempts: r.attempts,
});

export const orderFromRow = (r: OrderRow): PlanningOrder => ({
  id: r.id,
  companyId: r.company_id,
  externalId: r.external_id,
  status: r.status,
  address: r.address,
  lat: r.lat_e6 === null ? null : r.lat_e6 / 1e6,
  lon: r.lon_e6 === null ? null : r.lon_e6 / 1e6,
  weightKg: r.weight_g / 1000,
  volumeM3: r.volume_l / 1000,
  serviceTimeMin: r.service_time,
  timeWindowStart: r.time_window_start,
  timeWindowEnd: r.time_window_end,
  deliveryDate: r.delivery_date,
  requiredFeatures: JSON.parse(r.required_features) as string[],
  updatedAt: r.updated_at,
  version: r.version,
});

export const vehicleFromRow = (r: VehicleRow): PlanningVehicle => ({
  id: r.id,
  companyId: r.company_id,
  name: r.name,
  active: r.active === true || r.active === 1,
  warehouseId: r.warehouse_id,
  capacityKg: r.capacity_kg,
  capacityM3: r.capacity_m3,
  shift: r.shift_start !== null && r.shift_end !== null ? `${r.shift_start}-${r.shift_end}` : null,
  maxDistanceKm: r.max_distance_km,
  maxDurationMin: r.max_duration_min,
  maxOrders: r.max_orders,
  features: JSON.parse(r.features) as string[],
  maxTrips: r.max_trips,
  reloadMin: r.reload_min,
  breaks: r.breaks === undefined ? [] : (JSON.parse(r.breaks) as PlanningVehicle['breaks']),
});

/** `IN (?, ?, ...)` for a list; SQLite's limit on parameters is far above 500. */

/** A route row and its stop rows (by position) -> the re-plan's view of it. */
export const dayRouteFromRows = (r: RouteRow, stops: StopRow[]): DayRoute => ({
  id: r.id,
  jobId: r.job_id,
  vehicleId: r.vehicle_id,
  name: r.name,
  date: r.date,
  status: r.status,
  actualStartAt: r.actual_start_at,
  breaks: r.breaks === undefined ? [] : (JSON.parse(r.breaks) as DayRoute['breaks']),
  stops: stops.map(
    (s): DayStop => ({
      id: s.id,
      position: s.position,
      stopType: s.stop_type,
      status: s.status,
      orderId: s.order_id,
      orderExternalId: s.order_external_id,
      warehouseId: s.warehouse_id,
      address: s.address,
      lat: s.lat,
      lon: s.lon,
      plannedArrivalAt: s.planned_arrival_at,
      plannedDepartureAt: s.planned_departure_at,
      actualArrivalAt: s.actual_arrival_at,
      actualDepartureAt: s.actual_departure_at,
    }),
  ),
});

/** Groups stop rows (ordered by route, position) under their routes. */
export function dayRoutesFromRows(routes: RouteRow[], stops: StopRow[]): DayRoute[] {
  const byRoute = new Map<number, StopRow[]>(routes.map((r) => [r.id, []]));
  for (const s of stops) byRoute.get(s.route_id)?.push(s);
  return routes.map((r) => dayRouteFromRows(r, byRoute.get(r.id)!));
}

/** The stops a rewrite keeps (their ids), the ones it adds, and the routes' stop ids it drops. */
export function rewritePlan(rewrites: RouteRewrite[], current: Array<{ id: number; route_id: number }>): {
  kept: Array<{ id: number; routeId: number; stop: RouteRewrite['stops'][number] }>;
  added: Array<{ routeId: number; stop: RouteRewrite['stops'][number] }>;
  dropped: number[];
} {
  const kept: Array<{ id: number; routeId: number; stop: RouteRewrite['stops'][number] }> = [];
  const added: Array<{ routeId: number; stop: RouteRewrite['stops'][number] }> = [];
  const keptIds = new Set<number>();
  for (const r of rewrites) {
    for (const s of r.stops) {
      if (s.id !== undefined) {
        kept.push({ id: s.id, routeId: r.routeId, stop: s });
        keptIds.add(s.id);
      } else added.push({ routeId: r.routeId, stop: s });
    }
  }
  const dropped = current.filter((s) => !keptIds.has(s.id)).map((s) => s.id);
  return { kept, added, dropped };
}
