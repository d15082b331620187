/**
 * The operations of the OpenAPI document (openapi.ts builds the document from this table): for each,
 * the path, the scope, the body and its limit, the success answers and what else it can answer. The
 * answers every operation shares (401, 403, 429, the 400 of an unknown query parameter or malformed
 * JSON, 413 where a body is read, 500 and 503 on writes) are added by openapi.ts.
 */
import { INTERNAL_PREFIX } from './dispatch-routes.js';
import { BODY_LIMITS } from './limits.js';
import { ref } from './openapi-schemas.js';
import { ORDER_STATUSES, type Scope } from '../store/types.js';
import { ROUTE_STATUSES } from '../store/types.js';

export const PUBLIC_PREFIX = '/api/public/v1';
export const OPENAPI_PATH = `${PUBLIC_PREFIX}/openapi.json`;
export const DOCS_PATH = `${PUBLIC_PREFIX}/docs`;

export type Schema = Record<string, unknown>;
export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export type BadRequestForm = 'FieldErrors' | 'Detail' | 'DetailAndFieldErrors';

export interface Operation {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The scope the key needs; null: no key needed. */
  scope: Scope | null;
  parameters?: Schema[];
  body?: { schema: Schema; required: boolean; limit: number; description?: string };
  ok: Record<string, { description: string; schema: Schema }>;
  /** 400: what else than an unknown query parameter (FieldErrors) and, with a body, malformed JSON (Detail). */
  badRequest?: { forms: BadRequestForm[]; description: string };
  notFound?: string;
  conflict?: string;
  /** Extra reason for 429 beside the request limit. */
  tooMany?: string;
  /** 503 reasons; every write can meet a busy database. */
  unavailable?: string;
  write?: boolean;
}

export const json = (schema: Schema) => ({ 'application/json': { schema } });
export const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const idParam = (what: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  description: `${what} id (a non-numeric id or one of another company is 404)`,
  schema: { type: 'integer', minimum: 0 },
});
const pageParams = [
  { name: 'page', in: 'query', description: 'page number, from 1; past the last page is 404 "Invalid page."', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'page_size', in: 'query', description: 'default 50; above 200 is served as 200', schema: { type: 'integer', minimum: 1, default: 50 } },
];
export const optionalRetryAfter = { description: 'Seconds to wait before retrying (sent with a busy database or the request limit)', schema: { type: 'integer', minimum: 0 } };
export const busy = 'The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds.';

const O = PUBLIC_PREFIX;
const I = INTERNAL_PREFIX;

export const OPERATIONS: Operation[] = [
  {
    method: 'post', path: `${O}/orders/`, operationId: 'createOrder', tag: 'Orders', scope: 'orders:write', write: true,
    summary: 'Create one order',
    description: 'Geocoding runs after the answer. With the external_id of an existing order, that order is returned (200) and the data sent is discarded.',
    body: { schema: ref('OrderInput'), required: true, limit: BODY_LIMITS.default },
    ok: {
      '201': { description: 'Created, status new', schema: ref('Order') },
      '200': { description: 'An order with this external_id exists: it is returned unchanged', schema: ref('Order') },
    },
    badRequest: { forms: ['FieldErrors', 'Detail'], description: 'Field errors (every offending field, unknown and read-only ones included); `{detail}` for a body that is not a JSON object' },
  },
  {
    method: 'get', path: `${O}/orders/`, operationId: 'listOrders', tag: 'Orders', scope: 'orders:read',
    summary: 'List orders, newest first',
    parameters: [
      { name: 'status', in: 'query', schema: { type: 'string', enum: [...ORDER_STATUSES] } },
      { name: 'external_id', in: 'query', description: 'exact match', schema: { type: 'string' } },
      ...pageParams,
    ],
    ok: { '200': { description: 'A page of orders', schema: ref('OrderPage') } },
    badRequest: { forms: ['FieldErrors'], description: 'A bad or unknown query parameter, or one given twice' },
    notFound: 'A page past the last ("Invalid page.")',
  },
  {
    method: 'post', path: `${O}/orders/bulk/`, operationId: 'bulkCreateOrders', tag: 'Orders', scope: 'orders:write', write: true,
    summary: 'Create 1 to 500 orders',
    description: 'A bare JSON array. Each order is validated on its own; one invalid order does not stop the others (its item has status error).',
    body: { schema: { type: 'array', items: ref('OrderInput'), minItems: 1, maxItems: 500 }, required: true, limit: BODY_LIMITS.bulk },
    ok: { '200': { description: 'Processed; failures are reported per item', schema: ref('BulkResult') } },
    badRequest: { forms: ['Detail', 'FieldErrors'], description: 'Whole-request errors `{detail}`: not a non-empty list, or more than 500 orders' },
  },
  {
    method: 'get', path: `${O}/orders/{id}/`, operationId: 'getOrder', tag: 'Orders', scope: 'orders:read',
    summary: 'One order (an addition to the contract)',
    ok: { '200': { description: 'The order', schema: ref('Order') } },
    notFound: 'No such order',
  },
  {
    method: 'patch', path: `${O}/orders/{id}/`, operationId: 'updateOrder', tag: 'Orders', scope: 'orders:write', write: true,
    summary: 'Change an order in status new',
    description: 'Checked in this order: 404, the body on its own (400), the status (409), then lat/lon and the time window against the stored values (400).',
    body: { schema: ref('OrderPatch'), required: true, limit: BODY_LIMITS.default },
    ok: { '200': { description: 'The updated order', schema: ref('Order') } },
    badRequest: { forms: ['FieldErrors', 'Detail'], description: 'Read-only, unknown or invalid fields (field errors); an empty body is `{"detail": "No mutable fields were supplied."}`' },
    notFound: 'No such order',
    conflict: 'The order is not in status new: "Order can no longer be updated because it has been dispatched."',
  },
  {
    method: 'post', path: `${O}/orders/{id}/cancel/`, operationId: 'cancelOrder', tag: 'Orders', scope: 'orders:write', write: true,
    summary: 'Cancel an order in status new (it becomes archived)',
    description: 'No body is needed; one sent is ignored (but must be JSON).',
    body: { schema: { type: 'object', description: 'ignored' }, required: false, limit: BODY_LIMITS.default },
    ok: { '200': { description: 'The archived order', schema: ref('Order') } },
    notFound: 'No such order',
    conflict: 'The order is in a route, closed or already archived',
  },
  {
    method: 'get', path: `${O}/orders/{id}/events/`, operationId: 'getOrderEvents', tag: 'Orders', scope: 'orders:read',
    summary: 'Status history of an order, oldest first',
    ok: { '200': { description: 'The history', schema: ref('OrderHistory') } },
    notFound: 'No such order',
  },
  {
    method: 'post', path: `${O}/planning/jobs/`, operationId: 'startPlanningJob', tag: 'Planning', scope: 'planning:write', write: true,
    summary: 'Start a planning job',
    description: 'Validation is all-or-nothing: an unknown reference creates no job (400 with the 7.5 detail text). Keep job_id: there is no list of jobs.',
    parameters: [
      {
        name: 'Idempotency-Key', in: 'header', required: false,
        description: '1 to 255 visible ASCII characters. The same key and request within 24 h answer 200 with the first job; another request with the key is 409.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ],
    body: { schema: ref('PlanningJobRequest'), required: true, limit: BODY_LIMITS.planning },
    ok: {
      '202': { description: 'Accepted: the job in status queued', schema: ref('PlanningJob') },
      '200': { description: 'A repeated Idempotency-Key with the same request: the first job as it is now', schema: ref('PlanningJob') },
    },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A 7.5 text (`{detail}`), a bad Idempotency-Key, or a body of the wrong shape (`{detail, <field>: [messages]}`)' },
    conflict: 'The Idempotency-Key was used with a different request in the last 24 hours',
    tooMany: 'or the company already has the most planning jobs queued or running that it may have at once',
    unavailable: 'Planning is not available on this server (or it is shutting down), or the database is busy',
  },
  {
    method: 'get', path: `${O}/planning/jobs/{id}/`, operationId: 'getPlanningJob', tag: 'Planning', scope: 'planning:write',
    summary: 'A planning job',
    ok: { '200': { description: 'The job', schema: ref('PlanningJob') } },
    notFound: 'No such job',
  },
  {
    method: 'get', path: `${O}/routes/`, operationId: 'listRoutes', tag: 'Routes', scope: 'routes:read',
    summary: 'List routes, newest first',
    parameters: [
      { name: 'status', in: 'query', schema: { type: 'string', enum: [...ROUTE_STATUSES] } },
      { name: 'date', in: 'query', description: 'YYYY-MM-DD', schema: { type: 'string', format: 'date' } },
      ...pageParams,
    ],
    ok: { '200': { description: 'A page of routes', schema: ref('RoutePage') } },
    badRequest: { forms: ['FieldErrors'], description: 'A bad or unknown query parameter, or one given twice' },
    notFound: 'A page past the last ("Invalid page.")',
  },
  {
    method: 'get', path: `${O}/routes/{id}/`, operationId: 'getRoute', tag: 'Routes', scope: 'routes:read',
    summary: 'A route with its stops',
    ok: { '200': { description: 'The route', schema: ref('Route') } },
    notFound: 'No such route',
  },
  {
    method: 'get', path: `${O}/routes/{id}/tracking/`, operationId: 'getRouteTracking', tag: 'Tracking', scope: 'tracking:read',
    summary: 'Tracking snapshot of a route',
    description: 'Poll at most once every 30 seconds: the data does not change more often, and every poll counts against the request limit.',
    ok: { '200': { description: 'The snapshot', schema: ref('Tracking') } },
    notFound: 'No such route',
  },
  {
    method: 'post', path: `${I}/routes/{id}/vehicle`, operationId: 'assignRouteVehicle', tag: 'Dispatch', scope: 'dispatch:write', write: true,
    summary: 'Assign a vehicle to a route',
    description: 'The route must be planned or active; the vehicle active and not assigned to another route of that date.',
    body: { schema: ref('AssignVehicleRequest'), required: true, limit: BODY_LIMITS.default },
    ok: { '200': { description: 'The route, has_vehicle true', schema: ref('Route') } },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A body of the wrong shape' },
    notFound: 'No such route or vehicle',
    conflict: 'The route or the vehicle does not allow it (the detail says why)',
  },
  {
    method: 'post', path: `${I}/routes/{id}/start`, operationId: 'startRoute', tag: 'Dispatch', scope: 'dispatch:write', write: true,
    summary: 'Start a route (planned -> active)',
    body: { schema: ref('StartRouteRequest'), required: false, limit: BODY_LIMITS.default },
    ok: { '200': { description: 'The route, status active', schema: ref('Route') } },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A body of the wrong shape' },
    notFound: 'No such route',
    conflict: 'The route is not planned',
  },
  {
    method: 'post', path: `${I}/stops/{id}/status`, operationId: 'setStopStatus', tag: 'Dispatch', scope: 'dispatch:write', write: true,
    summary: "Report a stop's status",
    description: 'The order of an order stop follows (visited, confirmed, rejected, skipped), with a history entry and an order.status_changed event. The status a stop already has is a no-op 200.',
    body: { schema: ref('StopStatusRequest'), required: true, limit: BODY_LIMITS.default },
    ok: { '200': { description: 'The stop after the change, with its route', schema: ref('StopStatusResult') } },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A body of the wrong shape' },
    notFound: 'No such stop',
    conflict: 'A transition the stop or its route does not allow (the detail says why)',
  },
  {
    method: 'post', path: `${I}/vehicles/{id}/positions`, operationId: 'addVehiclePositions', tag: 'Dispatch', scope: 'dispatch:write', write: true,
    summary: 'Send vehicle positions (feeds tracking)',
    body: { schema: ref('PositionsRequest'), required: true, limit: BODY_LIMITS.positions },
    ok: { '201': { description: 'Stored', schema: ref('PositionsAccepted') } },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A body of the wrong shape, or a timestamp more than 5 minutes ahead of the server clock' },
    notFound: 'No such vehicle',
  },
  {
    method: 'post', path: `${I}/planning/replan`, operationId: 'replanDay', tag: 'Dispatch', scope: 'dispatch:write', write: true,
    summary: 'Re-plan a day in progress',
    description:
      "A job over the date's planned and active routes and the new orders: fixed stops (in_progress, visited, confirmed, rejected, skipped) stay with their times, pending stops may move between routes but are never dropped, kept stops keep their ids. A stop status written while it runs wins: the job computes again or fails with a readable error. Read it at the public planning job endpoint.",
    body: { schema: ref('ReplanRequest'), required: true, limit: BODY_LIMITS.planning },
    ok: { '202': { description: 'Accepted: the re-plan job in status queued', schema: ref('PlanningJob') } },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A 7.5 text (`{detail}`) or a body of the wrong shape' },
    tooMany: 'or the company already has the most planning jobs queued or running that it may have at once',
    unavailable: 'Planning is not available on this server (or it is shutting down), or the database is busy',
  },
  {
    method: 'post', path: `${I}/vehicles/{id}/unavailable`, operationId: 'markVehicleUnavailable', tag: 'Dispatch', scope: 'dispatch:write', write: true,
    summary: 'Take a vehicle out for the rest of its day',
    description: "A re-plan job moving the vehicle's pending stops (planned from `from` on) to the date's other routes; an order that fits nowhere goes back to new and is in the job's unassigned.",
    body: { schema: ref('VehicleUnavailableRequest'), required: false, limit: BODY_LIMITS.default },
    ok: { '202': { description: 'Accepted: the re-plan job in status queued', schema: ref('PlanningJob') } },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A body of the wrong shape' },
    notFound: 'No such vehicle',
    conflict: 'The vehicle has no planned or active route on the date of `from`',
    tooMany: 'or the company already has the most planning jobs queued or running that it may have at once',
    unavailable: 'Planning is not available on this server (or it is shutting down), or the database is busy',
  },
  {
    method: 'post', path: `${I}/planning/quote`, operationId: 'quoteOrder', tag: 'Dispatch', scope: 'dispatch:write', write: true,
    summary: 'Where and when one more order would go',
    description: "The cheapest feasible place for the order on the date's planned and active routes as they are now, changing nothing (no job).",
    body: { schema: ref('QuoteRequest'), required: true, limit: BODY_LIMITS.default },
    ok: { '200': { description: 'The place and ETA, or why there is none', schema: ref('QuoteResult') } },
    badRequest: { forms: ['Detail', 'DetailAndFieldErrors', 'FieldErrors'], description: 'A body of the wrong shape' },
    unavailable: 'Planning is not available on this server, or the database is busy',
  },
  {
    method: 'get', path: `${I}/vehicles/`, operationId: 'listFleet', tag: 'Dispatch', scope: 'dispatch:write',
    summary: "The company's vehicles, each with its route on a date",
    description: 'Every vehicle, active or not, by id; route_id and route_status name its route on the date (not cancelled), null without one. The id is what the dispatch API takes (a van out of service, its positions).',
    parameters: [{ name: 'date', in: 'query', required: true, description: 'YYYY-MM-DD', schema: { type: 'string', format: 'date' } }, ...pageParams],
    ok: { '200': { description: 'A page of vehicles, with the date', schema: ref('FleetPage') } },
    badRequest: { forms: ['FieldErrors'], description: 'No date, a bad one, or a bad or unknown query parameter' },
    notFound: 'A page past the last ("Invalid page.")',
  },
  {
    method: 'get', path: OPENAPI_PATH, operationId: 'getOpenApiDocument', tag: 'Documents', scope: null,
    summary: 'This OpenAPI document',
    description: `No key needed, and not counted against the request limit. A page showing it: ${DOCS_PATH}.`,
    ok: { '200': { description: 'The document', schema: ref('OpenApiDocument') } },
  },
];
