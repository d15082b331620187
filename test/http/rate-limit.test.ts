import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throttledDetail, TokenBuckets } from '../../src/http/rate-limit.js';
import { makeApp } from './fixture.js';

describe('token buckets (the arithmetic, on a clock the test moves)', () => {
  it('gives max requests at once, then one every window/max, each key alone', () => {
    let now = 1_000_000;
    const b = new TokenBuckets(() => now);
    const seen = Array.from({ length: 3 }, () => b.take('a', 60_000, 3));
    expect(seen.map((r) => r.current)).toEqual([1, 2, 3]); // remaining 2, 1, 0
    const refused = b.take('a', 60_000, 3);
    expect(refused.current).toBe(4);
    expect(refused.ttl).toBe(20_000); // one token every 20 s
    expect(b.take('b', 60_000, 3).current).toBe(1); // another key has its own bucket
    now += 10_000;
    const half = b.take('a', 60_000, 3);
    expect(half.current).toBe(4);
    expect(half.ttl).toBe(10_000);
    now += 10_000;
    expect(b.take('a', 60_000, 3).current).toBe(3); // one token back, taken
    now += 10 * 60_000;
    const full = b.take('a', 60_000, 3);
    expect(full.current).toBe(1); // refilled to max, never beyond
  });

  it('sweeps refilled buckets out once it holds many keys', () => {
    let now = 0;
    const b = new TokenBuckets(() => now);
    for (let i = 0; i < 10_000; i++) b.take(`k${i}`, 60_000, 10);
    expect(b.size).toBe(10_000);
    now += 60_000;
    b.take('new', 60_000, 10);
    expect(b.size).toBe(1);
  });
});

describe('request limit per API key (docs/contract/operations.md "Request limits")', () => {
  let f: ReturnType<typeof makeApp>;
  beforeAll(() => {
    f = makeApp({ rateLimit: 3 });
  });
  afterAll(async () => f?.close());

  it('answers RateLimit headers, then 429 with Retry-After and the contract detail', async () => {
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await f.inject('GET', '/orders/');
      expect(res.statusCode).toBe(200);
      seen.push([res.headers['ratelimit-limit'], res.headers['ratelimit-remaining']]);
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    expect(seen).toEqual([['3', '2'], ['3', '1'], ['3', '0']]);
    const over = await f.inject('GET', '/orders/');
    expect(over.statusCode).toBe(429);
    const seconds = Number(over.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(19);
    expect(seconds).toBeLessThanOrEqual(20);
    expect(over.json()).toEqual({ detail: throttledDetail(seconds) });
    expect(over.json().detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    // the other company's key, and a second key of the same company, have their own budgets
    expect((await f.inject('GET', '/orders/', undefined, f.otherKey)).statusCode).toBe(200);
    expect((await f.inject('GET', '/orders/', undefined, f.keyWith(['orders:read']))).statusCode).toBe(200);
  });

  it('counts a valid key without the scope (403 with headers); never an invalid key or no key', async () => {
    const readOnly = f.keyWith(['routes:read']);
    const forbidden = await f.inject('GET', '/orders/', undefined, readOnly);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['ratelimit-remaining']).toBe('2');
    for (let i = 0; i < 5; i++) {
      const bad = await f.inject('GET', '/orders/', undefined, 'not-a-key');
      expect(bad.statusCode).toBe(401);
      expect(bad.headers['ratelimit-limit']).toBeUndefined();
    }
    const open = await f.app.inject({ method: 'GET', url: '/api/public/v1/openapi.json' });
    expect(open.statusCode).toBe(200);
    expect(open.headers['ratelimit-limit']).toBeUndefined();
  });

  it('0 turns the limit off: no headers, no 429', async () => {
    const g = makeApp({ rateLimit: 0 });
    try {
      for (let i = 0; i < 5; i++) {
        const res = await g.inject('GET', '/orders/');
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await g.close();
    }
  });
});

describe('no body is read for a request that cannot be served', () => {
  let f: ReturnType<typeof makeApp>;
  beforeAll(() => {
    f = makeApp();
  });
  afterAll(async () => f?.close());

  it('401 before the body: a malformed or oversized body without a valid key is 401, not 400 or 413', async () => {
    for (const payload of ['{not json', 'x'.repeat(200_000)]) {
      const res = await f.app.inject({ method: 'POST', url: '/api/public/v1/orders/', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(401);
    }
  });

  it('403 before the body', async () => {
    const res = await f.app.inject({
      method: 'POST', url: '/api/public/v1/orders/', headers: { ...f.auth(f.keyWith(['orders:read'])), 'content-type': 'application/json' }, payload: '{not json',
    });
    expect(res.statusCode).toBe(403);
  });

  it('an unknown path is 404 whatever its body', async () => {
    const res = await f.app.inject({ method: 'POST', url: '/api/public/v1/nothing/', headers: { ...f.auth(), 'content-type': 'application/json' }, payload: '{not json' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });
});

describe('a client that sends its request too slowly', () => {
  it('is answered 408 and disconnected when the whole request has not arrived in time (real socket)', async () => {
    const f = makeApp({ requestTimeoutMs: 300 });
    try {
      await f.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = f.app.server.address() as { port: number };
      const { connect } = await import('node:net');
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      // headers announce a body that never comes
      socket.write(`POST /api/public/v1/orders/ HTTP/1.1\r\nhost: x\r\nauthorization: Api-Key ${f.key}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"addr`);
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect((await f.inject('GET', '/orders/')).json().count).toBe(0);
    } finally {
      await f.close();
    }
  }, 30_000);
});
