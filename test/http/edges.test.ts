/**
 * Small rules at the edge (docs/contract/operations.md, "Health, readiness, metrics and request ids" and
 * "Quotas and outbound rules"; issue 38): JSON answers are never sniffed nor cached, and requests
 * without a valid key are limited per client address.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, makeApp } from './fixture.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});
function app(options: Parameters<typeof makeApp>[0] = {}) {
  const f = makeApp({ geocoding: false, conformance: false, ...options });
  cleanup.push(f.close);
  return f;
}

describe('JSON answers', () => {
  it('carry X-Content-Type-Options: nosniff and Cache-Control: no-store, errors included', async () => {
    const f = app();
    const answers = [
      await f.inject('POST', '/orders/', { address: 'x' }),
      await f.inject('GET', '/orders/'),
      await f.inject('GET', '/orders/', undefined, 'bad-key'),
      await f.inject('GET', '/nowhere/'),
      await f.inject('POST', '/orders/', { address: 'a'.repeat(70_000) }),
      await f.inject('POST', '/orders/', '{'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 200, 401, 404, 413, 400]);
    for (const r of answers) {
      expect(r.headers['content-type'], String(r.statusCode)).toMatch(/json/);
      expect(r.headers['x-content-type-options'], String(r.statusCode)).toBe('nosniff');
      expect(r.headers['cache-control'], String(r.statusCode)).toBe('no-store');
    }
  });
});

describe('requests without a valid key', () => {
  it('are limited per client address: 429 with Retry-After once the bucket is empty, before the key is looked up', async () => {
    const f = app({ unauthenticatedRateLimit: 5 });
    const from = (remoteAddress: string, key: string) =>
      f.app.inject({ method: 'GET', url: `${BASE}/orders/`, remoteAddress, headers: key ? { authorization: `Api-Key ${key}` } : {} });
    // requests with a valid key take nothing from the bucket
    for (let i = 0; i < 10; i++) expect((await from('10.0.0.1', f.key)).statusCode).toBe(200);
    const codes = [];
    for (let i = 0; i < 7; i++) codes.push((await from('10.0.0.1', i % 2 ? '' : 'dpk_guess')).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const throttled = await from('10.0.0.1', 'dpk_guess');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // another address has its own bucket
    expect((await from('10.0.0.2', 'dpk_guess')).statusCode).toBe(401);
  });

  it('the bucket is on by default and off with the request limit (rate limit 0)', async () => {
    const on = app({ rateLimit: 1200 });
    const codes = new Set<number>();
    for (let i = 0; i < 130; i++) codes.add((await on.app.inject({ method: 'GET', url: `${BASE}/orders/`, headers: { authorization: 'Api-Key nope' } })).statusCode);
    expect([...codes].sort()).toEqual([401, 429]);
    const off = app();
    for (let i = 0; i < 130; i++) expect((await off.app.inject({ method: 'GET', url: `${BASE}/orders/` })).statusCode).toBe(401);
  });
});

describe('serve --public-url', () => {
  it('takes an http(s) base URL and refuses anything else (exit 2), without echoing a password', async () => {
    const { parseServeArgs } = await import('../../src/cli/options.js');
    expect(parseServeArgs(['--public-url', 'https://planner.example.com/base'])).toMatchObject({ publicUrl: 'https://planner.example.com/base' });
    for (const bad of ['planner.example.com', 'ftp://x', 'https://u:hunter2@x', 'https://x/?q=1']) {
      let message = '';
      try {
        parseServeArgs(['--public-url', bad]);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, bad).toMatch(/^--public-url: expected an http\(s\) base URL/);
      expect(message).not.toContain('hunter2');
    }
  });
});
