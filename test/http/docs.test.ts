/**
 * The docs page (/api/public/v1/docs, Swagger UI) over real HTTP on 127.0.0.1: served without a
 * key, every file it names comes from this server (no CDN: the HTML names no other host, the
 * initializer loads the document from here, the Content-Security-Policy allows only 'self'), its
 * document is the one at /openapi.json, and the request limit and body limits still hold for the
 * API (the page and the document are not counted).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from './fixture.js';

const DOCS = '/api/public/v1/docs';

describe('the docs page', () => {
  let f: ReturnType<typeof makeApp>;
  let base: string;
  beforeAll(async () => {
    f = makeApp({ rateLimit: 3 });
    await f.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(f.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => f?.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers, redirect: 'manual' });

  it('is served without a key, and every file it names comes from this server', async () => {
    for (const page of [DOCS, `${DOCS}/`]) {
      const res = await get(page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/default-src 'self'/);
      // no source in the policy but this server ('self', 'none', inline styles, data: URLs)
      const sources = csp.split(';').flatMap((d) => d.trim().split(/\s+/).slice(1));
      expect(sources.filter((s) => !["'self'", "'none'", "'unsafe-inline'", 'data:'].includes(s))).toEqual([]);
      const html = await res.text();
      const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThanOrEqual(5);
      expect(html).not.toMatch(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
      for (const ref of refs) {
        expect(ref, ref).toMatch(/^(\.\/|\/api\/public\/v1\/docs\/)/);
        const url = new URL(ref, base + page);
        expect(url.origin).toBe(base);
        const asset = await get(url.pathname);
        expect(asset.status, url.pathname).toBe(200);
        expect((await asset.arrayBuffer()).byteLength, url.pathname).toBeGreaterThan(100);
      }
    }
  });

  it('the page loads the document from this server, with no validator badge from elsewhere', async () => {
    const init = await (await get(`${DOCS}/static/swagger-initializer.js`)).text();
    const code = init.replace(/\/\/.*$/gm, '');
    expect(code).not.toMatch(/https?:\/\//);
    expect(code).toMatch(/validatorUrl: null/);
    expect(code).toMatch(/resolveUrl\('\.\/json'\)/);
    const shown = await (await get(`${DOCS}/json`)).json();
    const served = await (await get('/api/public/v1/openapi.json')).json();
    expect(shown).toEqual(served);
  });

  it('the page and the document need no key and do not count; the API keeps its request and body limits', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await get(DOCS)).status).toBe(200);
      expect((await get('/api/public/v1/openapi.json')).status).toBe(200);
      expect((await get(`${DOCS}/static/swagger-ui.css`)).headers.get('ratelimit-limit')).toBeNull();
    }
    const auth = { authorization: `Api-Key ${f.key}` };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/api/public/v1/orders/', auth)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = { authorization: `Api-Key ${f.keyWith(['orders:write'])}`, 'content-type': 'application/json' };
    const big = await fetch(`${base}/api/public/v1/orders/`, { method: 'POST', headers: other, body: JSON.stringify({ address: 'x', notes: 'n'.repeat(70_000) }) });
    expect(big.status).toBe(413);
    // only GET: a write to the docs is no route
    expect((await fetch(base + DOCS, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
