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
import { DispatchError, DispatchService, SETTABLE_STOP_STATUSES, type SettableStopStatus } from '../service/dispatch.js';
import type { OrderService } from '../service/orders.js';
import type { Clock } from '../service/time.js';
import type { StorePort } from '../store/port.js';
import type { NewPosition } from '../store/types.js';
import { authOf } from './auth.js';
import { BODY_LIMITS, JSON_VALUES, MAX_CLOCK_AHEAD_MS } from './limits.js';
import { HttpError, notFound } from './errors.js';
import { describeJsonType } from '../contract/order.js';
import { methodNotAllowed, queryOf } from './request.js';
import { idParam, serializeRouteDetail, serializeStop } from './route-routes.js';
import type { z } from 'zod';
import { parseDispatchBody, quoteRequestSchema, replanRequestSchema, unavailableRequestSchema, type QuoteResult, type Sent } from '../contract/dispatch.js';
import { PLANNING_MESSAGES } from '../contract/planning.js';
import { JobServiceClosedError, PlanningInputError } from '../jobs/errors.js';
import { TooManyJobsError } from '../jobs/ports.js';
import type { JobService } from '../jobs/service.js';

export const INTERNAL_PREFIX = '/api/internal/v1';
export const MAX_POSITIONS = 1000;

export const DISPATCH_MESSAGES = {
  timestamp: 'Timestamp has wrong format. Use ISO 8601 with a time zone, for example 2026-11-23T09:15:00Z.',
  future: 'Timestamp is more than 5 minutes ahead of the server clock; check the device clock.',
  required: 'This field is required.',
  unknown: 'Unknown field.',
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  status: (v: unknown) => `"${typeof v === 'string' ? v.slice(0, 64) : JSON.stringify(v)}" is not a valid choice; one of ${SETTABLE_STOP_STATUSES.join(', ')}.`,
  range: (min: number, max: number) => `Ensure this value is between ${min} and ${max}.`,
} as const;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** An ISO 8601 timestamp with a zone -> the UTC form with a trailing Z, or undefined. */
export function parseTimestamp(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 64 || !TIMESTAMP.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  if (!Number.isFinite(ms)) return undefined;
  return new Date(ms).toISOString();
}

type Errors = Record<string, string[]>;

/** Longest numeric string accepted: more digits than a double holds is no coordinate. */
const MAX_NUMBER_TEXT = 32;
/** Digits with one optional point; one way to match each string, so no backtracking. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A decimal number sent as a string ("52.52"), length-capped before the regex; else NaN. */
function numericString(value: string): number {
  if (value.length > MAX_NUMBER_TEXT) return NaN;
  const text = value.trim();
  return DECIMAL.test(text) ? Number(text) : NaN;
}

function fail(errors: Errors): never {
  const fields = Object.keys(errors);
  throw new HttpError(400, { detail: `Invalid data: ${fields.map((f) => `${f}: ${errors[f]!.join(' ')}`).join('; ')}`, ...errors });
}

function objectBody(body: unknown, allowed: readonly string[], optional = false): Record<string, unknown> {
  if (body === undefined && optional) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, { detail: `Invalid data. Expected a JSON object, but got ${body === undefined ? 'an empty body' : describeJsonType(body)}.` });
  }
  const errors: Errors = {};
  for (const key of Object.keys(body)) if (!allowed.includes(key)) errors[key] = [DISPATCH_MESSAGES.unknown];
  if (Object.keys(errors).length > 0) fail(errors);
  return body as Record<string, unknown>;
}

function optionalAt(input: Record<string, unknown>, errors: Errors): string | undefined {
  if (input.at === undefined || input.at === null) return undefined;
  const at = parseTimestamp(input.at);
  if (at === undefined) errors.at = [DISPATCH_MESSAGES.timestamp];
  return at;
}

function number(input: Record<string, unknown>, name: string, min: number, max: number, errors: Errors, fallback?: number): number {
  const value = input[name];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    errors[name] = [DISPATCH_MESSAGES.required];
    return 0;
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' ? numericString(value) : NaN;
  if (!Number.isFinite(n)) errors[name] = [DISPATCH_MESSAGES.number];
  else if (n < min || n > max) errors[name] = [DISPATCH_MESSAGES.range(min, max)];
  return n;
}

/** One position of the body; errors are keyed `field` (or `[i].field` in an array). */
function parsePosition(item: unknown, now: string, errors: Errors, prefix: string): NewPosition {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    errors[prefix || 'non_field_errors'] = [`Expected a JSON object, but got ${describeJsonType(item)}.`];
    return { lat: 0, lon: 0, timestamp: now, speed_kmh: 0, heading_deg: 0 };
  }
  const input = item as Record<string, unknown>;
  const own: Errors = {};
  for (const key of Object.keys(input)) {
    if (!['lat', 'lon', 'timestamp', 'speed_kmh', 'heading_deg'].includes(key)) own[key] = [DISPATCH_MESSAGES.unknown];
  }
  const position: NewPosition = {
    lat: number(input, 'lat', -90, 90, own),
    lon: number(input, 'lon', -180, 180, own),
    timestamp: now,
    speed_kmh: number(input, 'speed_kmh', 0, 1000, own, 0),
    heading_deg: number(input, 'heading_deg', 0, 360, own, 0),
  };
  if (input.timestamp !== undefined && input.timestamp !== null) {
    const ts = parseTimestamp(input.timestamp);
    if (ts === undefined) own.timestamp = [DISPATCH_MESSAGES.timestamp];
    else if (Date.parse(ts) > Date.parse(now) + MAX_CLOCK_AHEAD_MS) own.timestamp = [DISPATCH_MESSAGES.future];
    else position.timestamp = ts;
  }
  for (const [k, v] of Object.entries(own)) errors[prefix ? `${prefix}.${k}` : k] = v;
  return position;
}

function mapDispatchError(error: unknown): never {
  if (error instanceof DispatchError) {
    if (error.kind === 'not_found') throw notFound();
    throw new HttpError(409, { detail: error.detail });
  }
  throw error;
}

/** `YYYY-MM-DD` of an instant in a time zone. */
export function localDate(utc: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(utc));
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
    const input = objectBody(request.body, ['vehicle_id']);
    if (input.vehicle_id === undefined || input.vehicle_id === null) fail({ vehicle_id: [DISPATCH_MESSAGES.required] });
    if (!Number.isSafeInteger(input.vehicle_id)) fail({ vehicle_id: [DISPATCH_MESSAGES.integer] });
    try {
      const route = await dispatch.assignVehicle(company.id, routeId, input.vehicle_id as number);
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
    const input = objectBody(request.body, ['at'], true);
    const errors: Errors = {};
    const at = optionalAt(input, errors);
    if (Object.keys(errors).length > 0) fail(errors);
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
    const input = objectBody(request.body, ['status', 'at']);
    const errors: Errors = {};
    if (input.status === undefined || input.status === null) errors.status = [DISPATCH_MESSAGES.required];
    else if (!(SETTABLE_STOP_STATUSES as readonly unknown[]).includes(input.status)) errors.status = [DISPATCH_MESSAGES.status(input.status)];
    const at = optionalAt(input, errors);
    if (Object.keys(errors).length > 0) fail(errors);
    try {
      const { stop, route } = await dispatch.setStopStatus(company.id, stopId, input.status as SettableStopStatus, at);
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
    const from = input.from === undefined ? dispatch.now() : parseTimestamp(input.from);
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
