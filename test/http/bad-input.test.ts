import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { BASE, makeApp, makeAppOn } from './fixture.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let f: Awaited<ReturnType<typeof makeAppOn>>;
  let orderId: number;
  beforeAll(async () => {
    f = await makeAppOn(kind, { geocoding: false });
    orderId = (await f.inject('POST', '/orders/', { address: 'x' })).json().id;
  });
  afterAll(async () => {
    await f.close();
  });

  function expectClientError(r: { statusCode: number; body: string }, label: string) {
    expect(r.statusCode, `${label}: ${r.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    expect(r.statusCode, label).toBeLessThan(500);
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(Object.keys(body).length, label).toBeGreaterThan(0);
  }

  describe('bad input of every kind answers 4xx with a body that says what is wrong', () => {
    it('malformed JSON: 400 {detail}', async () => {
      for (const text of ['{', '{"address": }', '{"address":"x",}', "{'address':'x'}", '[1,2', 'nul', '{"a":1}{"b":2}', '\u0000', '{"address":"\\q"}']) {
        for (const path of ['/orders/', '/orders/bulk/', `/orders/${orderId}/`]) {
          const r = await f.inject(path.endsWith(`${orderId}/`) ? 'PATCH' : 'POST', path, text);
          expect(r.statusCode, `${path} ${text}`).toBe(400);
          expect(r.json().detail).toMatch(/^Malformed JSON: /);
        }
      }
    });

    it('refuses prototype-polluting keys', async () => {
      const r = await f.inject('POST', '/orders/', '{"address":"x","__proto__":{"admin":true}}');
      expect(r.statusCode).toBe(400);
      expect(r.json().detail).toMatch(/__proto__/);
      const c = await f.inject('POST', '/orders/', '{"address":"x","constructor":{"prototype":{}}}');
      expect(c.statusCode).toBe(400);
      expect(c.json()).toEqual({ constructor: ['Unknown field.'] });
      const t = await f.inject('POST', '/orders/', '{"address":"x","toString":1,"hasOwnProperty":2}');
      expect(t.json()).toEqual({ toString: ['Unknown field.'], hasOwnProperty: ['Unknown field.'] });
      const q = await f.inject('GET', '/orders/?constructor=1&__proto__=2');
      expect(q.statusCode).toBe(400);
    });

    it('a body over the limit is 413 {detail}; huge strings under it are field errors', async () => {
      const huge = await f.inject('POST', '/orders/', JSON.stringify({ address: 'a'.repeat(9 * 1024 * 1024) }));
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toEqual({ detail: 'Request body is too large.' });
      // one order's route takes 64 KiB; the bulk route 8 MiB
      const overOne = await f.inject('POST', '/orders/', { address: 'a'.repeat(70_000) });
      expect(overOne.statusCode).toBe(413);
      const bulkUnder = await f.inject('POST', '/orders/bulk/', [{ address: 'a'.repeat(70_000) }]);
      expect(bulkUnder.statusCode).toBe(200);
      expect(bulkUnder.json().results[0].errors).toEqual({ address: ['Ensure this field has no more than 512 characters.'] });
      const big = await f.inject('POST', '/orders/', { address: 'a'.repeat(40_000), name: 'n'.repeat(20_000) });
      expect(big.statusCode).toBe(400);
      expect(big.json()).toEqual({
        address: ['Ensure this field has no more than 512 characters.'],
        name: ['Ensure this field has no more than 255 characters.'],
      });
      const digits = await f.inject('POST', '/orders/', { address: 'x', weight: '9'.repeat(5000) });
      expect(digits.json()).toEqual({ weight: ['A valid number is required.'] });
      const exp = await f.inject('POST', '/orders/', { address: 'x', weight: '1e999999', lat: '1e-999', lon: 1 });
      expect(exp.statusCode).toBe(400);
    });

    it('any Content-Type is read as JSON; deep nesting and odd unicode are ordinary bad input', async () => {
      const text = await f.app.inject({
        method: 'POST', url: `${BASE}/orders/`, headers: { ...f.auth(), 'content-type': 'text/plain' }, payload: '{"address":"Ünïcødé 🚚"}',
      });
      expect(text.statusCode).toBe(201);
      expect(text.json().address).toBe('Ünïcødé 🚚');
      const deep = await f.inject('POST', '/orders/', '['.repeat(5000) + ']'.repeat(5000));
      expectClientError(deep, 'deep');
      const nested = await f.inject('POST', '/orders/', { address: { street: 'x' } });
      expect(nested.json()).toEqual({ address: ['Not a valid string.'] });
    });

    it('unknown query parameters and malformed URLs', async () => {
      for (const url of [
        '/orders/?x=1', `/orders/${orderId}/?expand=all`, '/orders/?status=%zz', '/orders/%zz/', '/orders/?page=%', `/orders/${orderId}/events/?a=b`,
        '/orders/?page_size=' + '9'.repeat(400), '/orders/' + 'x'.repeat(5000) + '/',
      ]) {
        const r = await f.inject('GET', url);
        expectClientError(r, url);
      }
      const post = await f.inject('POST', '/orders/?dry_run=1', { address: 'x' });
      expect(post.statusCode).toBe(400);
      expect(post.json()).toEqual({ dry_run: ['Unknown query parameter.'] });
    });

    it('wrong JSON types in every field never produce a 5xx', async () => {
      const values: unknown[] = [null, true, false, 0, -1, 1.5, 1e308, -1e308, '', ' ', 'x', '1', '-0', '1e3', [], [1], {}, { a: 1 }, 'a'.repeat(600)];
      const fields = ['address', 'external_id', 'name', 'recipient', 'phone', 'lat', 'lon', 'time_window_start', 'time_window_end',
        'weight', 'volume', 'service_time', 'notes', 'order_type', 'delivery_date', 'id', 'status', 'created_at', 'updated_at', 'extra'];
      let n = 0;
      for (const field of fields) {
        for (const value of values) {
          const body = { address: 'Main 1', [field]: value };
          const c = await f.inject('POST', '/orders/', body);
          expect(c.statusCode, `${field}=${JSON.stringify(value).slice(0, 30)}`).toBeLessThan(500);
          if (c.statusCode >= 400) expectClientError(c, `create ${field}`);
          const fresh = (await f.inject('POST', '/orders/', { address: 'p' })).json().id;
          const p = await f.inject('PATCH', `/orders/${fresh}/`, { [field]: value });
          expect(p.statusCode, `patch ${field}=${JSON.stringify(value).slice(0, 30)}`).toBeLessThan(500);
          const b = await f.inject('POST', '/orders/bulk/', [body]);
          expect(b.statusCode).toBe(200);
          n++;
        }
      }
      expect(n).toBe(fields.length * values.length);
    });
  });
});

describe('a database locked by another process', () => {
  it('answers 503 {detail} with Retry-After and writes nothing', async () => {
    const g = makeApp({ geocoding: false });
    try {
      g.store.db.pragma('busy_timeout = 50');
      const { Database } = await import('../../src/store/sqlite/driver.js');
      const other = new Database(`${g.dir}/test.db`);
      other.exec('BEGIN IMMEDIATE');
      try {
        const r = await g.inject('POST', '/orders/', { address: 'x' });
        expect(r.statusCode).toBe(503);
        expect(r.headers['retry-after']).toBe('1');
        expect(r.json()).toEqual({ detail: 'The database is busy; nothing was changed. Retry shortly.' });
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      expect((await g.inject('GET', '/orders/')).json().count).toBe(0);
      expect((await g.inject('POST', '/orders/', { address: 'x' })).statusCode).toBe(201);
    } finally {
      await g.close();
    }
  });
});
