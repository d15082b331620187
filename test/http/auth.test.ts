import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/store/types.js';
import { BACKENDS } from '../e2e/backends.js';
import { BASE, makeAppOn } from './fixture.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let f: Awaited<ReturnType<typeof makeAppOn>>;
  beforeEach(async () => {
    f = await makeAppOn(kind, { geocoding: false });
  });
  afterEach(async () => {
    await f.close();
  });

  const ENDPOINTS: [string, string, Scope, unknown][] = [
    ['GET', '/orders/', 'orders:read', undefined],
    ['GET', '/orders/1/', 'orders:read', undefined],
    ['GET', '/orders/1/events/', 'orders:read', undefined],
    ['POST', '/orders/', 'orders:write', { address: 'x' }],
    ['POST', '/orders/bulk/', 'orders:write', [{ address: 'x' }]],
    ['PATCH', '/orders/1/', 'orders:write', { name: 'x' }],
    ['POST', '/orders/1/cancel/', 'orders:write', undefined],
  ];

  describe('Api-Key authentication (5, docs/contract/operations.md)', () => {
    it('answers 401 {detail} for a missing, malformed, unknown or revoked key, before reading the body', async () => {
      const revoked = await f.port.apiKeys.create({ company_id: f.company.id, scopes: [...SCOPES] }, new Date().toISOString());
      await f.port.apiKeys.revoke(revoked.record.id, new Date().toISOString());
      const headers: [Record<string, string>, string][] = [
        [{}, 'Authentication credentials were not provided.'],
        [{ authorization: '' }, 'Authentication credentials were not provided.'],
        [{ authorization: `Bearer ${f.key}` }, 'Invalid Authorization header. Expected "Api-Key <key>".'],
        [{ authorization: f.key }, 'Invalid Authorization header. Expected "Api-Key <key>".'],
        [{ authorization: 'Api-Key' }, 'Invalid Authorization header. Expected "Api-Key <key>".'],
        [{ authorization: 'Api-Key dpk_nonsense_key_that_does_not_exist' }, 'Invalid or revoked API key.'],
        [{ authorization: `Api-Key ${f.key}x` }, 'Invalid or revoked API key.'],
        [{ authorization: `Api-Key ${revoked.key}` }, 'Invalid or revoked API key.'],
        [{ authorization: `Api-Key ${'k'.repeat(5000)}` }, 'Invalid or revoked API key.'],
      ];
      for (const [method, path, , body] of ENDPOINTS) {
        for (const [h, detail] of headers) {
          const r = await f.app.inject({
            method: method as 'GET',
            url: BASE + path,
            headers: { ...h, 'content-type': 'application/json' },
            payload: body === undefined ? undefined : '{not json',
          });
          expect(r.statusCode, `${method} ${path} ${JSON.stringify(h).slice(0, 60)}`).toBe(401);
          expect(r.json()).toEqual({ detail });
          expect(r.headers['www-authenticate']).toBe('Api-Key');
        }
      }
    });

    it('accepts the scheme name in any case', async () => {
      const r = await f.app.inject({ method: 'GET', url: `${BASE}/orders/`, headers: { authorization: `api-key ${f.key}` } });
      expect(r.statusCode).toBe(200);
    });

    it('answers 403 {detail} naming the scope when the key lacks it, and lets the scope through', async () => {
      await f.inject('POST', '/orders/', { address: 'x' });
      for (const [method, path, scope, body] of ENDPOINTS) {
        const without = await f.keyWith(SCOPES.filter((s) => s !== scope));
        const denied = await f.inject(method, path, body, without);
        expect(denied.statusCode, `${method} ${path}`).toBe(403);
        expect(denied.json()).toEqual({ detail: `You do not have permission to perform this action (requires scope ${scope}).` });
        const only = await f.keyWith([scope]);
        const allowed = await f.inject(method, path, body, only);
        expect(allowed.statusCode, `${method} ${path}`).toBeLessThan(300);
      }
    });

    it('405 needs a valid key but no particular scope', async () => {
      const r = await f.app.inject({ method: 'PUT', url: `${BASE}/orders/1/` });
      expect(r.statusCode).toBe(401);
      const weak = await f.keyWith(['tracking:read']);
      expect((await f.inject('DELETE', '/orders/1/', undefined, weak)).statusCode).toBe(405);
    });

    it('never shows another company\'s orders: 404 on every order endpoint', async () => {
      const o = (await f.inject('POST', '/orders/', { address: 'x', external_id: 'SECRET' })).json();
      for (const [method, path, , body] of ENDPOINTS.filter(([, p]) => p.includes('/1/'))) {
        const r = await f.inject(method, path.replace('/1/', `/${o.id}/`), body, f.otherKey);
        expect(r.statusCode, `${method} ${path}`).toBe(404);
        expect(r.json()).toEqual({ detail: 'Not found.' });
      }
      expect((await f.inject('GET', '/orders/?external_id=SECRET', undefined, f.otherKey)).json().count).toBe(0);
      const dup = await f.inject('POST', '/orders/', { address: 'y', external_id: 'SECRET' }, f.otherKey);
      expect(dup.statusCode).toBe(201);
    });

    it('serves the OpenAPI description without a key', async () => {
      const r = await f.app.inject({ method: 'GET', url: `${BASE}/openapi.json` });
      expect(r.statusCode).toBe(200);
      const doc = r.json();
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/orders/', '/orders/bulk/', '/orders/{id}/', '/orders/{id}/cancel/', '/orders/{id}/events/'].map((p) => BASE + p)));
      const input = doc.components.schemas.OrderInput;
      expect(input.required).toEqual(['address']);
      expect(input.properties.address.maxLength).toBe(512);
      expect(input.properties.phone.maxLength).toBe(30);
      expect(input.additionalProperties).toBe(false);
      expect(doc.components.schemas.Order.properties.weight.type).toBe('string');
    });

    it('unknown paths are 404 {detail} and every answer carries a request id', async () => {
      const r = await f.app.inject({ method: 'GET', url: '/api/public/v1/nothing/' });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ detail: 'Not found.' });
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const given = await f.app.inject({ method: 'GET', url: `${BASE}/orders/`, headers: { ...f.auth(), 'x-request-id': 'trace-42' } });
      expect(given.headers['x-request-id']).toBe('trace-42');
    });
  });
});
