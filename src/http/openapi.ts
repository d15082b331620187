/**
 * The OpenAPI 3.1 document of both APIs: the public one (/api/public/v1, public-api.md) and the
 * dispatch API (/api/internal/v1, operations.md). Built once when the app is built (buildApp
 * serialises it once too); served at GET /api/public/v1/openapi.json and shown at /api/public/v1/docs.
 *
 * Every operation lists every status the server can answer for it: the success codes, 400 (field
 * errors and/or `{detail}`: a malformed JSON body or a body of the wrong shape is `{detail}`), 401,
 * 403, 404, 409, 413, 429 (with Retry-After and the RateLimit-* headers) and 503 where they apply.
 * 405 is documentation only: a method a path does not take is not an operation; the path names
 * those methods in `x-methods-not-allowed` and its description. test/http/openapi-conformance.test.ts
 * checks live answers of the running server against this document.
 */
import { BODY_LIMITS } from './limits.js';
import { componentSchemas, ref } from './openapi-schemas.js';
import { ORDER_STATUSES } from '../store/types.js';
import { ROUTE_STATUSES } from '../store/routes.js';
import type { Scope } from '../store/types.js';

export const PUBLIC_PREFIX = '/api/public/v1';
export const INTERNAL_PREFIX_PATH = '/api/internal/v1';
export const OPENAPI_PATH = `${PUBLIC_PREFIX}/openapi.json`;
export const DOCS_PATH = `${PUBLIC_PREFIX}/docs`;

type Schema = Record<string, unknown>;
type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
/** The methods the server answers 405 to on a path that does not take them (request.ts). */
const ANSWERED_METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

type BadRequestForm = 'FieldErrors' | 'Detail' | 'DetailAndFieldErrors';

interface Operation {
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

const json = (schema: Schema) => ({ 'application/json': { schema } });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const idParam = (what: string) => ({
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
const optionalRetryAfter = { description: 'Seconds to wait before retrying (sent with a busy database or the request limit)', schema: { type: 'integer', minimum: 0 } };
const busy = 'The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds.';

const O = PUBLIC_PREFIX;
const I = INTERNAL_PREFIX_PATH;

const OPERATIONS: Operation[] = [
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
    method: 'get', path: OPENAPI_PATH, operationId: 'getOpenApiDocument', tag: 'Documents', scope: null,
    summary: 'This OpenAPI document',
    description: `No key needed, and not counted against the request limit. A page showing it: ${DOCS_PATH}.`,
    ok: { '200': { description: 'The document', schema: ref('OpenApiDocument') } },
  },
];

function badRequestSchema(forms: BadRequestForm[]): Schema {
  const unique = [...new Set(forms)];
  return unique.length === 1 ? ref(unique[0]!) : { anyOf: unique.map(ref) };
}

function responses(op: Operation): Record<string, Schema> {
  const authed = op.scope !== null;
  const common = authed
    ? { 'X-Request-Id': header('X-Request-Id'), 'RateLimit-Limit': header('RateLimit-Limit'), 'RateLimit-Remaining': header('RateLimit-Remaining'), 'RateLimit-Reset': header('RateLimit-Reset') }
    : { 'X-Request-Id': header('X-Request-Id') };
  const answer = (description: string, schema: Schema, headers: Record<string, unknown> = common) => ({ description, headers, content: json(schema) });
  const out: Record<string, Schema> = {};
  for (const [status, ok] of Object.entries(op.ok)) out[status] = answer(ok.description, ok.schema);
  if (!authed) return out;
  const forms: BadRequestForm[] = [...(op.badRequest?.forms ?? []), 'FieldErrors'];
  const why = ['an unknown query parameter (field errors)'];
  if (op.body) {
    forms.push('Detail');
    why.push('malformed JSON (`{"detail": "Malformed JSON: ..."}`)');
  }
  if (op.path.includes('{')) {
    forms.push('Detail');
    why.push('a path that is not valid percent-encoding (`{detail}`)');
  }
  out['400'] = answer(`${op.badRequest ? `${op.badRequest.description}; ` : ''}${why.join('; ')}`, badRequestSchema(forms));
  out['401'] = { $ref: '#/components/responses/Unauthorized' };
  out['403'] = { $ref: '#/components/responses/Forbidden' };
  if (op.notFound) out['404'] = answer(`${op.notFound} ("Not found."; also an id of another company)`, ref('Detail'));
  if (op.conflict) out['409'] = answer(op.conflict, ref('Detail'));
  if (op.body) out['413'] = answer(`The body is over ${op.body.limit / 1024} KiB ("Request body is too large."); checked before it is read`, ref('Detail'));
  out['429'] = op.tooMany
    ? {
        description: `Over the request limit of the key (with Retry-After), ${op.tooMany}`,
        headers: { ...common, 'Retry-After': optionalRetryAfter },
        content: json(ref('Detail')),
      }
    : { $ref: '#/components/responses/TooManyRequests' };
  // a write whose own transaction fails for a reason that is not a busy database (its webhook
  // outbox row cannot be written, the disk is full): the change is rolled back
  if (op.write) out['500'] = answer('The change could not be stored (for example its webhook outbox row); nothing was changed', ref('Detail'));
  if (op.write || op.unavailable) {
    out['503'] = {
      description: op.unavailable ?? busy,
      headers: { ...common, 'Retry-After': op.unavailable ? optionalRetryAfter : header('Retry-After') },
      content: json(ref('Detail')),
    };
  }
  return out;
}

function operationObject(op: Operation): Schema {
  const parameters = op.parameters ?? [];
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.scope === null ? [] : [{ ApiKey: [op.scope] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? { requestBody: { required: op.body.required, ...(op.body.description ? { description: op.body.description } : {}), content: json(op.body.schema) } }
      : {}),
    responses: responses(op),
  };
}

function paths(): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const op of OPERATIONS) {
    const item = (out[op.path] ??= {});
    item[op.method] = operationObject(op);
  }
  for (const [path, item] of Object.entries(out)) {
    if (path === OPENAPI_PATH) continue;
    const taken = ANSWERED_METHODS.filter((m) => m in item);
    const refused = ANSWERED_METHODS.filter((m) => !(m in item)).map((m) => m.toUpperCase());
    // the path parameter is declared once per path
    if (path.includes('{id}')) {
      const what = path.includes('/stops/') ? 'Stop' : path.includes('/vehicles/') ? 'Vehicle' : path.includes('/routes/') ? 'Route' : path.includes('/jobs/') ? 'Job' : 'Order';
      item.parameters = [idParam(what)];
    }
    item['x-methods-not-allowed'] = refused;
    item.description = `Takes ${taken.map((m) => m.toUpperCase()).join(' and ')}. ${refused.join(', ')} answer 405 {"detail": "Method \\"PUT\\" not allowed."} with an Allow header (a valid key is needed, no scope). With or without the trailing slash.`;
  }
  return out;
}

const DESCRIPTION = `The delivery order and route planning service: the public API (${PUBLIC_PREFIX}) for an accounting system, and the dispatch API (${INTERNAL_PREFIX_PATH}) for the dispatcher's and drivers' apps.

**Authentication.** Every request but this document and its page carries \`Authorization: Api-Key <key>\`: the word \`Api-Key\` (any case), one space, the key (\`dpk_...\`). Each operation names the scope its key needs. Without a valid key: 401; without the scope: 403.

**Errors.** Field validation: 400 \`{"<field>": ["message", ...]}\`. Everything else: \`{"detail": "text"}\`. A malformed JSON body is 400 \`{"detail": "Malformed JSON: ..."}\`. An id that does not exist or belongs to another company is 404. A method a path does not take is 405 with an \`Allow\` header (listed per path in \`x-methods-not-allowed\`, not as operations). A request (headers and body) that does not arrive within 60 s is answered 408 and the connection closed. A write that cannot be stored (for example its webhook outbox row) is 500 \`{"detail": "Internal server error."}\` with nothing changed; a busy database is 503 with Retry-After.

**Limits.** Each key has a token bucket of requests a minute (1,200 by default); every answer to a valid key carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; past it 429 with Retry-After. Bodies: 8 MiB for bulk, 1 MiB for planning, 512 KiB for positions, 64 KiB elsewhere (413).

**Values.** Decimals (weight, volume, lat/lon of orders and stops, route km and totals) are strings; tracking positions are plain numbers. Timestamps are ISO 8601 UTC with a trailing Z.

Paths work with and without the trailing slash; the contract's paths carry it.`;

export function buildOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Delivery Order and Route Planning API',
      version: '1',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'this server' }],
    tags: [
      { name: 'Orders', description: 'Orders (contract 4.1 to 4.5, 4.10)' },
      { name: 'Planning', description: 'Planning jobs (contract 4.6, 4.7)' },
      { name: 'Routes', description: 'Routes, read-only (contract 4.8)' },
      { name: 'Tracking', description: 'Tracking snapshots (contract 4.9)' },
      { name: 'Dispatch', description: `The dispatch API under ${INTERNAL_PREFIX_PATH} (scope dispatch:write), for the dispatcher's and drivers' apps` },
      { name: 'Documents', description: 'This document' },
    ],
    security: [{ ApiKey: [] }],
    paths: paths(),
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'The header value is `Api-Key <key>`: the prefix `Api-Key` (any case), one space, then the key, e.g. `Authorization: Api-Key dpk_...`. The key alone is refused (401). Keys come from `delivery-planner admin key create`; their scopes are listed on each operation.',
        },
      },
      headers: {
        'X-Request-Id': { description: 'The id of the request in the server log (a client-sent X-Request-Id of 1 to 128 word characters, dots and dashes is kept)', schema: { type: 'string' } },
        'RateLimit-Limit': { description: 'Requests a minute of this key (absent when the limit is off)', schema: { type: 'integer', minimum: 0 } },
        'RateLimit-Remaining': { description: 'Requests left now', schema: { type: 'integer', minimum: 0 } },
        'RateLimit-Reset': { description: 'Seconds until the bucket is full again', schema: { type: 'integer', minimum: 0 } },
        'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 0 } },
        'WWW-Authenticate': { description: 'Always `Api-Key`', required: true, schema: { type: 'string', const: 'Api-Key' } },
      },
      responses: {
        Unauthorized: {
          description: 'Missing, malformed, unknown or revoked key',
          headers: { 'WWW-Authenticate': header('WWW-Authenticate'), 'X-Request-Id': header('X-Request-Id') },
          content: json(ref('Detail')),
        },
        Forbidden: {
          description: 'The key lacks the scope ("You do not have permission to perform this action (requires scope ...).")',
          headers: { 'X-Request-Id': header('X-Request-Id'), 'RateLimit-Limit': header('RateLimit-Limit'), 'RateLimit-Remaining': header('RateLimit-Remaining'), 'RateLimit-Reset': header('RateLimit-Reset') },
          content: json(ref('Detail')),
        },
        TooManyRequests: {
          description: 'Over the request limit of the key ("Request was throttled. Expected available in N seconds.")',
          headers: {
            'Retry-After': header('Retry-After'),
            'X-Request-Id': header('X-Request-Id'),
            'RateLimit-Limit': header('RateLimit-Limit'),
            'RateLimit-Remaining': header('RateLimit-Remaining'),
            'RateLimit-Reset': header('RateLimit-Reset'),
          },
          content: json(ref('Detail')),
        },
      },
      schemas: componentSchemas(),
    },
  };
}

/** Every operation: method, path and operationId (for tests that must touch each one). */
export function listOperations(): Array<{ method: string; path: string; operationId: string; scope: Scope | null }> {
  return OPERATIONS.map((o) => ({ method: o.method.toUpperCase(), path: o.path, operationId: o.operationId, scope: o.scope }));
}
