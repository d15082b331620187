/**
 * The dispatcher page's files (src/http/web.ts) through app.inject(): what is served, with which
 * type, caching and security headers; that nothing else is (no path traversal, no other method);
 * that the page needs no key and costs no request budget; and the --tiles option.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/options.js';
import { contentSecurityPolicy, tilesOrigin, tilesTemplateProblem } from '../../src/http/web.js';
import { makeApp } from './fixture.js';

const leafletVersion = (JSON.parse(readFileSync(new URL('../../node_modules/leaflet/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const VENDOR = `/app/vendor/leaflet-${leafletVersion}`;
const TILES = 'https://{s}.tile.example.org/{z}/{x}/{y}.png';

describe('the dispatcher page files', () => {
  const world = makeApp({ dispatcherPage: { tiles: TILES, tilesAttribution: '<b>"Example" & co</b>' }, rateLimit: 2 });
  afterAll(() => world.close());
  const get = (url: string, headers: Record<string, string> = {}) => world.app.inject({ method: 'GET', url, headers });

  it('answers each file with its type, no key needed', async () => {
    const expected: Array<[string, string]> = [
      ['/app/', 'text/html; charset=utf-8'],
      ['/app/app.js', 'text/javascript; charset=utf-8'],
      ['/app/app.css', 'text/css; charset=utf-8'],
      [`${VENDOR}/leaflet.js`, 'text/javascript; charset=utf-8'],
      [`${VENDOR}/leaflet.css`, 'text/css; charset=utf-8'],
      [`${VENDOR}/images/layers.png`, 'image/png'],
      [`${VENDOR}/images/marker-icon.png`, 'image/png'],
    ];
    for (const [url, type] of expected) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.rawPayload.length, url).toBeGreaterThan(100);
    }
    expect((await get(`${VENDOR}/leaflet.js`)).body).toBe(readFileSync(new URL('../../node_modules/leaflet/dist/leaflet.js', import.meta.url), 'utf8'));
    expect((await get('/app/app.js')).body).toBe(readFileSync(new URL('../../web/app.js', import.meta.url), 'utf8'));
  });

  it('the page names Leaflet by its version and carries the tiles template, escaped', async () => {
    const html = (await get('/app/')).body;
    expect(html).toContain(`src="vendor/leaflet-${leafletVersion}/leaflet.js"`);
    expect(html).toContain(`href="vendor/leaflet-${leafletVersion}/leaflet.css"`);
    expect(html).toContain(`<meta name="tiles" content="${TILES}">`);
    expect(html).toContain('<meta name="tiles-attribution" content="&#60;b&#62;&#34;Example&#34; &#38; co&#60;/b&#62;">');
    expect(html).not.toMatch(/\{\{/);
    // no inline script or style: the CSP forbids them
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it('sends the security headers on every file', async () => {
    for (const url of ['/app/', '/app/app.js', `${VENDOR}/leaflet.css`]) {
      const res = await get(url);
      expect(res.headers['content-security-policy'], url).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https://*.tile.example.org; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it("revalidates the page's own files (ETag, 304) and caches Leaflet's versioned files for a year", async () => {
    const page = await get('/app/app.js');
    expect(page.headers['cache-control']).toBe('no-cache');
    const etag = page.headers['etag'] as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await get('/app/app.js', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect((await get('/app/app.js', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get('/app/app.css')).headers['etag']).not.toBe(etag);
    expect((await get(`${VENDOR}/leaflet.js`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers HEAD like GET without a body, redirects /app to /app/', async () => {
    const head = await world.app.inject({ method: 'HEAD', url: '/app/app.css' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(head.rawPayload.length).toBe(0);
    const bare = await get('/app');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers['location']).toBe('/app/');
  });

  it('serves nothing but its files: traversal, encoded dots, other names and methods are 404', async () => {
    const refused = [
      '/app/../package.json',
      '/app/..%2fpackage.json',
      '/app/%2e%2e/package.json',
      '/app/%2e%2e%2f%2e%2e%2fpackage.json',
      '/app/..\\package.json',
      `${VENDOR}/../../../package.json`,
      `${VENDOR}/%2e%2e/%2e%2e/%2e%2e/src/http/web.ts`,
      `${VENDOR}/leaflet-src.js`,
      `${VENDOR}/images/../leaflet.js.map`,
      '/app/index.html',
      '/app/vendor/',
      '/app/web.ts',
      '/app//etc/passwd',
      '/app/%00',
      '/web/app.js',
      '/package.json',
    ];
    for (const url of refused) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ detail: 'Not found.' });
    }
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      expect((await world.app.inject({ method, url: '/app/' })).statusCode, method).toBe(404);
    }
  });

  it('costs no request budget, even with a key sent', async () => {
    // the limit is 2 a minute here: ten page loads, then the API still answers the key
    for (let i = 0; i < 10; i++) expect((await get('/app/', world.auth())).statusCode).toBe(200);
    expect((await world.inject('GET', '/orders/')).statusCode).toBe(200);
  });

  it('is not served by an app built without it', async () => {
    const plain = makeApp();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/app/' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('the tiles option', () => {
  it('accepts http(s) templates with {z}, {x}, {y} and refuses others', () => {
    expect(tilesTemplateProblem('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBeUndefined();
    expect(tilesTemplateProblem('http://127.0.0.1:8081/tiles/{z}/{x}/{y}{r}.png?key=a')).toBeUndefined();
    expect(tilesTemplateProblem(TILES)).toBeUndefined();
    expect(tilesTemplateProblem('ftp://x/{z}/{x}/{y}')).toMatch(/http/);
    expect(tilesTemplateProblem('https://x/{z}/{y}.png')).toMatch(/\{x\}/);
    expect(tilesTemplateProblem('https://x/{z}/{x}/{y}.png" onerror="x')).toMatch(/http/);
    expect(tilesTemplateProblem('https://a.{s}.x/{z}/{x}/{y}.png')).toMatch(/host/);
    expect(tilesOrigin(TILES)).toBe('https://*.tile.example.org');
    expect(tilesOrigin('http://127.0.0.1:8081/{z}/{x}/{y}.png')).toBe('http://127.0.0.1:8081');
    expect(contentSecurityPolicy(null)).toContain("img-src 'self' data:;");
  });

  it('serve takes --tiles and --tiles-attribution, and refuses a bad template as a usage error', () => {
    const config = parseServeArgs(['--tiles', 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', '--tiles-attribution', '© OpenStreetMap contributors']);
    expect(config).toMatchObject({ tiles: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', tilesAttribution: '© OpenStreetMap contributors' });
    expect(parseServeArgs([])).toMatchObject({ tiles: undefined });
    expect(() => parseServeArgs(['--tiles', 'tile.openstreetmap.org'])).toThrow(/^--tiles: expected an http\(s\) URL template/);
  });
});
