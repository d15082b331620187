/**
 * Bodies scanned as their chunks arrive (src/http/json-body.ts, issue 38): the scan's state carries
 * across chunk boundaries (a string, an escape, a key `__proto__` or a multi-byte character may be
 * cut anywhere), and over a real socket a hostile body is answered before the client has sent it
 * all (before, the whole 7 MB was read, joined and decoded before the scan looked at it).
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonScanner, scanJson, type JsonLimits } from '../../src/http/json-body.js';
import { HttpError } from '../../src/http/errors.js';
import { BASE, makeApp } from './fixture.js';

/** What the scan says of a body: 'ok' or the refusal's status and detail. */
function verdict(run: () => void): string {
  try {
    run();
    return 'ok';
  } catch (err) {
    if (err instanceof HttpError) return `${err.statusCode} ${JSON.stringify(err.body)}`;
    throw err;
  }
}

const limits: JsonLimits = {
  maxValues: 40,
  maxTopItems: { max: 3, error: (got) => new HttpError(400, { detail: `at most 3 (got ${got})` }) },
};

const bodies = [
  '[1,2,3]',
  '[1,2,3,4]',
  '[{"a":"x"},{"b":[1,2]},"ж,ж"]',
  '[{"a":"x,y,z"},{"b":"\\",\\",\\","},"\\\\"]',
  '{"s":"\\\\\\"[[[[,,,,"}',
  '{"__proto__":1}',
  '{"\\u005f\\u005fproto\\u005f\\u005f" :1}',
  '{"a":"__proto__"}',
  '["__proto__",1]',
  '{"__proto__x":1}',
  '{"k":"日本語, ☃, 😀","l":[[[[[[[[1]]]]]]]]}',
  `${'['.repeat(33)}${']'.repeat(33)}`,
  `${'['.repeat(32)}${']'.repeat(32)}`,
  `{"many":[${Array(45).fill(0).join(',')}]}`,
  '[]',
  '  [ 1 , 2 ]  ',
];

describe('the scan, chunk by chunk', () => {
  it('gives the same verdict for a body cut at every byte as for the whole body', () => {
    for (const body of bodies) {
      const whole = verdict(() => scanJson(body, limits));
      const bytes = Buffer.from(body, 'utf8');
      // every single cut, and byte by byte
      for (let cut = 0; cut <= bytes.length; cut++) {
        const s = new JsonScanner(limits);
        expect(verdict(() => (s.push(bytes.subarray(0, cut)), s.push(bytes.subarray(cut)), s.end())), `${body} cut at ${cut}`).toBe(whole);
      }
      const s = new JsonScanner(limits);
      expect(verdict(() => {
        for (let i = 0; i < bytes.length; i++) s.push(bytes.subarray(i, i + 1));
        s.end();
      }), `${body} byte by byte`).toBe(whole);
    }
  });

  it('refuses the key __proto__ however it is spelt and cut, and nothing else', () => {
    expect(verdict(() => scanJson('{"__proto__":1}', limits))).toBe('400 {"detail":"Malformed JSON: forbidden key \\"__proto__\\""}');
    expect(verdict(() => scanJson('{"\\u005f\\u005fproto\\u005f\\u005f" :1}', limits))).toBe('400 {"detail":"Malformed JSON: forbidden key \\"__proto__\\""}');
    expect(verdict(() => scanJson('{"a":"__proto__"}', limits))).toBe('ok');
    expect(verdict(() => scanJson('{"__proto__x":1}', limits))).toBe('ok');
  });
});

describe('over a real socket', () => {
  let f: ReturnType<typeof makeApp>;
  let port: number;
  beforeAll(async () => {
    f = makeApp({ geocoding: false, conformance: false });
    await f.app.listen({ host: '127.0.0.1', port: 0 });
    port = (f.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await f.close();
  });

  /**
   * POSTs `head` (Content-Length says `total` bytes), then waits for the answer without sending
   * more; `rest` is sent only if no answer comes within `waitMs`.
   */
  function post(path: string, head: Buffer, total: number | undefined, rest: Buffer) {
    return new Promise<{ status: number; body: unknown; sentAll: boolean }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: BASE + path,
        headers: { authorization: `Api-Key ${f.key}`, 'content-type': 'application/json', ...(total === undefined ? {} : { 'content-length': String(total) }) },
      });
      let sentAll = false;
      const timer = setTimeout(() => {
        sentAll = true;
        req.end(rest);
      }, 5_000);
      req.on('response', (res) => {
        clearTimeout(timer);
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode!, body: JSON.parse(text), sentAll });
        });
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.write(head);
    });
  }

  it('a 7 MB flat array is answered 400 after its first megabyte, the rest never sent', async () => {
    const body = Buffer.from(`[${'1,'.repeat(3_500_000 - 1)}1]`);
    const r = await post('/orders/bulk/', body.subarray(0, 1 << 20), body.length, body.subarray(1 << 20));
    expect(r).toEqual({ status: 400, body: { detail: 'A bulk request may hold at most 500 orders (got more than 15999).' }, sentAll: false });
  });

  it('a 7 MB nesting is answered 400 after its first megabyte, sent chunked (no Content-Length)', async () => {
    const body = Buffer.from(`${'['.repeat(3_500_000)}${']'.repeat(3_500_000)}`);
    const r = await post('/orders/bulk/', body.subarray(0, 1 << 20), undefined, body.subarray(1 << 20));
    expect(r).toEqual({ status: 400, body: { detail: 'Malformed JSON: nesting deeper than 32 levels' }, sentAll: false });
  });

  it('a chunked body past the route limit is 413 once its bytes pass it', async () => {
    const body = Buffer.from(`{"notes":"${'x'.repeat(100_000)}"}`);
    const r = await post('/orders/', body.subarray(0, 80_000), undefined, body.subarray(80_000));
    expect(r).toEqual({ status: 413, body: { detail: 'Request body is too large.' }, sentAll: false });
  });

  it('an honest bulk in many small writes, multi-byte characters cut between them, is created whole', async () => {
    const orders = Array.from({ length: 40 }, (_, i) => ({ external_id: `S-${i}`, address: `Łódź, ulica Żółta ${i} 😀`, lat: '52.1', lon: '13.1', delivery_date: '2026-12-01' }));
    const body = Buffer.from(JSON.stringify(orders), 'utf8');
    const r = await new Promise<{ status: number; body: { summary: unknown; results: Array<{ id: number }> } }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: `${BASE}/orders/bulk/`, headers: { authorization: `Api-Key ${f.key}`, 'content-type': 'application/json' } });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      // odd-sized pieces, each flushed on its own: the cuts fall inside the 2- and 4-byte characters
      let at = 0;
      const next = () => {
        if (at >= body.length) return req.end();
        const piece = body.subarray(at, at + 7);
        at += 7;
        req.write(piece, () => setImmediate(next));
      };
      next();
    });
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ created: 40, existing: 0, failed: 0 });
    const stored = f.store.orders.get(f.company.id, r.body.results[7]!.id)!;
    expect(stored.address).toBe('Łódź, ulica Żółta 7 😀');
  });
});
