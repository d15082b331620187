/**
 * The dispatch API of docs/contract/operations.md (scope dispatch:write), under /api/internal/v1, for the
 * dispatcher's and drivers' apps. Same key header and company scoping as the public API: an id
 * of another company (in the path or in the body) is 404 `{"detail": "Not found."}`; a change the
 * state does not allow is 409 `{detail}` saying why (transitions: src/service/dispatch.ts); a bad
 * body is 400 `{detail, <field>: [messages]}`.
 *
 * - POST /routes/{id}/vehicle {"vehicle_id"} -> 200 the route (detail view, has_vehicle true)
 * - POST /routes/{id}/start [{"at"}] -> 200 the route, status active, actual_start_at
 * - POST /stops/{id}/status {"status", "at"?} -> 200 the stop with route_id and route_status
 * - POST /vehicles/{id}/positions {lat, lon, timestamp?, speed_kmh?, heading_deg?} or an array of
 *   up to 1000 of them -> 201 {vehicle_id, accepted}
 * - POST /planning/replan {date, order_ids?, external_ids?, vehicle_ids?} -> 202 the re-plan job (2.2)
 * - POST /vehicles/{id}/unavailable {from?} -> 202 the re-plan job moving its pending stops; 409
 *   when the vehicle has no planned or active route on the date of `from`
 * - POST /planning/quote {date, lat, lon, weight?, volume?, service_time?, time_window_start?,
 *   time_window_end?} -> 200 {feasible: true, route_id, position, eta, added_km, added_min} or
 *   {feasible: false, reason}, from the routes as they are (no job)
 * (operations.md "Re-planning a day"; bodies: src/contract/dispatch.ts)
 */
import type { FastifyInstance } from 'fastify';
import { DispatchError, DispatchService } from '../service/dispatch.js';
import { assignVehicleRequestSchema, MAX_POSITIONS, parseInstant, positionInputSchema, startRouteRequestSchema, stopStatusRequestSchema } from '../contract/driver.js';
import type { OrderService } from '../service/orders.js';
import { localDate as localDateOf, type Clock } from '../service/time.js';
import type { StorePort } from '../store/port.js';
import type { NewPosition } from '../store/types.js';
import { authOf } from './auth.js';
import { BODY_LIMITS, JSON_VALUES, MAX_CLOCK_AHEAD_MS } from './limits.js';
import { HttpError, notFound } from './errors.js';
import { describeJsonType } from '../contract/order.js';
import { methodNotAllowed, queryOf } from './request.js';
import { idParam, serializeRouteDetail, serializeStop } from './route-routes.js';
import type { z } from 'zod';
import { DISPATCH_BODY_MESSAGES, parseDispatchBody, quoteRequestSchema, replanRequestSchema, unavailableRequestSchema, type QuoteResult, type Sent } from '../contract/dispatch.js';
import { PLANNING_MESSAGES } from '../contract/planning.js';
import { JobServiceClosedError, PlanningInputError } from '../jobs/errors.js';
import { TooManyJobsError } from '../jobs/ports.js';
import type { JobService } from '../jobs/service.js';

export const INTERNAL_PREFIX = '/api/internal/v1';
/** The dispatch API's own answers beyond its bodies' schemas (src/contract/driver.ts, dispatch.ts). */
const DISPATCH_MESSAGES = {
  timestamp: DISPATCH_BODY_MESSAGES.timestamp,
  future: 'Timestamp is more than 5 minutes ahead of the server clock; check the device clock.',
} as const;

type Errors = Record<string, string[]>;

function fail(errors: Errors): never {
  const fields = Object.keys(errors);
  throw new HttpError(400, { detail: `Invalid data: ${fields.map((f) => `${f}: ${errors[f]!.join(' ')}`).join('; ')}`, ...errors });
}

/** One position of the body (positionInputSchema); errors are keyed `field` (or `[i].field` in an array). */
function parsePosition(item: unknown, now: string, errors: Errors, prefix: string): NewPosition {
  const parsed = parseDispatchBody(positionInputSchema, item);
  if (!parsed.ok) {
    if (parsed.errors === undefined) errors[prefix || 'non_field_errors'] = [`Expected a JSON object, but got ${describeJsonType(item)}.`];
    else for (const [k, v] of Object.entries(parsed.errors)) errors[prefix ? `${prefix}.${k}` : k] = v;
    return { lat: 0, lon: 0, timestamp: now, speed_kmh: 0, heading_deg: 0 };
  }
  const p = parsed.value;
  if (p.timestamp !== undefined && Date.parse(p.timestamp) > Date.parse(now) + MAX_CLOCK_AHEAD_MS) {
    errors[prefix ? `${prefix}.timestamp` : 'timestamp'] = [DISPATCH_MESSAGES.future];
  }
  return { lat: p.lat, lon: p.lon, timestamp: p.timestamp ?? now, speed_kmh: p.speed_kmh ?? 0, heading_deg: p.heading_deg ?? 0 };
}

function mapDispatchError(error: unknown): never {
  if (error instanceof DispatchError) {
    if (error.kind === 'not_found') throw notFound();
    throw new HttpError(409, { detail: error.detail });
  }
  throw error;
}

/** `YYYY-MM-DD` of an instant in a time zone (service/time.ts keeps one formatter per zone). */
export function localDate(utc: string, timeZone: string): string {
  return localDateOf(new Date(utc), timeZone);
}

function body<S extends Parameters<typeof parseDispatchBody>[0]>(schema: S, value: unknown, optional = false) {
  const parsed = parseDispatchBody(schema, value, optional);
  if (!parsed.ok) throw new HttpError(400, { detail: parsed.detail, ...parsed.errors });
  return parsed.value as Sent<z.output<S>>;
}

async function queued<T>(submit: () => Promise<T>): Promise<T> {
  try {
    return await submit();
  } catch (error) {
    if (error instanceof PlanningInputError) throw new HttpError(400, { detail: error.detail });
    if (error instanceof JobServiceClosedError) throw new HttpError(503, { detail: error.message });
    if (error instanceof TooManyJobsError) throw new HttpError(429, { detail: error.message });
    throw error;
  }
}

export function registerDispatchRoutes(
  app: FastifyInstance,
  options: { store: StorePort; orders: OrderService; jobs?: JobService; clock?: Clock; maxPositionsPerMinute?: number },
): void {
  const dispatch = new DispatchService(options.store, options.orders, options.clock, options.maxPositionsPerMinute);
  const write = { scope: 'dispatch:write' as const };

  app.post('/routes/:id/vehicle', { config: write }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const routeId = idParam(request);
    const input = body(assignVehicleRequestSchema, request.body);
    try {
      const route = await dispatch.assignVehicle(company.id, routeId, input.vehicle_id);
      return serializeRouteDetail(route, await options.store.routes.stops(route.id));
    } catch (error) {
      mapDispatchError(error);
    }
  });
  methodNotAllowed(app, '/routes/:id/vehicle', ['POST']);

  app.post('/routes/:id/start', { config: write }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const routeId = idParam(request);
    const { at } = body(startRouteRequestSchema, request.body, true);
    try {
      const route = await dispatch.startRoute(company.id, routeId, at);
      return serializeRouteDetail(route, await options.store.routes.stops(route.id));
    } catch (error) {
      mapDispatchError(error);
    }
  });
  methodNotAllowed(app, '/routes/:id/start', ['POST']);

  app.post('/stops/:id/status', { config: write }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const stopId = idParam(request);
    const { status, at } = body(stopStatusRequestSchema, request.body);
    try {
      const { stop, route } = await dispatch.setStopStatus(company.id, stopId, status, at);
      return { ...serializeStop(stop), route_id: route.id, route_status: route.status };
    } catch (error) {
      mapDispatchError(error);
    }
  });
  methodNotAllowed(app, '/stops/:id/status', ['POST']);

  app.post('/vehicles/:id/positions', { config: { ...write, json: { maxValues: JSON_VALUES.positions } }, bodyLimit: BODY_LIMITS.positions }, async (request, reply) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const vehicleId = idParam(request);
    const body = request.body;
    const now = dispatch.now();
    const errors: Errors = {};
    let positions: NewPosition[];
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > MAX_POSITIONS) {
        throw new HttpError(400, { detail: `Send one position object or a list of 1 to ${MAX_POSITIONS} of them.` });
      }
      positions = body.map((item, i) => parsePosition(item, now, errors, `[${i}]`));
    } else {
      if (typeof body !== 'object' || body === null) {
        throw new HttpError(400, { detail: `Invalid data. Expected a JSON object, but got ${body === undefined ? 'an empty body' : describeJsonType(body)}.` });
      }
      positions = [parsePosition(body, now, errors, '')];
    }
    if (Object.keys(errors).length > 0) fail(errors);
    try {
      const stored = await dispatch.addPositions(company.id, vehicleId, positions);
      reply.code(201);
      return { vehicle_id: vehicleId, accepted: stored.length };
    } catch (error) {
      mapDispatchError(error);
    }
  });
  methodNotAllowed(app, '/vehicles/:id/positions', ['POST']);

  const jobsOrUnavailable = (): JobService => {
    if (!options.jobs) throw new HttpError(503, { detail: PLANNING_MESSAGES.unavailable });
    return options.jobs;
  };

  app.post('/planning/replan', { config: { ...write, json: { maxValues: JSON_VALUES.planning } }, bodyLimit: BODY_LIMITS.planning }, async (request, reply) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const input = body(replanRequestSchema, request.body);
    const jobs = jobsOrUnavailable();
    const job = await queued(() => jobs.replan(company.id, input));
    reply.code(202);
    return job;
  });
  methodNotAllowed(app, '/planning/replan', ['POST']);

  app.post('/vehicles/:id/unavailable', { config: write }, async (request, reply) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const vehicleId = idParam(request);
    const input = body(unavailableRequestSchema, request.body, true);
    const vehicle = await options.store.vehicles.get(company.id, vehicleId);
    if (!vehicle) throw notFound();
    const jobs = jobsOrUnavailable();
    const from = input.from === undefined ? dispatch.now() : parseInstant(input.from);
    if (from === undefined) fail({ from: [DISPATCH_MESSAGES.timestamp] });
    const date = localDate(from, company.timezone);
    const routes = await options.store.planning.openRoutesOn(company.id, date);
    if (!routes.some((r) => r.vehicleId === vehicle.id)) {
      throw new HttpError(409, { detail: `Vehicle ${vehicle.id} has no planned or active route on ${date}; there is nothing to move.` });
    }
    const job = await queued(() => jobs.replan(company.id, { date, unavailable: { vehicle_id: vehicle.id, from } }));
    reply.code(202);
    return job;
  });
  methodNotAllowed(app, '/vehicles/:id/unavailable', ['POST']);

  app.post('/planning/quote', { config: write }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const q = body(quoteRequestSchema, request.body);
    const answer: QuoteResult = await jobsOrUnavailable().quote(company.id, {
      date: q.date,
      lat: q.lat,
      lon: q.lon,
      ...(q.weight !== undefined ? { weightKg: q.weight } : {}),
      ...(q.volume !== undefined ? { volumeM3: q.volume } : {}),
      ...(q.service_time !== undefined ? { serviceTimeMin: q.service_time } : {}),
      ...(q.time_window_start !== undefined ? { timeWindowStart: q.time_window_start } : {}),
      ...(q.time_window_end !== undefined ? { timeWindowEnd: q.time_window_end } : {}),
    });
    return answer;
  });
  methodNotAllowed(app, '/planning/quote', ['POST']);
}
