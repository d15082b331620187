/**
 * Property-based abuse of every endpoint of both APIs (fast-check): generated bodies, query
 * strings, path ids, content types and methods. Whatever arrives, the answer is 2xx or 4xx, never
 * 5xx, and every 4xx carries the contract's error shape: `{"detail": text}` or field errors
 * (`{field: [text, ...]}`, with or without a detail).
 */
import { checkInject } from '../helpers/openapi-conformance.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld as makeWorldOn, type World, type WorldOptions } from '../e2e/world.js';
import { BACKENDS } from '../e2e/backends.js';

const ENDPOINTS: Array<[string, string]> = [
  ['POST', '/api/public/v1/orders/'],
  ['GET', '/api/public/v1/orders/'],
  ['POST', '/api/public/v1/orders/bulk/'],
  ['GET', '/api/public/v1/orders/{id}/'],
  ['PATCH', '/api/public/v1/orders/{id}/'],
  ['POST', '/api/public/v1/orders/{id}/cancel/'],
  ['GET', '/api/public/v1/orders/{id}/events/'],
  ['POST', '/api/public/v1/planning/jobs/'],
  ['GET', '/api/public/v1/planning/jobs/{id}/'],
  ['GET', '/api/public/v1/routes/'],
  ['GET', '/api/public/v1/routes/{id}/'],
  ['GET', '/api/public/v1/routes/{id}/tracking/'],
  ['POST', '/api/internal/v1/routes/{id}/vehicle'],
  ['POST', '/api/internal/v1/routes/{id}/start'],
  ['POST', '/api/internal/v1/stops/{id}/status'],
  ['POST', '/api/internal/v1/vehicles/{id}/positions'],
];

const FIELDS = ['external_id', 'address', 'lat', 'lon', 'weight', 'volume', 'delivery_date', 'time_window_start', 'time_window_end', 'service_time',
  'order_ids', 'external_ids', 'vehicle_ids', 'warehouse_id', 'status', 'at', 'vehicle_id', 'timestamp', 'speed_kmh', 'heading_deg', 'name', 'phone'];

/** JSON values, and objects whose keys are mostly real field names (so validation is reached). */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '1e999', '-0', 'NaN', '2026-12-01', '25:61', '9'.repeat(400), '\u0000', '__proto__', '2026-12-01T08:00:00Z'),
  fc.integer(),
  fc.double(),
);
const body = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })), value, { maxKeys: 8 }),
  fc.array(fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }), { maxLength: 4 }),
  value,
);
const raw = fc.oneof(
  body.map((b) => JSON.stringify(b) ?? ''),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('{', '[1,', '{"a":', '\u00ff\u00fe', '{"__proto__":{"x":1}}', 'null', '""'),
);
const id = fc.oneof(fc.nat({ max: 50 }).map(String), fc.constantFrom('0', '-1', '1.5', 'x', '%00', '99999999999999999999', '1e3', '%2F..%2F'), fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent));
const query = fc.array(
  fc.tuple(fc.constantFrom('page', 'page_size', 'status', 'delivery_date', 'date', 'route_status', 'x', 'external_id'), fc.string({ maxLength: 15 })),
  { maxLength: 4 },
).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`));
const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined);

function assertShape(status: number, text: string, where: string) {
  expect(status, where).toBeLessThan(500);
  if (status < 400) return;
  let parsed: unknown;
  expect(() => (parsed = JSON.parse(text)), `${where}: not JSON: ${text.slice(0, 200)}`).not.toThrow();
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), where).toBe(true);
  const entries = Object.entries(parsed as Record<string, unknown>);
  expect(entries.length, where).toBeGreaterThan(0);
  for (const [k, v] of entries) {
    if (k === 'detail') expect(typeof v, `${where}: detail`).toBe('string');
    else expect(Array.isArray(v) && v.every((m) => typeof m === 'string'), `${where}: field ${k} = ${JSON.stringify(v)}`).toBe(true);
  }
}

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeWorld = (options: WorldOptions = {}) => makeWorldOn({ ...options, kind });

  describe('fuzz: every endpoint answers 2xx or 4xx with the contract shapes', () => {
    let w: World;
    beforeAll(async () => {
      w = await makeWorld();
      await w.addOrders(w.someOrders(5, 'FUZZ'));
      await w.plan({ external_ids: ['FUZZ-1', 'FUZZ-2'] });
    });
    afterAll(async () => w?.close());

    for (const [method, template] of ENDPOINTS) {
      it(`${method} ${template}`, async () => {
        await fc.assert(
          fc.asyncProperty(id, query, raw, contentType, async (pathId, q, payload, type) => {
            const url = template.replace('{id}', pathId) + q;
            const res = await w.app.inject({
              method: method as 'POST',
              url,
              headers: { authorization: `Api-Key ${w.key}`, ...(type ? { 'content-type': type } : {}) },
              payload: method === 'GET' ? undefined : payload,
            });
            assertShape(res.statusCode, res.body, `${method} ${url} ${type} ${payload.slice(0, 100)}`);
            checkInject(method, url, res);
          }),
          { numRuns: 60, seed: 20261125 },
        );
      });
    }

    it('methods, paths and headers of any kind: never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
          fc.oneof(fc.constantFrom(...ENDPOINTS.map(([, t]) => t)), fc.string({ maxLength: 30 }).map((s) => `/api/public/v1/${encodeURIComponent(s)}`)),
          id,
          fc.oneof(fc.constant(`Api-Key ${'k'}`), fc.string({ maxLength: 30 }), fc.constant(undefined)),
          fc.dictionary(fc.constantFrom('x-request-id', 'idempotency-key', 'accept', 'content-length-x'), fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), { maxKeys: 3 }),
          async (method, template, pathId, authorization, headers) => {
            const url = template.replace('{id}', pathId);
            const res = await w.app.inject({
              method: method as 'GET',
              url,
              headers: { ...headers, ...(authorization === undefined ? {} : { authorization: authorization.replace(/[^\x20-\x7e]/g, '') }) },
            });
            if (method !== 'HEAD') assertShape(res.statusCode, res.body, `${method} ${url}`);
            else expect(res.statusCode).toBeLessThan(500);
            // HEAD and OPTIONS are neither operations nor answered 405: the document says nothing of them
            if (method !== 'HEAD' && method !== 'OPTIONS') checkInject(method, url, res);
          },
        ),
        { numRuns: 200, seed: 20261125 },
      );
    });
  });
});
