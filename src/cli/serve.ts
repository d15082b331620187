/**
 * `delivery-planner serve`: the only place that listens. Opens (creating and migrating) the
 * SQLite file, starts the geocoding worker on the persisted queue (pending work from a previous
 * run resumes), prints `listening on http://HOST:PORT` when ready, logs JSON lines to stderr,
 * and on SIGTERM/SIGINT stops accepting, finishes in-flight requests and the geocoding lookup
 * in flight, closes the database and exits 0.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { withNegativeValues } from './argv.js';
import { packageRoot } from '../package-root.js';
import { parseRoadModel } from './travel-flags.js';
import { UsageError } from './usage-error.js';
import { GeocodeWorker } from '../geocode/worker.js';
import { createGeocoder, type GeocoderName } from '../geocode/providers.js';
import { ensureDemo } from '../service/demo.js';
import { openStore } from '../store/open.js';
import { redactUrl } from '../io/redact.js';
import { buildApp } from '../http/app.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../http/rate-limit.js';
import { tilesTemplateProblem } from '../http/web.js';
import { DEFAULT_REDIS_PREFIX, parseRedisUrl, RedisTokenBuckets, validRedisPrefix, type RedisTarget } from '../http/rate-limit-redis.js';
import { ServiceEvents } from '../service/events.js';
import { createPlanningRuntime, FLOW_SERVE_USAGE, flowServeArgs, parseFlowServeArgs, type FlowServeOptions } from '../service/planning.js';

export interface ServeConfig {
  host: string;
  port: number;
  db: string;
  geocoder: GeocoderName;
  geocoderUrl?: string;
  addressBook: string;
  matrix: 'haversine' | 'osrm';
  osrmUrl?: string;
  /** `--speed-kmh`: haversine at one fixed speed instead of the travel curve. */
  speedKmh?: number;
  /** `--detour-factor`: road metres per great-circle metre (default 1.3). */
  detourFactor?: number;
  workers?: number;
  demo: boolean;
  logLevel: string;
  /** Requests a minute per API key; 0 = no limit. */
  rateLimit: number;
  /** `--redis`: the request-limit buckets in Redis, shared by every API process (else each limits alone). */
  redis?: RedisTarget;
  /** `--redis-prefix`: the prefix of the bucket keys in Redis. */
  redisPrefix: string;
  /** Planning and webhooks (src/service/planning.ts). */
  flow?: FlowServeOptions;
  /** false (`--jobs off`): the API only; planning jobs, webhooks and geocoding run in `worker` processes. */
  jobs: boolean;
  /** Map tiles of the dispatcher page (/app/): a URL template, or undefined for a plain background. */
  tiles?: string;
  tilesAttribution?: string;
}

export { packageRoot };

export const DEMO_ADDRESS_BOOK = () => join(packageRoot(), 'data', 'demo', 'addresses.csv');

const USAGE =
  'serve [--host 127.0.0.1] [--port 8080] [--db ./var/planner.db] [--geocoder table|nominatim|none] [--geocoder-url URL] [--address-book FILE] [--matrix haversine|osrm] [--osrm-url URL] [--speed-kmh N] [--detour-factor F] [--workers N] [--demo] [--log-level info] [--rate-limit 1200] [--redis redis://HOST:PORT] [--redis-prefix PREFIX] [--jobs on|off] [--tiles URL-TEMPLATE] [--tiles-attribution TEXT] ' + FLOW_SERVE_USAGE;

const SERVE_OPTIONS = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8080' },
  db: { type: 'string', default: './var/planner.db' },
  geocoder: { type: 'string', default: 'table' },
  'geocoder-url': { type: 'string' },
  'address-book': { type: 'string' },
  matrix: { type: 'string', default: 'haversine' },
  'osrm-url': { type: 'string' },
  'speed-kmh': { type: 'string' },
  'detour-factor': { type: 'string' },
  workers: { type: 'string' },
  demo: { type: 'boolean', default: false },
  'log-level': { type: 'string', default: 'info' },
  'rate-limit': { type: 'string', default: String(DEFAULT_RATE_LIMIT_PER_MINUTE) },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string', default: DEFAULT_REDIS_PREFIX },
  jobs: { type: 'string', default: 'on' },
  tiles: { type: 'string' },
  'tiles-attribution': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...flowServeArgs,
} as const;

export const SERVE_USAGE = `usage: delivery-planner ${USAGE}`;



/** The options `serve` and `worker` share (geocoder, matrix, solver threads, logs), checked. */
export function parseWorkOptions(v: {
  geocoder: string;
  'geocoder-url'?: string;
  'address-book'?: string;
  matrix: string;
  'osrm-url'?: string;
  'speed-kmh'?: string;
  'detour-factor'?: string;
  workers?: string;
  'log-level': string;
}) {
  if (!['table', 'nominatim', 'none'].includes(v.geocoder)) {
    throw new UsageError(`--geocoder: expected table, nominatim or none, got '${v.geocoder}'`);
  }
  if (!['haversine', 'osrm'].includes(v.matrix)) throw new UsageError(`--matrix: expected haversine or osrm, got '${v.matrix}'`);
  for (const [name, url] of [['geocoder-url', v['geocoder-url']], ['osrm-url', v['osrm-url']]] as const) {
    if (url !== undefined && !/^https?:\/\/\S+$/.test(url)) throw new UsageError(`--${name}: expected an http(s) URL, got '${url}'`);
  }
  if (v.matrix === 'osrm' && v['osrm-url'] === undefined) throw new UsageError('--matrix osrm needs --osrm-url');
  const road = parseRoadModel(v);
  for (const flag of ['speed-kmh', 'detour-factor'] as const) {
    if (v.matrix === 'osrm' && v[flag] !== undefined) throw new UsageError(`--${flag}: applies to --matrix haversine only (OSRM answers with road times and distances)`);
  }
  if (v.workers !== undefined && (!/^\d{1,3}$/.test(v.workers) || Number(v.workers) < 1)) {
    throw new UsageError(`--workers: expected a positive integer, got '${v.workers}'`);
  }
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(v['log-level'])) {
    throw new UsageError(`--log-level: unknown level '${v['log-level']}'`);
  }
  const addressBook = v['address-book'] ?? DEMO_ADDRESS_BOOK();
  if (v.geocoder === 'table' && !existsSync(addressBook)) throw new UsageError(`--address-book: no such file '${addressBook}'`);
  return {
    geocoder: v.geocoder as GeocoderName,
    geocoderUrl: v['geocoder-url'],
    addressBook,
    matrix: v.matrix as 'haversine' | 'osrm',
    osrmUrl: v['osrm-url'],
    ...road,
    workers: v.workers === undefined ? undefined : Number(v.workers),
    logLevel: v['log-level'],
  };
}
export function parseServeArgs(argv: string[]): ServeConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: withNegativeValues(argv, SERVE_OPTIONS),
      strict: true,
      allowPositionals: false,
      options: SERVE_OPTIONS,
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (usage: ${USAGE})`);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  if (!/^\d{1,5}$/.test(v.port) || Number(v.port) > 65535) throw new UsageError(`--port: expected 0 to 65535, got '${v.port}'`);
  const work = parseWorkOptions(v);
  if (!/^\d{1,7}$/.test(v['rate-limit'])) {
    throw new UsageError(`--rate-limit: expected requests a minute per key (0 = no limit), got '${v['rate-limit']}'`);
  }
  let redis: RedisTarget | undefined;
  if (v.redis !== undefined) {
    try {
      redis = parseRedisUrl(v.redis);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (!validRedisPrefix(v['redis-prefix'])) {
    throw new UsageError(`--redis-prefix: expected 1 to 100 letters, digits or ':_-.', got ${JSON.stringify(v['redis-prefix'].slice(0, 200))}`);
  }
  if (v.jobs !== 'on' && v.jobs !== 'off') throw new UsageError(`--jobs: expected on or off, got '${v.jobs}'`);
  if (v.tiles !== undefined) {
    const problem = tilesTemplateProblem(v.tiles);
    if (problem) throw new UsageError(`--tiles: ${problem} such as https://tile.example.org/{z}/{x}/{y}.png, got '${v.tiles}'`);
  }
  return {
    host: v.host,
    port: Number(v.port),
    db: v.db,
    ...work,
    demo: v.demo,
    rateLimit: Number(v['rate-limit']),
    redis,
    redisPrefix: v['redis-prefix'],
    flow: parseFlowServeArgs(v, (m) => new UsageError(m)),
    jobs: v.jobs === 'on',
    tiles: v.tiles,
    tilesAttribution: v['tiles-attribution'],
  };
}

export async function main(argv: string[]): Promise<number> {
  const config = parseServeArgs(argv);
  if (config === 'help') {
    process.stdout.write(SERVE_USAGE + '\n');
    return 0;
  }
  const geocoder = createGeocoder(config.geocoder, { addressBook: config.addressBook, url: config.geocoderUrl });
  const store = await openStore(config.db);
  let worker: GeocodeWorker | undefined;
  const events = new ServiceEvents();
  const planning = createPlanningRuntime({
    store,
    events,
    workers: config.workers,
    matrix: config.matrix,
    osrmUrl: config.osrmUrl,
    speedKmh: config.speedKmh,
    detourFactor: config.detourFactor,
    jobTimeLimitSec: config.flow?.jobTimeLimitSec,
    webhookTimeoutMs: config.flow?.webhookTimeoutMs,
    webhookRetryDelaysMs: config.flow?.webhookRetryDelaysMs,
    maxJobsPerCompany: config.flow?.maxJobsPerCompany,
    positionRetentionDays: config.flow?.positionRetentionDays,
    leaseMs: config.flow?.leaseMs,
    runJobs: config.jobs,
    log: { info: (o, m) => app.log.info(o, m), warn: (o, m) => app.log.warn(o, m), error: (o, m) => app.log.error(o, m) },
  });
  // --redis: the request limits counted in Redis (shared by all API processes); connected before
  // listening so the first requests count there, and fail-open while it is away (rate-limit-redis.ts)
  const buckets =
    config.redis && config.rateLimit > 0
      ? new RedisTokenBuckets({
          target: config.redis,
          prefix: config.redisPrefix,
          log: { info: (o, m) => app.log.info(o, m), warn: (o, m) => app.log.warn(o, m) },
        })
      : undefined;
  const app = buildApp({
    store,
    events,
    jobs: planning.jobs,
    geocoding: geocoder !== null,
    onGeocodeQueued: () => worker?.notify(),
    logger: { level: config.logLevel, stream: process.stderr },
    rateLimit: config.rateLimit,
    dispatcherPage: { tiles: config.tiles, tilesAttribution: config.tilesAttribution },
    rateLimitBuckets: buckets,
  });
  await buckets?.connect();
  if (geocoder && config.jobs) {
    worker = new GeocodeWorker({ store, geocoder, log: app.log, leaseMs: config.flow?.leaseMs });
  }
  // Once shutdown starts, an in-flight answer closes its connection, so a client's keep-alive
  // socket cannot hold the exit until the keep-alive time-out.
  let closing = false;
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await planning.stop();
    await buckets?.close();
    await store.close();
    throw new Error(`cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  worker?.start();
  await planning.start();
  app.log.info(
    { db: redactUrl(config.db), geocoder: config.geocoder, jobs: config.jobs ? 'on' : 'off', pending_geocoding: await store.geocodeQueue.count() },
    'service started',
  );

  if (config.demo) {
    const demo = await ensureDemo(store, new Date().toISOString());
    const auth = `-H 'Authorization: Api-Key ${demo.key}'`;
    const lines = [
      `demo company ${demo.company.id} "${demo.company.name}" (${demo.company.timezone})${demo.created ? ' created' : ''}: warehouse ${demo.warehouse.id}, vehicles ${demo.vehicles.map((v) => v.id).join(', ')}`,
      `demo API key (every scope, shown once): ${demo.key}`,
      `address book: ${config.geocoder === 'table' ? config.addressBook : `(geocoder ${config.geocoder})`}`,
      'try:',
      `  curl -s ${auth} -H 'Content-Type: application/json' -d '{"external_id":"DOC-1","address":"Alexanderplatz 1, 10178 Berlin","weight":"12.5"}' ${base}/api/public/v1/orders/`,
      `  curl -s ${auth} '${base}/api/public/v1/orders/?page_size=10'`,
      `dispatcher page: ${base}/app/ (enter the key there)`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }

  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      closing = true;
      // last resort for a client that keeps a connection busy: cut it after 10 s
      setTimeout(() => app.server.closeAllConnections(), 10_000).unref();
      void (async () => {
        let code = 0;
        try {
          await app.close();
          await planning.stop();
          await worker?.stop();
          await buckets?.close();
        } catch (err) {
          app.log.error({ err }, 'error during shutdown');
          code = 1;
        } finally {
          await store.close().catch(() => undefined);
          process.off('SIGTERM', onTerm);
          process.off('SIGINT', onInt);
        }
        resolve(code);
      })();
    };
    const onTerm = () => shutdown('SIGTERM');
    const onInt = () => shutdown('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
    // after the handlers: whoever waits for this line may signal at once (see src/cli/worker.ts)
    process.stdout.write(`listening on ${base}\n`);
  });
}
