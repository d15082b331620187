/**
 * The OpenAPI 3.1 description, generated from the same zod schemas that validate requests
 * (order-schema.ts) and describe responses.
 */
import { z } from 'zod';
import { ORDER_STATUSES } from '../store/types.js';
import { orderCreateSchema, orderPatchSchema, orderSchema } from './order-schema.js';
import { flowOpenApiPaths } from './flow-openapi.js';

function schema(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

const fieldErrors = {
  type: 'object',
  description: 'field name -> array of messages',
  additionalProperties: { type: 'array', items: { type: 'string' } },
};
const detail = { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (s: unknown) => ({ content: { 'application/json': { schema: s } } });
const answer = (description: string, s: unknown) => ({ description, ...json(s) });
const common = {
  '401': answer('Missing, unknown or revoked key', ref('Detail')),
  '403': answer('The key lacks the scope', ref('Detail')),
};
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };

export function buildOpenApi(): Record<string, unknown> {
  const orderInput = schema(orderCreateSchema, 'input');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Delivery Order and Route Planning Public API',
      version: '1',
      description: 'Send `Authorization: Api-Key <key>`. Decimal fields are strings.',
    },
    servers: [{ url: '/api/public/v1' }],
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Api-Key <key>' } },
      schemas: {
        OrderInput: orderInput,
        OrderPatch: schema(orderPatchSchema, 'input'),
        Order: schema(orderSchema, 'output'),
        FieldErrors: fieldErrors,
        Detail: detail,
      },
    },
    security: [{ ApiKey: [] }],
    paths: {
      ...flowOpenApiPaths(),
      '/orders/': {
        get: {
          summary: 'List orders, newest first (scope orders:read)',
          parameters: [
            { name: 'status', in: 'query', schema: { type: 'string', enum: [...ORDER_STATUSES] } },
            { name: 'external_id', in: 'query', schema: { type: 'string' } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'page_size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          ],
          responses: {
            '200': answer('A page', {
              type: 'object',
              properties: {
                count: { type: 'integer' },
                next: { type: ['string', 'null'] },
                previous: { type: ['string', 'null'] },
                results: { type: 'array', items: ref('Order') },
              },
            }),
            '400': answer('Bad query parameter', ref('FieldErrors')),
            '404': answer('Page beyond the last', ref('Detail')),
            ...common,
          },
        },
        post: {
          summary: 'Create one order (scope orders:write)',
          requestBody: { required: true, ...json(ref('OrderInput')) },
          responses: {
            '201': answer('Created', ref('Order')),
            '200': answer('An order with this external_id exists; it is returned unchanged', ref('Order')),
            '400': answer('Validation failed', ref('FieldErrors')),
            '413': answer('Body too large', ref('Detail')),
            ...common,
          },
        },
      },
      '/orders/bulk/': {
        post: {
          summary: 'Create 1 to 500 orders (scope orders:write)',
          requestBody: { required: true, ...json({ type: 'array', minItems: 1, maxItems: 500, items: ref('OrderInput') }) },
          responses: {
            '200': answer('Processed; failures per item', {
              type: 'object',
              properties: {
                results: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      index: { type: 'integer' },
                      external_id: { type: ['string', 'null'] },
                      status: { type: 'string', enum: ['created', 'exists', 'error'] },
                      id: { type: ['integer', 'null'] },
                      errors: { anyOf: [ref('FieldErrors'), { type: 'null' }] },
                    },
                  },
                },
                summary: {
                  type: 'object',
                  properties: { created: { type: 'integer' }, existing: { type: 'integer' }, failed: { type: 'integer' } },
                },
              },
            }),
            '400': answer('Not a non-empty list, or more than 500', ref('Detail')),
            ...common,
          },
        },
      },
      '/orders/{id}/': {
        parameters: [idParam],
        get: {
          summary: 'One order (scope orders:read)',
          responses: { '200': answer('The order', ref('Order')), '404': answer('Not found', ref('Detail')), ...common },
        },
        patch: {
          summary: 'Change an order in status new (scope orders:write)',
          requestBody: { required: true, ...json(ref('OrderPatch')) },
          responses: {
            '200': answer('The updated order', ref('Order')),
            '400': answer('Read-only, unknown or invalid fields (FieldErrors), or empty body (Detail)', {
              anyOf: [ref('FieldErrors'), ref('Detail')],
            }),
            '404': answer('Not found', ref('Detail')),
            '409': answer('Order is not new', ref('Detail')),
            ...common,
          },
        },
        put: { summary: 'Not allowed', responses: { '405': answer('Method not allowed', ref('Detail')) } },
        delete: { summary: 'Not allowed', responses: { '405': answer('Method not allowed', ref('Detail')) } },
      },
      '/orders/{id}/cancel/': {
        parameters: [idParam],
        post: {
          summary: 'Cancel an order in status new: it becomes archived (scope orders:write)',
          responses: {
            '200': answer('The archived order', ref('Order')),
            '404': answer('Not found', ref('Detail')),
            '409': answer('Order is not new', ref('Detail')),
            ...common,
          },
        },
      },
      '/orders/{id}/events/': {
        parameters: [idParam],
        get: {
          summary: 'Order status history, oldest first (scope orders:read)',
          responses: {
            '200': answer('History', {
              type: 'object',
              properties: {
                order_id: { type: 'integer' },
                external_id: { type: ['string', 'null'] },
                current_status: { type: 'string', enum: [...ORDER_STATUSES] },
                events: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      status: { type: 'string' },
                      previous_status: { type: ['string', 'null'] },
                      at: { type: 'string' },
                    },
                  },
                },
              },
            }),
            '404': answer('Not found', ref('Detail')),
            ...common,
          },
        },
      },
    },
  };
}
