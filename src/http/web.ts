/**
 * The dispatcher page at /app/: a fixed list of files (the page from the package's `web/`
 * folder, Leaflet's script, stylesheet and images from its npm package), read once when the app
 * is built and answered from memory. Each file is its own route, so a path that is not one of
 * them (`/app/../package.json`, `/app/%2e%2e/x`, `/app/vendor/x`) matches nothing and is 404:
 * no path is ever joined from a request, there is nothing to traverse. No key is needed for
 * these files; the page sends the key the user types with its API calls.
 *
 * Headers: a Content-Security-Policy (scripts, styles and connections from this origin only,
 * images also from the tiles' origin, no form may submit anywhere, no framing), nosniff, no
 * referrer. Caching: the page's own files are revalidated on every load (ETag, 304), Leaflet's
 * files sit under a path with its version and are cached for a year.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { packageRoot } from '../package-root.js';

export const APP_PATH = '/app/';

export interface DispatcherPageOptions {
  /**
   * Map tiles: a URL template with {z}, {x} and {y} (and optionally {s}. as the host's first
   * label, {r}), e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`. Without it the page draws
   * the routes on a plain background.
   */
  tiles?: string | null;
  /** The tiles' attribution, shown in the map's corner (plain text). */
  tilesAttribution?: string;
  /** The folder holding index.html, app.js and app.css (default: the package's `web/`). */
  dir?: string;
}

interface WebFile {
  body: Buffer;
  type: string;
  etag: string;
  cache: string;
}

const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Checks a tiles URL template; returns a reason it is refused, or undefined. */
export function tilesTemplateProblem(template: string): string | undefined {
  if (!/^https?:\/\/[^\s"'<>\\]+$/.test(template)) return 'expected an http(s) URL template';
  for (const p of ['{z}', '{x}', '{y}']) if (!template.includes(p)) return `the template has no ${p}`;
  const host = /^https?:\/\/([^/?#]+)/.exec(template)![1]!;
  if (/[{}]/.test(host.replace(/^\{s\}\./, ''))) return 'only {s}. may stand in the host, as its first label';
  return undefined;
}

/** The CSP source of the tiles' origin: `https://*.tile.example.org` for a `{s}.` host. */
export function tilesOrigin(template: string): string {
  const m = /^(https?:\/\/)([^/?#]+)/.exec(template)!;
  return m[1]! + m[2]!.replace(/^\{s\}\./, '*.');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function webFile(body: Buffer, type: string, cache: string): WebFile {
  return { body, type, cache, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Leaflet's folder and version, resolved as the package resolves its dependencies. */
function leaflet(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('leaflet/package.json');
  const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  return { dir: join(dirname(pkg), 'dist'), version };
}

/** The files of the page, by URL path. */
export function dispatcherFiles(options: DispatcherPageOptions = {}): Map<string, WebFile> {
  const dir = options.dir ?? join(packageRoot(), 'web');
  const lib = leaflet();
  const vendor = `vendor/leaflet-${lib.version}/`;
  const files = new Map<string, WebFile>();
  const html = readFileSync(join(dir, 'index.html'), 'utf8')
    .replaceAll('{{leaflet}}', vendor)
    .replace('{{tiles}}', escapeHtml(options.tiles ?? ''))
    .replace('{{tiles-attribution}}', escapeHtml(options.tilesAttribution ?? ''));
  files.set(APP_PATH, webFile(Buffer.from(html), 'text/html; charset=utf-8', REVALIDATE));
  files.set(`${APP_PATH}app.js`, webFile(readFileSync(join(dir, 'app.js')), 'text/javascript; charset=utf-8', REVALIDATE));
  files.set(`${APP_PATH}app.css`, webFile(readFileSync(join(dir, 'app.css')), 'text/css; charset=utf-8', REVALIDATE));
  files.set(`${APP_PATH}${vendor}leaflet.js`, webFile(readFileSync(join(lib.dir, 'leaflet.js')), 'text/javascript; charset=utf-8', IMMUTABLE));
  files.set(`${APP_PATH}${vendor}leaflet.css`, webFile(readFileSync(join(lib.dir, 'leaflet.css')), 'text/css; charset=utf-8', IMMUTABLE));
  // the images leaflet.css names (the layers control and the default marker)
  for (const image of ['layers.png', 'layers-2x.png', 'marker-icon.png', 'marker-icon-2x.png', 'marker-shadow.png']) {
    files.set(`${APP_PATH}${vendor}images/${image}`, webFile(readFileSync(join(lib.dir, 'images', image)), 'image/png', IMMUTABLE));
  }
  return files;
}

export function contentSecurityPolicy(tiles?: string | null): string {
  // data: for Leaflet's empty tile (it replaces a tile that failed with a blank GIF)
  const img = ["'self'", 'data:', ...(tiles ? [tilesOrigin(tiles)] : [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${img}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Registers GET (and HEAD) /app/ and its files on `app`. */
export function registerDispatcherPage(app: FastifyInstance, options: DispatcherPageOptions = {}): void {
  if (options.tiles) {
    const problem = tilesTemplateProblem(options.tiles);
    if (problem) throw new Error(`tiles URL template: ${problem}`);
  }
  const files = dispatcherFiles(options);
  const headers = {
    'content-security-policy': contentSecurityPolicy(options.tiles),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };
  for (const [path, file] of files) {
    app.get(path, async (request, reply) => {
      // the router ignores a trailing slash: /app must become /app/ for the page's relative links
      if (path === APP_PATH && request.url.split('?')[0] === APP_PATH.slice(0, -1)) return reply.redirect(APP_PATH, 301);
      reply.headers(headers).header('cache-control', file.cache).header('etag', file.etag);
      if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
      return reply.type(file.type).send(file.body);
    });
  }
}
