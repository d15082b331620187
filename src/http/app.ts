/**
 * The HTTP app, built by a function and never listening: tests drive it with `app.inject()`,
 * `serve` (server.ts) is the only place that opens a socket.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { ServiceEvents } from '../service/events.js';
import { OrderService } from '../service/orders.js';
import type { Clock } from '../service/time.js';
import type { StorePort } from '../store/port.js';
import { portOf } from '../store/sqlite/port.js';
import type { Store } from '../store/sqlite/store.js';
import { registerAuth } from './auth.js';
import { BODY_LIMITS, REQUEST_TIMEOUT_MS } from './limits.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, registerRateLimit, type BucketCounter } from './rate-limit.js';
import { DETAIL, errorHandler, notFound } from './errors.js';
import { setPublicUrl } from './request.js';
import { readiness, registerHealthRoutes, type ReadinessCheck } from './health.js';
import { observeHttp, registerMetricsRoute, type PlannerMetrics } from './metrics.js';
import { processReadiness } from '../service/ops.js';
import type { Quotas } from '../service/quota.js';
import { readJsonBody } from './json-body.js';
import { buildOpenApi, OPENAPI_PATH, PUBLIC_PREFIX } from './openapi.js';
import { registerDocs } from './docs.js';
import { registerOrderRoutes } from './orders-routes.js';
import type { JobService } from '../jobs/service.js';
import { INTERNAL_PREFIX, registerDispatchRoutes } from './dispatch-routes.js';
import { registerFleetRoutes } from './fleet-routes.js';
import { registerPlanningRoutes } from './planning-routes.js';
import { registerRouteRoutes } from './route-routes.js';
import { registerDispatcherPage, type DispatcherPageOptions } from './web.js';

export const API_PREFIX = PUBLIC_PREFIX;

export interface AppOptions {
  /** The storage port, or the SQLite store (used through its one port, src/store/sqlite/port.ts). */
  store: Store | StorePort;
  events?: ServiceEvents;
  /** Queue new and changed addresses for geocoding (false for the `none` provider). Default true. */
  geocoding?: boolean;
  /** Called after a commit that queued geocoding (wakes the geocoding worker). */
  onGeocodeQueued?: () => void;
  /** fastify's logger option (false by default: tests stay quiet). */
  logger?: FastifyServerOptions['logger'];
  clock?: Clock;
  /** Requests a minute per API key (token bucket); 0 = no limit. Default 1200. */
  rateLimit?: number;
  /** Where the request-limit buckets live when not in this process: Redis (`serve --redis`,
   *  RedisTokenBuckets), shared by every API process. */
  rateLimitBuckets?: BucketCounter;
  /** Requests without a valid key per client address a minute (auth.ts); default 120, or 0 (off)
   *  when `rateLimit` is 0. */
  unauthenticatedRateLimit?: number;
  /** The service's public base URL (`serve --public-url`): pagination links are built from it;
   *  without it they are relative. Never from the Host header. */
  publicUrl?: string;
  /** Counts requests (planner_http_*) and serves them at GET /metrics unless `metricsRoute` is false
   *  (`serve --metrics-port` moves /metrics to a port of its own). */
  metrics?: PlannerMetrics;
  metricsRoute?: boolean;
  /** Per-company quotas (`serve --max-open-orders`, `--max-positions-per-minute`); defaults in service/quota.ts. */
  quotas?: Partial<Quotas>;
  /** What GET /readyz answers; default: ready while the store answers. */
  readiness?: ReadinessCheck;
  /** A request (headers and body) must arrive within this many ms, else 408 and the socket closes. */
  requestTimeoutMs?: number;
  /** The planning job service (serve wires it, src/service/planning.ts); without it POST
   *  /planning/jobs/ answers 503 and GET reads the stored job. */
  jobs?: JobService;
  /** The dispatcher page at /app/ (web.ts); `serve` turns it on. Default: not served. */
  dispatcherPage?: DispatcherPageOptions;
}

export interface AppServices {
  store: StorePort;
  events: ServiceEvents;
  orders: OrderService;
}

// Kept beside the app, not declared on FastifyInstance: a module augmentation in the shipped
// declarations is declared twice when a consumer loads both index.d.ts and index.d.cts (TS2717).
const servicesOf = new WeakMap<FastifyInstance, AppServices>();

/** The services behind an app built by buildApp. */
export function appServices(app: FastifyInstance): AppServices {
  const services = servicesOf.get(app);
  if (!services) throw new Error('not an app built by buildApp');
  return services;
}

export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMITS.default,
    requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    // Node looks for requests past their time only every connectionsCheckingInterval (30 s by
    // default): every second instead, so a slow client is cut near its deadline
    http: {
      headersTimeout: Math.min(options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, 30_000),
      connectionsCheckingInterval: Math.min(1_000, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // the router's own refusals in our shapes (fastify's default body is {error, code, message}):
    // a path that is not valid percent-encoding is 400 {detail}; a path segment longer than
    // maxParamLength is no id of ours, so 404 like any other unknown id (fastify's default: 414)
    frameworkErrors: (error, _request, raw) => {
      const reply = raw as unknown as FastifyReply;
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') void reply.code(404).send({ detail: DETAIL.notFound });
      else if (error.code === 'FST_ERR_BAD_URL') void reply.code(400).send({ detail: DETAIL.badUrl });
      else void reply.code(400).send({ detail: error.message });
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
  });

  const store = portOf(options.store);
  const events = options.events ?? new ServiceEvents();
  events.onListenerError = (err) => app.log.error({ err }, 'order.status_changed listener failed');
  const orders = new OrderService({
    store,
    events,
    geocoding: options.geocoding ?? true,
    onGeocodeQueued: options.onGeocodeQueued,
    clock: options.clock,
    maxOpenOrders: options.quotas?.maxOpenOrders,
  });
  servicesOf.set(app, { store, events, orders });

  // Every body is JSON, whatever its Content-Type says; an empty body is "no body".
  app.removeAllContentTypeParsers();
  // Scanned against the route's limits as its chunks arrive, then parsed (json-body.ts): no body
  // costs more than its route allows, whatever its shape, and a hostile one is refused at the
  // chunk that passes a limit, unread beyond it.
  app.addContentTypeParser('*', (request, payload, done) => {
    readJsonBody(payload, { limits: request.routeOptions.config.json, bodyLimit: request.routeOptions.bodyLimit, contentLength: request.headers['content-length'] }, done);
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // an unknown path is answered before its body is read
    if (request.is404) throw notFound();
  });
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  registerAuth(app, store, { unauthenticatedPerMinute: options.unauthenticatedRateLimit ?? (rateLimit > 0 ? undefined : 0) });
  // after auth (its hook runs first), before every route (its onRoute hook must see them all)
  registerRateLimit(app, rateLimit, options.rateLimitBuckets);
  // JSON answers are data, never to be sniffed into HTML nor kept by a cache between tenants
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').includes('json')) {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
  setPublicUrl(app, options.publicUrl);
  if (options.metrics) {
    observeHttp(app, options.metrics);
    if (options.metricsRoute !== false) registerMetricsRoute(app, options.metrics);
  }
  registerHealthRoutes(app, options.readiness ?? readiness(processReadiness(store)));
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send({ detail: DETAIL.notFound });
  });

  // built and serialised once: a request for it costs a copy of a string
  const document = buildOpenApi();
  const openapi = JSON.stringify(document);
  app.get(OPENAPI_PATH, async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi));
  registerDocs(app, document);
  app.register(
    async (api) => {
      registerOrderRoutes(api, orders);
      registerPlanningRoutes(api, { store, jobs: options.jobs });
      registerRouteRoutes(api, store);
    },
    { prefix: API_PREFIX },
  );
  app.register(
    async (internal) => {
      registerDispatchRoutes(internal, { store, orders, jobs: options.jobs, clock: options.clock, maxPositionsPerMinute: options.quotas?.maxPositionsPerMinute });
      registerFleetRoutes(internal, store);
    },
    { prefix: INTERNAL_PREFIX },
  );
  if (options.dispatcherPage) registerDispatcherPage(app, options.dispatcherPage);
  return app;
}
