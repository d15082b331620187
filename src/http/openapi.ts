/**
 * The OpenAPI 3.1 document of both APIs: the public one (/api/public/v1, docs/contract/public-api.md) and the
 * dispatch API (/api/internal/v1, docs/contract/operations.md). Built once when the app is built (buildApp
 * serialises it once too); served at GET /api/public/v1/openapi.json and shown at /api/public/v1/docs.
 *
 * Every operation lists every status the server can answer for it: the success codes, 400 (field
 * errors and/or `{detail}`: a malformed JSON body or a body of the wrong shape is `{detail}`), 401,
 * 403, 404, 409, 413, 429 (with Retry-After and the RateLimit-* headers), 500 and 503 where they
 * apply. The operations themselves are listed in openapi-operations.ts.
 * 405 is documentation only: a method a path does not take is not an operation; the path names
 * those methods in `x-methods-not-allowed` and its description. test/http/openapi-conformance.test.ts
 * checks live answers of the running server against this document.
 */
import { componentSchemas, ref } from './openapi-schemas.js';
import { INTERNAL_PREFIX } from './dispatch-routes.js';
import {
  busy,
  DOCS_PATH,
  header,
  idParam,
  json,
  OPENAPI_PATH,
  OPERATIONS,
  optionalRetryAfter,
  PUBLIC_PREFIX,
  type BadRequestForm,
  type Method,
  type Operation,
  type Schema,
} from './openapi-operations.js';
import type { Scope } from '../store/types.js';

export { DOCS_PATH, OPENAPI_PATH, PUBLIC_PREFIX };

/** The methods the server answers 405 to on a path that does not take them (request.ts). */
const ANSWERED_METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

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

const DESCRIPTION = `The delivery order and route planning service: the public API (${PUBLIC_PREFIX}) for an accounting system, and the dispatch API (${INTERNAL_PREFIX}) for the dispatcher's and drivers' apps.

**Authentication.** Every request but this document and its page carries \`Authorization: Api-Key <key>\`: the word \`Api-Key\` (any case), one space, the key (\`dpk_...\`). Each operation names the scope its key needs. Without a valid key: 401; without the scope: 403.

**Errors.** Field validation: 400 \`{"<field>": ["message", ...]}\`. Everything else: \`{"detail": "text"}\`. A malformed JSON body is 400 \`{"detail": "Malformed JSON: ..."}\`. An id that does not exist or belongs to another company is 404. A method a path does not take is 405 with an \`Allow\` header (listed per path in \`x-methods-not-allowed\`, not as operations). A request (headers and body) that does not arrive within 60 s is answered 408 and the connection closed. A write that cannot be stored (for example its webhook outbox row) is 500 \`{"detail": "Internal server error."}\` with nothing changed; a busy database is 503 with Retry-After.

**Limits.** Each key has a token bucket of requests a minute (1,200 by default); every answer to a valid key carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; past it 429 with Retry-After. Bodies: 6.74 MiB for bulk (500 orders with every field at its limit), 1 MiB for planning, 512 KiB for positions, 64 KiB elsewhere (413).

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
      { name: 'Dispatch', description: `The dispatch API under ${INTERNAL_PREFIX} (scope dispatch:write), for the dispatcher's and drivers' apps` },
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
