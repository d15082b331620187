/**
 * The named component schemas of the OpenAPI document (openapi.ts). Every answer's shape is defined
 * once in src/contract/ (zod: errors, the order in and out, pages, bulk results, order history,
 * the planning request and job, routes, stops and tracking, the dispatch API's bodies and answers)
 * and comes from its schema (json-schema.ts); the handlers parse with those schemas and return their
 * types. Only the document's own description is written here.
 */
import { jsonSchemaOf } from '../contract/json-schema.js';
import { quoteRequestSchema, quoteResultSchema, replanRequestSchema, unavailableRequestSchema } from '../contract/dispatch.js';
import { assignVehicleRequestSchema, positionInputSchema, positionsAcceptedSchema, positionsRequestSchema, startRouteRequestSchema, stopStatusRequestSchema } from '../contract/driver.js';
import { fleetPageSchema, fleetVehicleSchema } from '../contract/fleet.js';
import { detailAndFieldErrorsSchema, detailSchema, fieldErrorsSchema } from '../contract/errors.js';
import { bulkItemResultSchema, bulkResultSchema, orderCreateSchema, orderHistorySchema, orderPageSchema, orderPatchSchema, orderSchema } from '../contract/order.js';
import { routeListItemSchema, routePageSchema, routeSchema, stopSchema, stopStatusResultSchema, trackingPositionSchema, trackingSchema } from '../contract/route.js';
import { planningJobResultSchema, planningJobSchema, planningRequestSchema } from '../contract/planning.js';

type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

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
    AssignVehicleRequest: jsonSchemaOf(assignVehicleRequestSchema, { nullAsType: true }),
    StartRouteRequest: jsonSchemaOf(startRouteRequestSchema, { nullAsType: true }),
    StopStatusRequest: jsonSchemaOf(stopStatusRequestSchema, { nullAsType: true }),
    StopStatusResult: jsonSchemaOf(stopStatusResultSchema, { io: 'output', nullAsType: true }),
    PositionInput: jsonSchemaOf(positionInputSchema, { nullAsType: true }),
    PositionsRequest: jsonSchemaOf(positionsRequestSchema, { nullAsType: true }),
    ReplanRequest: jsonSchemaOf(replanRequestSchema, { nullAsType: true }),
    VehicleUnavailableRequest: jsonSchemaOf(unavailableRequestSchema, { nullAsType: true }),
    QuoteRequest: jsonSchemaOf(quoteRequestSchema, { nullAsType: true }),
    QuoteResult: jsonSchemaOf(quoteResultSchema, { io: 'output', nullAsType: true }),
    FleetVehicle: jsonSchemaOf(fleetVehicleSchema, { io: 'output', nullAsType: true }),
    FleetPage: jsonSchemaOf(fleetPageSchema, { io: 'output', nullAsType: true }),
    PositionsAccepted: jsonSchemaOf(positionsAcceptedSchema, { io: 'output', nullAsType: true }),
    OpenApiDocument: {
      type: 'object',
      description: 'This document (OpenAPI 3.1)',
      properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
      required: ['openapi', 'info', 'paths'],
    },
  };
}
