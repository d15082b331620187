/**
 * The docs page at /api/public/v1/docs: Swagger UI (@fastify/swagger-ui, whose npm package carries
 * every asset) over the OpenAPI document, which @fastify/swagger holds in its static mode (no route
 * of ours is rescanned). Every file comes from this server: the HTML and the initializer name only
 * relative paths, and a Content-Security-Policy of 'self' keeps the browser from loading anything
 * elsewhere. No key needed (the routes declare no scope); not counted against the request limit.
 *
 * Routes under the prefix: `/` (the page), `/json` and `/yaml` (the document), `/static/*` (assets).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCS_PATH } from './openapi.js';

/** Only this server; Swagger UI sets inline styles and shows its logo as a data: URL. */
export const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; form-action 'self'";

const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="260" height="40"><text x="0" y="28" font-family="sans-serif" font-size="22" font-weight="bold" fill="#ffffff">delivery-planner API</text></svg>',
);

export function registerDocs(app: FastifyInstance, document: Record<string, unknown>): void {
  app.register(async (docs) => {
    await docs.register(swagger, { mode: 'static', specification: { document: document as never } });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      staticCSP: DOCS_CSP,
      uiConfig: { deepLinking: true, validatorUrl: null, tryItOutEnabled: false, persistAuthorization: false },
      theme: { title: 'Delivery planner API' },
      // our name in the top bar instead of the plugin's fastify logo (shown as a data: URL)
      logo: { type: 'image/svg+xml', content: LOGO, href: DOCS_PATH, target: '_self' },
    });
  });
}
