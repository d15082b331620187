/**
 * Routes (docs/contract/public-api.md 2.3, 2.4, 4.8; scope routes:read) and tracking (2.5, 4.9; scope
 * tracking:read), under /api/public/v1. Read-only.
 *
 * Types the contract leaves open (decided here, documented in the README):
 * - has_vehicle: boolean, true once the dispatch API assigned a vehicle to the route.
 * - actual_start_at / actual_end_at: timestamp or null (set by the dispatch API).
 * - total_weight_kg / total_volume_m3: decimal strings with three decimals, like an order's
 *   weight and volume. planned_mileage_km: two decimals; stop lat/lon: six.
 * - The list is paginated like the orders list: page, page_size (default 50, max 200), answer
 *   {count, next, previous, results}, newest first; a page past the last is 404 "Invalid page.".
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatScaled } from '../service/decimal.js';
import type { StorePort } from '../store/port.js';
import { ROUTE_STATUSES, type PositionRow, type RouteRow, type RouteStatus, type StopRow } from '../store/types.js';
import { authOf } from './auth.js';
import { HttpError, notFound } from './errors.js';
import { MAX_CLOCK_AHEAD_MS } from './limits.js';
import { isValidDate, MESSAGES } from '../contract/order.js';
import type { RouteListItemView, RouteView, StopView, TrackingView } from '../contract/route.js';
import { methodNotAllowed, pageAnswer, queryOf, readPage } from './request.js';


/** `x` with exactly `decimals` digits after the point, rounded half away from zero. */
export function fixed(x: number, decimals: number): string {
  const factor = 10 ** decimals;
  const scaled = Math.sign(x) * Math.round(Math.abs(x) * factor);
  return formatScaled(scaled === 0 ? 0 : scaled, decimals);
}

/** A route list item (2.3). */
export function serializeRoute(r: RouteRow): RouteListItemView {
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    date: r.date,
    has_vehicle: r.assigned_vehicle_id !== null,
    planned_mileage_km: fixed(r.planned_mileage_km, 2),
    planned_duration_min: r.planned_duration_min,
    actual_start_at: r.actual_start_at,
    actual_end_at: r.actual_end_at,
    total_weight_kg: fixed(r.total_weight_kg, 3),
    total_volume_m3: fixed(r.total_volume_m3, 3),
  };
}

/** A route stop (2.4). */
export function serializeStop(s: StopRow): StopView {
  return {
    id: s.id,
    position: s.position,
    stop_type: s.stop_type,
    status: s.status,
    order_id: s.order_id,
    order_external_id: s.order_external_id,
    address: s.address,
    lat: fixed(s.lat, 6),
    lon: fixed(s.lon, 6),
    eta: s.planned_arrival_at,
    planned_arrival_at: s.planned_arrival_at,
    planned_departure_at: s.planned_departure_at,
    actual_arrival_at: s.actual_arrival_at,
    actual_departure_at: s.actual_departure_at,
  };
}

export function serializeRouteDetail(r: RouteRow, stops: StopRow[]): RouteView {
  const breaks = r.breaks === undefined ? [] : (JSON.parse(r.breaks) as Array<{ start: string; end: string }>);
  return { ...serializeRoute(r), stops: stops.map(serializeStop), breaks };
}

/** The tracking position: plain JSON numbers (2.5). */
export function serializePosition(p: PositionRow) {
  return { lat: p.lat, lon: p.lon, timestamp: p.timestamp, speed_kmh: p.speed_kmh, heading_deg: p.heading_deg };
}

export function idParam(request: FastifyRequest, name = 'id'): number {
  const raw = (request.params as Record<string, string>)[name] ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  return Number(raw);
}


export function registerRouteRoutes(app: FastifyInstance, store: StorePort): void {
  const read = { scope: 'routes:read' as const };

  app.get('/routes/', { config: read }, async (request) => {
    const query = queryOf(request, ['status', 'date', 'page', 'page_size']);
    const { company } = authOf(request);
    const errors: Record<string, string[]> = {};
    if (query.status !== undefined && !(ROUTE_STATUSES as readonly string[]).includes(query.status)) {
      errors.status = [`Select a valid choice. "${query.status.slice(0, 64)}" is not one of ${ROUTE_STATUSES.join(', ')}.`];
    }
    if (query.date !== undefined && !isValidDate(query.date)) errors.date = [MESSAGES.date];
    const page = readPage(errors, query);
    if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
    const { count, rows } = await store.routes.list(company.id, {
      status: query.status as RouteStatus | undefined,
      date: query.date,
      limit: page.limit,
      offset: page.offset,
    });
    const filters = { status: query.status, date: query.date };
    return pageAnswer(request, '/api/public/v1/routes/', filters, page, count, rows.map(serializeRoute));
  });
  methodNotAllowed(app, '/routes/', ['GET']);

  app.get('/routes/:id/', { config: read }, async (request) => {
    queryOf(request, []);
    const route = await store.routes.get(authOf(request).company.id, idParam(request));
    if (!route) throw notFound();
    return serializeRouteDetail(route, await store.routes.stops(route.id));
  });
  methodNotAllowed(app, '/routes/:id/', ['GET']);

  app.get('/routes/:id/tracking/', { config: { scope: 'tracking:read' } }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const route = await store.routes.get(company.id, idParam(request));
    if (!route) throw notFound();
    const { total, completed } = await store.routes.progress(route.id);
    // The assigned vehicle's latest position, whenever it was sent (the contract: null only without
    // a vehicle or before the vehicle sent coordinates); its timestamp tells how fresh it is.
    const notAfter = new Date(Date.now() + MAX_CLOCK_AHEAD_MS).toISOString();
    const position = route.assigned_vehicle_id === null ? undefined : await store.routes.lastPosition(company.id, route.assigned_vehicle_id, '', notAfter);
    return {
      route_id: route.id,
      status: route.status,
      progress: { total, completed, remaining: total - completed },
      last_position: position ? serializePosition(position) : null,
    } satisfies TrackingView;
  });
  methodNotAllowed(app, '/routes/:id/tracking/', ['GET']);
}
