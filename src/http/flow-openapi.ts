/**
 * OpenAPI paths of the planning jobs, routes and tracking endpoints (merged into the document of
 * openapi.ts). The dispatch API lives under /api/internal/v1 and is described in the README.
 */
import { ROUTE_STATUSES, STOP_STATUSES } from '../store/routes.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (s: unknown) => ({ content: { 'application/json': { schema: s } } });
const answer = (description: string, s: unknown) => ({ description, ...json(s) });
const detail = ref('Detail');
const common = {
  '401': answer('Missing, unknown or revoked key', detail),
  '403': answer('The key lacks the scope', detail),
};
const notFound = { '404': answer('Not found (or another company\'s)', detail) };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const ts = { type: 'string', description: 'ISO 8601 UTC' };
const tsOrNull = { type: ['string', 'null'], description: 'ISO 8601 UTC or null' };
const dec = (d: number) => ({ type: 'string', description: `decimal string with ${d} decimals` });
const ints = { type: 'array', items: { type: 'integer' } };

const job = {
  type: 'object',
  properties: {
    job_id: { type: 'integer' },
    status: { type: 'string', enum: ['queued', 'running', 'done', 'failed'] },
    input: {
      type: 'object',
      properties: { order_ids: ints, vehicle_ids: ints, warehouse_id: { type: ['integer', 'null'] } },
    },
    result: {
      type: 'object',
      description: '{} until done and on failure',
      properties: {
        route_ids: ints,
        summary: { type: 'object', properties: { route_count: { type: 'integer' }, unassigned_count: { type: 'integer' } } },
        unassigned: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              order_id: { type: 'integer' },
              reason: { type: 'string', enum: ['capacity', 'time_window', 'max_distance', 'max_duration', 'max_orders', 'requirements', 'no_vehicle', 'unroutable'] },
            },
          },
        },
      },
    },
    error: { type: 'string' },
    created_at: ts,
    updated_at: ts,
  },
};

const routeItem = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    status: { type: 'string', enum: [...ROUTE_STATUSES] },
    date: { type: 'string', description: 'YYYY-MM-DD' },
    has_vehicle: { type: 'boolean', description: 'true once a vehicle is assigned (dispatch API)' },
    planned_mileage_km: dec(2),
    planned_duration_min: { type: 'integer' },
    actual_start_at: tsOrNull,
    actual_end_at: tsOrNull,
    total_weight_kg: dec(3),
    total_volume_m3: dec(3),
  },
};

const stop = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    position: { type: 'integer', description: 'from 1' },
    stop_type: { type: 'string', enum: ['order', 'start_depot', 'mid_depot', 'end_depot'] },
    status: { type: 'string', enum: [...STOP_STATUSES] },
    order_id: { type: ['integer', 'null'] },
    order_external_id: { type: ['string', 'null'] },
    address: { type: 'string' },
    lat: dec(6),
    lon: dec(6),
    eta: { ...tsOrNull, description: 'equal to planned_arrival_at' },
    planned_arrival_at: tsOrNull,
    planned_departure_at: tsOrNull,
    actual_arrival_at: tsOrNull,
    actual_departure_at: tsOrNull,
  },
};

export function flowOpenApiPaths(): Record<string, unknown> {
  return {
    '/planning/jobs/': {
      post: {
        summary: 'Start a planning job (scope planning:write)',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            additionalProperties: false,
            properties: {
              order_ids: ints,
              external_ids: { type: 'array', items: { type: 'string', maxLength: 128 } },
              vehicle_ids: ints,
              warehouse_id: { type: ['integer', 'null'] },
            },
          }),
        },
        responses: {
          '202': answer('Accepted: the job in status queued', job),
          '400': answer('A 7.5 detail text, or a body of the wrong shape ({detail} plus field -> messages)', detail),
          ...common,
        },
      },
      get: { summary: 'Not allowed: there is no list of jobs', responses: { '405': answer('Method not allowed', detail) } },
    },
    '/planning/jobs/{id}/': {
      parameters: [idParam],
      get: { summary: 'A planning job (scope planning:write)', responses: { '200': answer('The job', job), ...notFound, ...common } },
    },
    '/routes/': {
      get: {
        summary: 'List routes, newest first (scope routes:read)',
        parameters: [
          { name: 'status', in: 'query', schema: { type: 'string', enum: [...ROUTE_STATUSES] } },
          { name: 'date', in: 'query', schema: { type: 'string', description: 'YYYY-MM-DD' } },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          { name: 'page_size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
        ],
        responses: {
          '200': answer('A page', {
            type: 'object',
            properties: { count: { type: 'integer' }, next: { type: ['string', 'null'] }, previous: { type: ['string', 'null'] }, results: { type: 'array', items: routeItem } },
          }),
          '400': answer('Bad query parameter', ref('FieldErrors')),
          '404': answer('Page beyond the last', detail),
          ...common,
        },
      },
    },
    '/routes/{id}/': {
      parameters: [idParam],
      get: {
        summary: 'A route with its stops (scope routes:read)',
        responses: { '200': answer('The route', { allOf: [routeItem, { type: 'object', properties: { stops: { type: 'array', items: stop } } }] }), ...notFound, ...common },
      },
    },
    '/routes/{id}/tracking/': {
      parameters: [idParam],
      get: {
        summary: 'Tracking snapshot (scope tracking:read)',
        responses: {
          '200': answer('The snapshot', {
            type: 'object',
            properties: {
              route_id: { type: 'integer' },
              status: { type: 'string', enum: [...ROUTE_STATUSES] },
              progress: {
                type: 'object',
                description: 'order stops only; completed = confirmed, rejected or skipped',
                properties: { total: { type: 'integer' }, completed: { type: 'integer' }, remaining: { type: 'integer' } },
              },
              last_position: {
                type: ['object', 'null'],
                properties: { lat: { type: 'number' }, lon: { type: 'number' }, timestamp: ts, speed_kmh: { type: 'number' }, heading_deg: { type: 'number' } },
              },
            },
          }),
          ...notFound,
          ...common,
        },
      },
    },
  };
}
