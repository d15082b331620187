/**
 * GET /api/internal/v1/vehicles/?date=YYYY-MM-DD (scope dispatch:write): the company's vehicles,
 * active or not, by id, each with its route on the date (src/contract/fleet.ts). A page like every
 * list (page, page_size up to 200), plus the date it was asked for. The dispatcher's page lists the
 * vans of a day from it and marks one out of service by its id.
 */
import type { FastifyInstance } from 'fastify';
import { isValidDate, MESSAGES } from '../contract/order.js';
import type { FleetPageView, FleetVehicleView } from '../contract/fleet.js';
import type { StorePort } from '../store/port.js';
import type { RouteRow } from '../store/types.js';
import { authOf } from './auth.js';
import { HttpError } from './errors.js';
import { methodNotAllowed, pageAnswer, queryOf, readPage } from './request.js';

/** Routes of one date read for the fleet view: a day of more routes than this is not a fleet we plan. */
export const FLEET_ROUTES_MAX = 5_000;

export function registerFleetRoutes(app: FastifyInstance, store: StorePort): void {
  app.get('/vehicles/', { config: { scope: 'dispatch:write' as const } }, async (request): Promise<FleetPageView> => {
    const query = queryOf(request, ['date', 'page', 'page_size']);
    const errors: Record<string, string[]> = {};
    if (query.date === undefined) errors.date = [MESSAGES.required];
    else if (!isValidDate(query.date)) errors.date = [MESSAGES.date];
    const page = readPage(errors, query);
    if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
    const date = query.date!;
    const { company } = authOf(request);
    const vehicles = await store.vehicles.list(company.id, { includeInactive: true });
    const rows = vehicles.slice(page.offset, page.offset + page.limit);
    // the date's routes, newest first: a vehicle's is the newest that is not cancelled
    const byVehicle = new Map<number, RouteRow>();
    if (rows.length > 0) {
      const { rows: routes } = await store.routes.list(company.id, { date, limit: FLEET_ROUTES_MAX, offset: 0 });
      for (const route of routes) {
        if (route.status === 'cancelled') continue;
        const vehicleId = route.assigned_vehicle_id ?? route.vehicle_id;
        if (vehicleId !== null && !byVehicle.has(vehicleId)) byVehicle.set(vehicleId, route);
      }
    }
    const results = rows.map((v): FleetVehicleView => {
      const route = byVehicle.get(v.id);
      return { id: v.id, name: v.name, warehouse_id: v.warehouse_id, active: v.active, route_id: route?.id ?? null, route_status: route?.status ?? null };
    });
    return { ...pageAnswer(request, '/api/internal/v1/vehicles/', { date }, page, vehicles.length, results), date };
  });
  methodNotAllowed(app, '/vehicles/', ['GET']);
}
