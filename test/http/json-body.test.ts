/**
 * Bodies are scanned against their route's limits before they are parsed (src/http/json-body.ts,
 * issue 38): what is refused, and with which answer. How long a hostile body holds the event loop
 * is measured in bench/load.ts, not here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMITS, JSON_VALUES } from '../../src/http/limits.js';
import { scanJson } from '../../src/http/json-body.js';
import { makeApp } from './fixture.js';

let f: ReturnType<typeof makeApp>;
beforeAll(() => {
  f = makeApp({ geocoding: false, conformance: false });
});
afterAll(async () => {
  await f.close();
});

const maxOrder = (c: string, i: number) => ({
  external_id: `${i}`.padEnd(128, c),
  address: c.repeat(512),
  name: c.repeat(255),
  recipient: c.repeat(255),
  phone: c.repeat(30),
  notes: 'n'.repeat(10_000),
  lat: '52.123456',
  lon: '13.123456',
  time_window_start: '08:00:00',
  time_window_end: '18:00:00',
  weight: '100000.000',
  volume: '1000.000',
  service_time: 240,
  order_type: 'recurring',
  delivery_date: '2026-11-28',
});

describe('bulk bodies', () => {
  it('a flat array far over 500 items is refused before its items are built, naming the contract limit', async () => {
    const flat = `[${Array(1_000_000).fill('1').join(',')}]`;
    const r = await f.inject('POST', '/orders/bulk/', flat);
    expect(r.statusCode).toBe(400);
    // the scan stops at the route's value cap: it never counted (let alone built) the million
    expect(r.json().detail).toBe(`A bulk request may hold at most 500 orders (got more than ${JSON_VALUES.bulk - 1}).`);
  });

  it('501 orders: the contract message with the exact count', async () => {
    const r = await f.inject('POST', '/orders/bulk/', Array.from({ length: 501 }, () => ({ address: 'x' })));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ detail: 'A bulk request may hold at most 500 orders (got 501).' });
  });

  it('deep nesting is 400 at the 33rd level, whatever the body size', async () => {
    for (const [path, levels] of [['/orders/bulk/', 1_000_000], ['/orders/', 30_000]] as const) {
      const r = await f.inject('POST', path, `${'['.repeat(levels)}${']'.repeat(levels)}`);
      expect(r.statusCode, path).toBe(400);
      expect(r.json()).toEqual({ detail: 'Malformed JSON: nesting deeper than 32 levels' });
    }
    const ok = await f.inject('POST', '/orders/bulk/', `${'['.repeat(30)}1${']'.repeat(30)}`);
    expect(ok.statusCode).toBe(200);
  });

  it('500 orders with every field at its limit, in a 3-byte script, fit the body limit and are created', async () => {
    const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => maxOrder('ж', i)));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(BODY_LIMITS.bulk);
    const r = await f.inject('POST', '/orders/bulk/', body);
    expect(r.statusCode).toBe(200);
    expect(r.json().summary).toEqual({ created: 500, existing: 0, failed: 0 });
  });

  it('the bulk limit is what 500 such orders need, not the 8 MiB of before', async () => {
    expect(BODY_LIMITS.bulk).toBeLessThan(8 * 1024 * 1024);
    const over = await f.inject('POST', '/orders/bulk/', `[${' '.repeat(BODY_LIMITS.bulk)}]`);
    expect(over.statusCode).toBe(413);
  });
});

describe('every route', () => {
  it('too many values for the route is 413 {detail}', async () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => i + 1);
    const r = await f.inject('POST', '/planning/jobs/', { order_ids: ids });
    expect(r.statusCode).toBe(413);
    expect(r.json()).toEqual({ detail: `Request body holds too many JSON values (at most ${JSON_VALUES.planning}).` });
    const many = await f.inject('POST', '/orders/', `{"address":"x","notes":[${Array(5_000).fill('0').join(',')}]}`);
    expect(many.statusCode).toBe(413);
  });

  it('__proto__ is refused however it is spelt; strings that merely hold it are data', async () => {
    for (const key of ['__proto__', '\\u005f_proto__', '\\u005F\\u005Fproto\\u005f\\u005f']) {
      const r = await f.inject('POST', '/orders/', `{"address":"x", "${key}" :{"admin":true}}`);
      expect(r.statusCode, key).toBe(400);
      expect(r.json().detail, key).toBe('Malformed JSON: forbidden key "__proto__"');
    }
    const data = await f.inject('POST', '/orders/', { address: '__proto__', notes: 'a "__proto__": b \\"' });
    expect(data.statusCode).toBe(201);
  });
});

describe('scanJson', () => {
  it('skips strings with escaped quotes and brackets, and counts top items exactly', () => {
    const tooMany = (n: number | string) => new Error(`got ${n}`);
    const top = { max: 2, error: tooMany as never };
    expect(() => scanJson('["a\\"],[", {"b": "\\\\"}]', { maxTopItems: top })).not.toThrow();
    expect(() => scanJson('["a\\"],[", {"b": "\\\\"}, 3]', { maxTopItems: top })).toThrow('got 3');
    expect(() => scanJson('[]', { maxTopItems: { max: 0, error: tooMany as never } })).not.toThrow();
    expect(() => scanJson('[ 1 ]', { maxTopItems: { max: 0, error: tooMany as never } })).toThrow('got 1');
    expect(() => scanJson('{"a": [1, 2, 3]}', { maxValues: 4 })).toThrow('at most 4');
    expect(() => scanJson('{"a": [1, 2, 3]}', { maxValues: 5 })).not.toThrow();
  });
});
