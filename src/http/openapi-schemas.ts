/**
 * The named component schemas of the OpenAPI document (openapi.ts). The shapes defined once in
 * src/contract/ (zod: the order in and out, the planning request and job, routes and stops) come
 * from their schemas (json-schema.ts); the rest are still written here as JSON Schema 2020-12
 * (to move: pages, bulk results, order history, tracking, the dispatch API's bodies), closed
 * (`additionalProperties: false`) and with every field the server always sends in `required`, so
 * a generated client sees the fields as they are and the conformance test
 * (test/helpers/openapi-conformance.ts) catches a field the server sends but the document omits.
 */
import { ORDER_STATUSES, ROUTE_STATUSES } from '../store/types.js';
import { SETTABLE_STOP_STATUSES } from '../service/dispatch.js';
import { jsonSchemaOf } from '../contract/json-schema.js';
import { quoteRequestSchema, quoteResultSchema, replanRequestSchema, unavailableRequestSchema } from '../contract/dispatch.js';
import { orderCreateSchema, orderPatchSchema, orderSchema } from '../contract/order.js';
import { routeListItemSchema, routeSchema, stopSchema, stopStatusResultSchema } from '../contract/route.js';
import { planningJobResultSchema, planningJobSchema, planningRequestSchema } from '../contract/planning.js';

type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

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

const int = { type: 'integer' };
/** ISO 8601 UTC with a trailing Z, with or without fractional seconds (contract section 2). */
const timestamp: Schema = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$',
  description: 'ISO 8601 UTC with a trailing Z',
};
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
    OrderInput: { ...jsonSchemaOf(orderCreateSchema), description: 'A new order (contract 2.1); only address is required' },
    OrderPatch: {
      ...jsonSchemaOf(orderPatchSchema),
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
    RouteListItem: jsonSchemaOf(routeListItemSchema, { io: 'output', nullAsType: true }),
    RoutePage: page('RouteListItem', 'routes'),
    Stop: jsonSchemaOf(stopSchema, { io: 'output', nullAsType: true }),
    Route: jsonSchemaOf(routeSchema, { io: 'output', nullAsType: true }),
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
    StopStatusResult: jsonSchemaOf(stopStatusResultSchema, { io: 'output', nullAsType: true }),
    PositionInput: { type: 'object', properties: position, required: ['lat', 'lon'], additionalProperties: false },
    PositionsRequest: {
      description: 'One position, or a list of 1 to 1000',
      oneOf: [ref('PositionInput'), { type: 'array', items: ref('PositionInput'), minItems: 1, maxItems: 1000 }],
    },
    ReplanRequest: jsonSchemaOf(replanRequestSchema, { nullAsType: true }),
    VehicleUnavailableRequest: jsonSchemaOf(unavailableRequestSchema, { nullAsType: true }),
    QuoteRequest: jsonSchemaOf(quoteRequestSchema, { nullAsType: true }),
    QuoteResult: jsonSchemaOf(quoteResultSchema, { io: 'output', nullAsType: true }),
    PositionsAccepted: record({ vehicle_id: int, accepted: { type: 'integer', minimum: 1 } }),
    OpenApiDocument: {
      type: 'object',
      description: 'This document (OpenAPI 3.1)',
      properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
      required: ['openapi', 'info', 'paths'],
    },
  };
}
