/**
 * The named component schemas of the OpenAPI document (openapi.ts). Request bodies of orders come
 * from the zod schemas that validate them (order-schema.ts); answers are written here as JSON
 * Schema 2020-12, closed (`additionalProperties: false`) and with every field the server always
 * sends in `required`, so a generated client sees the fields as they are and the conformance test
 * (test/helpers/openapi-conformance.ts) catches a field the server sends but the document omits.
 */
import { z } from 'zod';
import { ROUTE_STATUSES, STOP_STATUSES } from '../store/types.js';
import { ORDER_STATUSES, ORDER_TYPES } from '../store/types.js';
import { SETTABLE_STOP_STATUSES } from '../service/dispatch.js';
import { jsonSchemaOf } from '../contract/json-schema.js';
import { orderCreateSchema, orderPatchSchema, orderSchema } from '../contract/order.js';
import { planningJobResultSchema, planningJobSchema, planningRequestSchema } from '../contract/planning.js';

type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

function fromZod(s: z.ZodType): Schema {
  const json = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Schema;
  delete json.$schema;
  return json;
}

/** A closed object whose every property is always sent. */
function record(properties: Record<string, Schema>, description?: string): Schema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const nullable = (s: Schema): Schema => ({ ...s, type: [s.type as string, 'null'] });
const int = { type: 'integer' };
const ints = { type: 'array', items: int };
/** ISO 8601 UTC with a trailing Z, with or without fractional seconds (contract section 2). */
const timestamp: Schema = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$',
  description: 'ISO 8601 UTC with a trailing Z',
};
const date: Schema = { type: 'string', format: 'date', description: 'YYYY-MM-DD' };
const time: Schema = { type: 'string', pattern: '^\\d{2}:\\d{2}:\\d{2}$', description: 'HH:MM:SS, local to the company timezone' };
const decimal = (places: number, what: string): Schema => ({
  type: 'string',
  pattern: `^-?\\d+\\.\\d{${places}}$`,
  description: `${what}: a decimal string with ${places} decimals`,
});
const reasons = ['capacity', 'time_window', 'max_distance', 'max_duration', 'max_orders', 'requirements', 'no_vehicle', 'unroutable'];
const messages = { type: 'array', items: { type: 'string' }, minItems: 1 };

const page = (item: string, what: string): Schema =>
  record(
    {
      count: { type: 'integer', minimum: 0, description: 'all matching items' },
      next: { type: ['string', 'null'], format: 'uri-reference', description: 'link to the next page (relative, or absolute from serve --public-url), null on the last' },
      previous: { type: ['string', 'null'], format: 'uri-reference', description: 'link to the previous page (relative, or absolute from serve --public-url), null on the first' },
      results: { type: 'array', items: ref(item) },
    },
    `A page of ${what}, newest first`,
  );

const routeFields = {
  id: int,
  name: { type: 'string', description: '"YYYY-MM-DD <vehicle name>"' },
  status: { type: 'string', enum: [...ROUTE_STATUSES] },
  date: date,
  has_vehicle: { type: 'boolean', description: 'true once a vehicle is assigned (dispatch API)' },
  planned_mileage_km: decimal(2, 'km'),
  planned_duration_min: { type: 'integer', minimum: 0 },
  actual_start_at: nullable(timestamp),
  actual_end_at: nullable(timestamp),
  total_weight_kg: decimal(3, 'kg'),
  total_volume_m3: decimal(3, 'cubic metres'),
};

const stopFields = {
  id: int,
  position: { type: 'integer', minimum: 1, description: 'order of the stop in the route, from 1' },
  stop_type: { type: 'string', enum: ['order', 'start_depot', 'mid_depot', 'end_depot'] },
  status: { type: 'string', enum: [...STOP_STATUSES] },
  order_id: { type: ['integer', 'null'], description: 'null on depot stops' },
  order_external_id: { type: ['string', 'null'], description: "the order's external_id; null on depot stops" },
  address: { type: 'string' },
  lat: decimal(6, 'latitude'),
  lon: decimal(6, 'longitude'),
  eta: { ...nullable(timestamp), description: 'equal to planned_arrival_at' },
  planned_arrival_at: { ...nullable(timestamp), description: 'planned start of service (inside the time window)' },
  planned_departure_at: nullable(timestamp),
  actual_arrival_at: nullable(timestamp),
  actual_departure_at: nullable(timestamp),
};

const position = {
  lat: { type: ['number', 'string'], minimum: -90, maximum: 90, description: 'a number or a numeric string' },
  lon: { type: ['number', 'string'], minimum: -180, maximum: 180, description: 'a number or a numeric string' },
  timestamp: { type: ['string', 'null'], description: 'ISO 8601 with a zone, at most 5 minutes ahead of the server clock; default: when received' },
  speed_kmh: { type: ['number', 'string', 'null'], minimum: 0, maximum: 1000, description: 'default 0' },
  heading_deg: { type: ['number', 'string', 'null'], minimum: 0, maximum: 360, description: 'default 0' },
};

export function componentSchemas(): Record<string, Schema> {
  return {
    Detail: record({ detail: { type: 'string' } }, 'An error of a general kind: `{"detail": text}`'),
    FieldErrors: {
      type: 'object',
      description: 'Validation errors: field name (or query parameter) -> messages',
      minProperties: 1,
      additionalProperties: messages,
    },
    DetailAndFieldErrors: {
      type: 'object',
      description: 'A body of the wrong shape: `detail` sums up every problem, and each field names its own messages',
      properties: { detail: { type: 'string' } },
      required: ['detail'],
      additionalProperties: messages,
    },
    OrderInput: { ...fromZod(orderCreateSchema), description: 'A new order (contract 2.1); only address is required' },
    OrderPatch: {
      ...fromZod(orderPatchSchema),
      minProperties: 1,
      description: 'Any of the changeable fields; id, external_id, status, created_at and updated_at are read-only (400)',
    },
    Order: jsonSchemaOf(orderSchema, { io: 'output', nullAsType: true }),
    OrderPage: page('Order', 'orders'),
    BulkItemResult: record({
      index: { type: 'integer', minimum: 0, description: 'position in the request array' },
      external_id: { type: ['string', 'null'], description: 'echo' },
      status: { type: 'string', enum: ['created', 'exists', 'error'] },
      id: { type: ['integer', 'null'], description: 'null on error' },
      errors: { anyOf: [ref('FieldErrors'), { type: 'object', maxProperties: 0 }, { type: 'null' }], description: 'null unless status is error' },
    }),
    BulkResult: record({
      results: { type: 'array', items: ref('BulkItemResult') },
      summary: record({ created: { type: 'integer', minimum: 0 }, existing: { type: 'integer', minimum: 0 }, failed: { type: 'integer', minimum: 0 } }),
    }),
    OrderHistory: record(
      {
        order_id: int,
        external_id: { type: ['string', 'null'] },
        current_status: { type: 'string', enum: [...ORDER_STATUSES] },
        events: {
          type: 'array',
          items: record({
            status: { type: 'string', enum: [...ORDER_STATUSES] },
            previous_status: { type: ['string', 'null'], enum: [...ORDER_STATUSES, null], description: 'null for the first entry' },
            at: timestamp,
          }),
        },
      },
      'Status history, oldest first (contract 2.6)',
    ),
    PlanningJobRequest: jsonSchemaOf(planningRequestSchema, { nullAsType: true }),
    PlanningJobResult: jsonSchemaOf(planningJobResultSchema, { io: 'output', nullAsType: true }),
    PlanningJob: jsonSchemaOf(planningJobSchema, { io: 'output', nullAsType: true }),
    RouteListItem: record(routeFields, 'A route as listed (contract 2.3)'),
    RoutePage: page('RouteListItem', 'routes'),
    Stop: record(stopFields, 'A route stop (contract 2.4)'),
    Route: record({ ...routeFields, stops: { type: 'array', items: ref('Stop') } }, 'A route with its stops in order'),
    Tracking: record(
      {
        route_id: int,
        status: { type: 'string', enum: [...ROUTE_STATUSES] },
        progress: record(
          { total: { type: 'integer', minimum: 0 }, completed: { type: 'integer', minimum: 0 }, remaining: { type: 'integer', minimum: 0 } },
          'order stops only; completed = confirmed, rejected or skipped',
        ),
        last_position: { anyOf: [ref('TrackingPosition'), { type: 'null' }], description: 'null without an assigned vehicle or before it sent a position' },
      },
      'Tracking snapshot (contract 2.5): plain JSON numbers',
    ),
    TrackingPosition: record({ lat: { type: 'number' }, lon: { type: 'number' }, timestamp, speed_kmh: { type: 'number' }, heading_deg: { type: 'number' } }),
    AssignVehicleRequest: { type: 'object', properties: { vehicle_id: int }, required: ['vehicle_id'], additionalProperties: false },
    StartRouteRequest: {
      type: 'object',
      description: 'Optional body',
      properties: { at: { type: ['string', 'null'], description: 'ISO 8601 with a zone; default now' } },
      additionalProperties: false,
    },
    StopStatusRequest: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: [...SETTABLE_STOP_STATUSES] },
        at: { type: ['string', 'null'], description: 'ISO 8601 with a zone; default now' },
      },
      required: ['status'],
      additionalProperties: false,
    },
    StopStatusResult: record(
      { ...stopFields, route_id: int, route_status: { type: 'string', enum: [...ROUTE_STATUSES] } },
      'The stop after the change, with its route',
    ),
    PositionInput: { type: 'object', properties: position, required: ['lat', 'lon'], additionalProperties: false },
    PositionsRequest: {
      description: 'One position, or a list of 1 to 1000',
      oneOf: [ref('PositionInput'), { type: 'array', items: ref('PositionInput'), minItems: 1, maxItems: 1000 }],
    },
    PositionsAccepted: record({ vehicle_id: int, accepted: { type: 'integer', minimum: 1 } }),
    OpenApiDocument: {
      type: 'object',
      description: 'This document (OpenAPI 3.1)',
      properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
      required: ['openapi', 'info', 'paths'],
    },
  };
}
