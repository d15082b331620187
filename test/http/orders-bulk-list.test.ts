import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { makeAppOn } from './fixture.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let f: Awaited<ReturnType<typeof makeAppOn>>;
  beforeEach(async () => {
    f = await makeAppOn(kind, { geocoding: false });
  });
  afterEach(async () => {
    await f.close();
  });

  describe('POST /orders/bulk/ (4.2)', () => {
    it('processes each item independently and reports per item and in a summary', async () => {
      await f.inject('POST', '/orders/', { address: 'old', external_id: 'OLD' });
      const r = await f.inject('POST', '/orders/bulk/', [
        { address: 'A', external_id: 'B-1' },
        { address: '', external_id: 'B-2' },
        { address: 'C', external_id: 'OLD' },
        { address: 'D' },
        42,
        { address: 'E', external_id: 'B-1' },
        { address: 'F', external_id: { x: 1 }, weight: 'heavy' },
      ]);
      expect(r.statusCode).toBe(200);
      const { results, summary } = r.json();
      expect(summary).toEqual({ created: 2, existing: 2, failed: 3 });
      expect(results).toHaveLength(7);
      expect(results[0]).toEqual({ index: 0, external_id: 'B-1', status: 'created', id: expect.any(Number), errors: null });
      expect(results[1]).toEqual({ index: 1, external_id: 'B-2', status: 'error', id: null, errors: { address: ['This field may not be blank.'] } });
      expect(results[2]).toMatchObject({ index: 2, external_id: 'OLD', status: 'exists', errors: null });
      expect(results[3]).toMatchObject({ index: 3, external_id: null, status: 'created', errors: null });
      expect(results[4]).toEqual({ index: 4, external_id: null, status: 'error', id: null, errors: { non_field_errors: ['Invalid data. Expected a JSON object, but got number.'] } });
      expect(results[5]).toMatchObject({ index: 5, external_id: 'B-1', status: 'exists', id: results[0].id });
      expect(results[6]).toMatchObject({ index: 6, external_id: null, status: 'error', id: null });
      expect(results[6].errors).toEqual({ external_id: ['Not a valid string.'], weight: ['A valid number is required.'] });
      const list = (await f.inject('GET', '/orders/')).json();
      expect(list.count).toBe(3);
    });

    it('accepts 500 orders and refuses 501 or an empty or non-list body with {detail}', async () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => ({ address: `Street ${i}`, external_id: `N-${i}` }));
      const ok = await f.inject('POST', '/orders/bulk/', many(500));
      expect(ok.statusCode).toBe(200);
      expect(ok.json().summary).toEqual({ created: 500, existing: 0, failed: 0 });
      const again = await f.inject('POST', '/orders/bulk/', many(500));
      expect(again.json().summary).toEqual({ created: 0, existing: 500, failed: 0 });

      const tooMany = await f.inject('POST', '/orders/bulk/', many(501));
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toEqual({ detail: 'A bulk request may hold at most 500 orders (got 501).' });
      for (const body of ['[]', '{"address":"x"}', '"x"', '7', 'null']) {
        const r = await f.inject('POST', '/orders/bulk/', body);
        expect(r.statusCode, body).toBe(400);
        expect(r.json()).toEqual({ detail: 'The body must be a non-empty list of orders.' });
      }
      const noBody = await f.app.inject({ method: 'POST', url: '/api/public/v1/orders/bulk/', headers: f.auth() });
      expect(noBody.statusCode).toBe(400);
      expect(noBody.json()).toEqual({ detail: 'The body must be a non-empty list of orders.' });
      expect((await f.inject('GET', '/orders/?page_size=1')).json().count).toBe(500);
    });
  });

  describe('GET /orders/ (4.3)', () => {
    async function seed(n: number) {
      const body = Array.from({ length: n }, (_, i) => ({ address: `S${i}`, external_id: `E-${i % 3}-${i}` }));
      const r = await f.inject('POST', '/orders/bulk/', body);
      return r.json().results.map((x: { id: number }) => x.id) as number[];
    }

    it('lists newest first with count, next, previous; page_size default 50', async () => {
      const ids = await seed(120);
      const p1 = await f.inject('GET', '/orders/');
      expect(p1.statusCode).toBe(200);
      const b1 = p1.json();
      expect(b1.count).toBe(120);
      expect(b1.results).toHaveLength(50);
      expect(b1.results[0].id).toBe(ids[119]);
      expect(b1.results.map((o: { id: number }) => o.id)).toEqual([...ids].reverse().slice(0, 50));
      expect(b1.previous).toBeNull();
      expect(b1.next).toBe('/api/public/v1/orders/?page=2&page_size=50');
      const b3 = (await f.inject('GET', '/orders/?page=3')).json();
      expect(b3.results).toHaveLength(20);
      expect(b3.next).toBeNull();
      expect(b3.previous).toBe('/api/public/v1/orders/?page=2&page_size=50');
      expect(b3.results.at(-1).id).toBe(ids[0]);
    });

    it('caps page_size at 200 and keeps filters in the links', async () => {
      await seed(250);
      const big = (await f.inject('GET', '/orders/?page_size=1000')).json();
      expect(big.results).toHaveLength(200);
      expect(big.next).toContain('page_size=200');
      await f.inject('POST', '/orders/1/cancel/');
      const filtered = (await f.inject('GET', '/orders/?status=new&page_size=100')).json();
      expect(filtered.count).toBe(249);
      expect(filtered.next).toBe('/api/public/v1/orders/?status=new&page=2&page_size=100');
    });

    it('links are relative, or built from the public URL, never from the Host header (issue 38)', async () => {
      await seed(3);
      const evil = await f.app.inject({ method: 'GET', url: '/api/public/v1/orders/?page_size=1', headers: { ...f.auth(), host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
      expect(evil.json().next).toBe('/api/public/v1/orders/?page=2&page_size=1');
      const pub = await makeAppOn(kind, { geocoding: false, publicUrl: 'https://planner.example.com/' });
      try {
        await pub.inject('POST', '/orders/', { address: 'x' });
        await pub.inject('POST', '/orders/', { address: 'y' });
        const page = await pub.app.inject({ method: 'GET', url: '/api/public/v1/orders/?page_size=1&page=2', headers: { ...pub.auth(), host: 'evil.example' } });
        expect(page.json().previous).toBe('https://planner.example.com/api/public/v1/orders/?page=1&page_size=1');
      } finally {
        await pub.close();
      }
    });

    it('filters by status and exact external_id', async () => {
      const ids = await seed(6);
      await f.inject('POST', `/orders/${ids[2]}/cancel/`);
      const archived = (await f.inject('GET', '/orders/?status=archived')).json();
      expect(archived.count).toBe(1);
      expect(archived.results[0]).toMatchObject({ id: ids[2], status: 'archived' });
      const byExt = (await f.inject('GET', '/orders/?external_id=E-1-4')).json();
      expect(byExt.results.map((o: { id: number }) => o.id)).toEqual([ids[4]]);
      expect((await f.inject('GET', '/orders/?external_id=E-1')).json().count).toBe(0);
      expect((await f.inject('GET', '/orders/?status=new&external_id=E-2-2')).json().count).toBe(0);
    });

    it('shows only the key company\'s orders', async () => {
      await seed(3);
      const other = (await f.inject('GET', '/orders/', undefined, f.otherKey)).json();
      expect(other).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it('answers bad parameters with 400 naming them, and a page past the end with 404', async () => {
      await seed(3);
      const cases: [string, Record<string, string[]>][] = [
        ['page=0', { page: ['A valid positive integer is required.'] }],
        ['page=-1', { page: ['A valid positive integer is required.'] }],
        ['page=abc', { page: ['A valid positive integer is required.'] }],
        ['page=1.5', { page: ['A valid positive integer is required.'] }],
        ['page_size=0', { page_size: ['A valid positive integer is required.'] }],
        ['page_size=x', { page_size: ['A valid positive integer is required.'] }],
        ['foo=1', { foo: ['Unknown query parameter.'] }],
        ['status=new&status=archived', { status: ['Only one value is allowed.'] }],
        ['status=lost', { status: ['Select a valid choice. "lost" is not one of new, in_route, visited, confirmed, rejected, skipped, archived.'] }],
      ];
      for (const [q, body] of cases) {
        const r = await f.inject('GET', `/orders/?${q}`);
        expect(r.statusCode, q).toBe(400);
        expect(r.json(), q).toEqual(body);
      }
      const past = await f.inject('GET', '/orders/?page=2');
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual({ detail: 'Invalid page.' });
      expect((await f.inject('GET', '/orders/?page=1&status=confirmed')).statusCode).toBe(200);
    });
  });
});
