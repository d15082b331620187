/**
 * The named component schemas of the OpenAPI document (openapi.ts). Every answer's shape is defined
 * once in src/contract/ (zod: errors, the order in and out, pages, bulk results, order history,
 * the planning request and job, routes, stops and tracking) and comes from its schema
 * (json-schema.ts); the handlers return those schemas' types. Still written here as JSON Schema
 * 2020-12: the dispatch API's request bodies (src/http/dispatch-routes.ts parses them), closed
 * (`additionalProperties: false`), so a generated client sees the fields as they are and the
 * conformance test (test/helpers/openapi-conformance.ts) catches a field the server sends but the
 * document omits.
 */
import { ORDER_STATUSES, ROUTE_STATUSES } from '../store/types.js';
import { SETTABLE_STOP_STATUSES } from '../service/dispatch.js';
import { jsonSchemaOf } from '../contract/json-schema.js';
import { quoteRequestSchema, quoteResultSchema, replanRequestSchema, unavailableRequestSchema } from '../contract/dispatch.js';
import { fleetPageSchema, fleetVehicleSchema } from '../contract/fleet.js';
import { detailAndFieldErrorsSchema, detailSchema, fieldErrorsSchema } from '../contract/errors.js';
import { bulkItemResultSchema, bulkResultSchema, orderCreateSchema, orderHistorySchema, orderPageSchema, orderPatchSchema, orderSchema } from '../contract/order.js';
import { routeListItemSchema, routePageSchema, routeSchema, stopSchema, stopStatusResultSchema, trackingPositionSchema, trackingSchema } from '../contract/route.js';
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

const position = {
  lat: { type: ['number', 'string'], minimum: -90, maximum: 90, description: 'a number or a numeric string' },
  lon: { type: ['number', 'string'], minimum: -180, maximum: 180, description: 'a number or a numeric string' },
  timestamp: { type: ['string', 'null'], description: 'ISO 8601 with a zone, at most 5 minutes ahead of the server clock; default: when received' },
  speed_kmh: { type: ['number', 'string', 'null'], minimum: 0, maximum: 1000, description: 'default 0' },
  heading_deg: { type: ['number', 'string', 'null'], minimum: 0, maximum: 360, description: 'default 0' },
};

export function componentSchemas(): Record<string, Schema> {
  return {
    Detail: jsonSchemaOf(detailSchema, { io: 'output', nullAsType: true }),
    FieldErrors: jsonSchemaOf(fieldErrorsSchema, { io: 'output', nullAsType: true }),
    DetailAndFieldErrors: jsonSchemaOf(detailAndFieldErrorsSchema, { io: 'output', nullAsType: true }),
    OrderInput: { ...jsonSchemaOf(orderCreateSchema), description: 'A new order (contract 2.1); only address is required' },
    OrderPatch: {
      ...jsonSchemaOf(orderPatchSchema),
      minProperties: 1,
      description: 'Any of the changeable fields; id, external_id, status, created_at and updated_at are read-only (400)',
    },
    Order: jsonSchemaOf(orderSchema, { io: 'output', nullAsType: true }),
    OrderPage: jsonSchemaOf(orderPageSchema, { io: 'output', nullAsType: true }),
    BulkItemResult: jsonSchemaOf(bulkItemResultSchema, { io: 'output', nullAsType: true }),
    BulkResult: jsonSchemaOf(bulkResultSchema, { io: 'output', nullAsType: true }),
    OrderHistory: jsonSchemaOf(orderHistorySchema, { io: 'output', nullAsType: true }),
    PlanningJobRequest: jsonSchemaOf(planningRequestSchema, { nullAsType: true }),
    PlanningJobResult: jsonSchemaOf(planningJobResultSchema, { io: 'output', nullAsType: true }),
    PlanningJob: jsonSchemaOf(planningJobSchema, { io: 'output', nullAsType: true }),
    RouteListItem: jsonSchemaOf(routeListItemSchema, { io: 'output', nullAsType: true }),
    RoutePage: jsonSchemaOf(routePageSchema, { io: 'output', nullAsType: true }),
    Stop: jsonSchemaOf(stopSchema, { io: 'output', nullAsType: true }),
    Route: jsonSchemaOf(routeSchema, { io: 'output', nullAsType: true }),
    Tracking: jsonSchemaOf(trackingSchema, { io: 'output', nullAsType: true }),
    TrackingPosition: jsonSchemaOf(trackingPositionSchema, { io: 'output', nullAsType: true }),
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
    FleetVehicle: jsonSchemaOf(fleetVehicleSchema, { io: 'output', nullAsType: true }),
    FleetPage: jsonSchemaOf(fleetPageSchema, { io: 'output', nullAsType: true }),
    PositionsAccepted: record({ vehicle_id: int, accepted: { type: 'integer', minimum: 1 } }),
    OpenApiDocument: {
      type: 'object',
      description: 'This document (OpenAPI 3.1)',
      properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
      required: ['openapi', 'info', 'paths'],
    },
  };
}
