/**
 * The options of `serve` and `worker`, in one place: the parseArgs specs, the usage lines, and the
 * checks that turn the values into a config (a bad value throws UsageError: exit 2, one line on
 * stderr). The options both commands take are parsed once (`parseWorkOptions`,
 * `parseFlowServeArgs`); a new flag for both goes into WORK_OPTIONS or FLOW_OPTIONS and its check
 * beside the others. `demo`, `admin` and `solve` parse their own few options in their files.
 */
import { existsSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { withNegativeValues } from './argv.js';
import { parseRoadModel } from './travel-flags.js';
import { UsageError } from './usage-error.js';
import type { GeocoderName } from '../geocode/providers.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../http/rate-limit.js';
import { DEFAULT_REDIS_PREFIX, parseRedisUrl, validRedisPrefix, type RedisTarget } from '../http/rate-limit-redis.js';
import { tilesTemplateProblem } from '../http/web.js';
import { DEMO_ADDRESS_BOOK } from '../service/demo.js';
import { redactText } from '../io/redact.js';
import { DEFAULT_QUOTAS, type Quotas } from '../service/quota.js';
import { DEFAULT_SOLVER_NICE } from '../pool/worker-nice.js';

/** What `serve` and `worker` both take: the store, the solver threads, geocoding, the road matrix, logs. */
export interface WorkConfig {
  db: string;
  workers?: number;
  geocoder: GeocoderName;
  geocoderUrl?: string;
  addressBook: string;
  matrix: 'haversine' | 'osrm';
  osrmUrl?: string;
  /** `--speed-kmh`: haversine at one fixed speed instead of the travel curve. */
  speedKmh?: number;
  /** `--detour-factor`: road metres per great-circle metre (default 1.3). */
  detourFactor?: number;
  /** `--solver-nice`: the solver threads run this many nice levels below the event loop (Linux; src/pool/worker-nice.ts). */
  solverNice: number;
  logLevel: string;
}

export interface ServeConfig extends WorkConfig {
  host: string;
  port: number;
  demo: boolean;
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
  /** `--public-url`: the base of links in answers (pagination); without it they are relative. */
  publicUrl?: string;
  /** `--metrics-port`: /healthz, /readyz and /metrics on a port of their own (else /metrics on the API port). */
  metricsPort?: number;
  /** `--max-open-orders`, `--max-positions-per-minute` (service/quota.ts). */
  quotas: Quotas;
}


/** The planning and webhook options of `serve` and `worker`, checked. */
export interface FlowServeOptions {
  jobTimeLimitSec?: number;
  leaseMs?: number;
  webhookTimeoutMs?: number;
  webhookRetryDelaysMs?: number[];
  maxJobsPerCompany?: number;
  positionRetentionDays?: number;
  /** `--max-pending-deliveries`: pending webhook deliveries one subscription may hold (store/types.ts). */
  maxPendingDeliveries?: number;
  /** `--shift-reserve-min`: room planning jobs keep at the end of each van's shift for orders that come during the day (docs/day.md). */
  shiftReserveMin?: number;
  /** `--solver-warm-up`: seconds of a made-up day planned at start so the first job runs on compiled code (0: none; src/jobs/warm-up.ts). */
  solverWarmUpSec?: number;
}

/** The parseArgs option specs for planning and webhooks (serve and worker). */
export const flowServeArgs = {
  'job-time-limit': { type: 'string' },
  'lease-seconds': { type: 'string' },
  'webhook-timeout': { type: 'string' },
  'webhook-retry-delays': { type: 'string' },
  'max-jobs-per-company': { type: 'string' },
  'position-retention-days': { type: 'string' },
  'max-pending-deliveries': { type: 'string' },
  'shift-reserve-min': { type: 'string' },
  'solver-warm-up': { type: 'string' },
} as const;

export const FLOW_SERVE_USAGE = '[--job-time-limit SECONDS] [--lease-seconds 30] [--webhook-timeout MS] [--webhook-retry-delays MS,MS,...] [--max-jobs-per-company 4] [--position-retention-days 30] [--max-pending-deliveries 100000] [--shift-reserve-min 0] [--solver-warm-up 2]';

/** Validates the values; throws `usage(message)` on a bad one. */
export function parseFlowServeArgs(
  v: { 'job-time-limit'?: string; 'lease-seconds'?: string; 'webhook-timeout'?: string; 'webhook-retry-delays'?: string; 'max-jobs-per-company'?: string; 'position-retention-days'?: string; 'max-pending-deliveries'?: string; 'shift-reserve-min'?: string; 'solver-warm-up'?: string },
  usage: (message: string) => Error,
): FlowServeOptions {
  const out: FlowServeOptions = {};
  const reserve = v['shift-reserve-min'];
  if (reserve !== undefined) {
    if (!/^\d{1,3}$/.test(reserve) || Number(reserve) > 720) throw usage(`--shift-reserve-min: expected whole minutes from 0 to 720, got '${reserve}'`);
    out.shiftReserveMin = Number(reserve);
  }
  const warm = v['solver-warm-up'];
  if (warm !== undefined) {
    if (!/^\d{1,2}(\.\d{1,3})?$/.test(warm) || Number(warm) > 60) throw usage(`--solver-warm-up: expected seconds from 0 to 60, got '${warm.slice(0, 40)}'`);
    out.solverWarmUpSec = Number(warm);
  }
  const limit = v['job-time-limit'];
  if (limit !== undefined) {
    if (!/^\d{1,5}(\.\d{1,3})?$/.test(limit) || Number(limit) <= 0) throw usage(`--job-time-limit: expected seconds above 0, got '${limit}'`);
    out.jobTimeLimitSec = Number(limit);
  }
  const lease = v['lease-seconds'];
  if (lease !== undefined) {
    if (!/^\d{1,4}$/.test(lease) || Number(lease) < 1) throw usage(`--lease-seconds: expected whole seconds (1 or more), got '${lease}'`);
    out.leaseMs = Number(lease) * 1000;
  }
  const timeout = v['webhook-timeout'];
  if (timeout !== undefined) {
    if (!/^\d{1,7}$/.test(timeout) || Number(timeout) < 1) throw usage(`--webhook-timeout: expected milliseconds (1 or more), got '${timeout}'`);
    out.webhookTimeoutMs = Number(timeout);
  }
  const delays = v['webhook-retry-delays'];
  if (delays !== undefined) {
    const parts = delays.split(',').map((s) => s.trim());
    if (parts.length === 0 || parts.length > 50 || parts.some((p) => !/^\d{1,9}$/.test(p))) {
      throw usage(`--webhook-retry-delays: expected a comma-separated list of milliseconds, got '${delays}'`);
    }
    out.webhookRetryDelaysMs = parts.map(Number);
  }
  const cap = v['max-jobs-per-company'];
  if (cap !== undefined) {
    if (!/^\d{1,4}$/.test(cap) || Number(cap) < 1) throw usage(`--max-jobs-per-company: expected a positive integer, got '${cap}'`);
    out.maxJobsPerCompany = Number(cap);
  }
  const days = v['position-retention-days'];
  if (days !== undefined) {
    if (!/^\d{1,5}$/.test(days) || Number(days) < 1) throw usage(`--position-retention-days: expected a positive number of days, got '${days}'`);
    out.positionRetentionDays = Number(days);
  }
  const pending = v['max-pending-deliveries'];
  if (pending !== undefined) {
    if (!/^\d{1,9}$/.test(pending) || Number(pending) < 1) throw usage(`--max-pending-deliveries: expected a whole number from 1, got '${pending.slice(0, 40)}'`);
    out.maxPendingDeliveries = Number(pending);
  }
  return out;
}

// ---- the options serve and worker share (database, geocoder, road matrix, solver threads, logs)

const WORK_OPTIONS = {
  db: { type: 'string', default: './var/planner.db' },
  geocoder: { type: 'string', default: 'table' },
  'geocoder-url': { type: 'string' },
  'address-book': { type: 'string' },
  matrix: { type: 'string', default: 'haversine' },
  'osrm-url': { type: 'string' },
  'speed-kmh': { type: 'string' },
  'detour-factor': { type: 'string' },
  workers: { type: 'string' },
  'solver-nice': { type: 'string', default: String(DEFAULT_SOLVER_NICE) },
  'log-level': { type: 'string', default: 'info' },
  help: { type: 'boolean', short: 'h' },
  ...flowServeArgs,
} as const;

/** node:util parseArgs over the specs, its refusals as one UsageError line naming the usage. */
function parseValues<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: withNegativeValues(argv, options), strict: true, allowPositionals: false, options }).values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (usage: ${usage})`);
  }
}

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
  'solver-nice': string;
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
  if (!/^\d{1,2}$/.test(v['solver-nice']) || Number(v['solver-nice']) > 19) {
    throw new UsageError(`--solver-nice: expected nice levels 0 to 19 below the event loop, got '${v['solver-nice'].slice(0, 40)}'`);
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
    solverNice: Number(v['solver-nice']),
    logLevel: v['log-level'],
  };
}

// ---- serve

const SERVE =
  'serve [--host 127.0.0.1] [--port 8080] [--db ./var/planner.db] [--geocoder table|nominatim|none] [--geocoder-url URL] [--address-book FILE] [--matrix haversine|osrm] [--osrm-url URL] [--speed-kmh N] [--detour-factor F] [--workers N] [--solver-nice 10] [--demo] [--log-level info] [--rate-limit 1200] [--redis redis://HOST:PORT] [--redis-prefix PREFIX] [--jobs on|off] [--tiles URL-TEMPLATE] [--tiles-attribution TEXT] [--public-url URL] [--metrics-port N] [--max-open-orders 100000] [--max-positions-per-minute 60] ' + FLOW_SERVE_USAGE;

const SERVE_OPTIONS = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8080' },
  ...WORK_OPTIONS,
  demo: { type: 'boolean', default: false },
  'rate-limit': { type: 'string', default: String(DEFAULT_RATE_LIMIT_PER_MINUTE) },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string', default: DEFAULT_REDIS_PREFIX },
  jobs: { type: 'string', default: 'on' },
  tiles: { type: 'string' },
  'tiles-attribution': { type: 'string' },
  'public-url': { type: 'string' },
  'metrics-port': { type: 'string' },
  'max-open-orders': { type: 'string', default: String(DEFAULT_QUOTAS.maxOpenOrders) },
  'max-positions-per-minute': { type: 'string', default: String(DEFAULT_QUOTAS.maxPositionsPerMinute) },
} as const;

export const SERVE_USAGE = `usage: delivery-planner ${SERVE}`;

export function parseServeArgs(argv: string[]): ServeConfig | 'help' {
  const v = parseValues(argv, SERVE_OPTIONS, SERVE);
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
  const publicUrl = v['public-url'];
  if (publicUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(publicUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
      throw new UsageError(`--public-url: expected an http(s) base URL such as https://planner.example.com, got '${redactText(publicUrl)}'`);
    }
  }
  return {
    publicUrl,
    metricsPort: parseMetricsPort(v['metrics-port']),
    quotas: {
      maxOpenOrders: positiveCount('max-open-orders', v['max-open-orders']),
      maxPositionsPerMinute: positiveCount('max-positions-per-minute', v['max-positions-per-minute']),
    },
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

/** A quota flag: 1 to 999,999,999. */
function positiveCount(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new UsageError(`--${name}: expected a whole number from 1, got '${value.slice(0, 40)}'`);
  return Number(value);
}

/** `--metrics-port N`: 0 to 65535 (0 takes a free port), or absent. */
export function parseMetricsPort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) throw new UsageError(`--metrics-port: expected a port number 0-65535, got '${value.slice(0, 40)}'`);
  return Number(value);
}

// ---- worker

const WORKER =
  'worker --db PATH [--workers N] [--geocoder table|nominatim|none] [--geocoder-url URL] [--address-book FILE] [--matrix haversine|osrm] [--osrm-url URL] [--speed-kmh N] [--detour-factor F] [--solver-nice 10] [--log-level info] [--metrics-port N] [--metrics-host 127.0.0.1] ' +
  FLOW_SERVE_USAGE;

const WORKER_OPTIONS = {
  ...WORK_OPTIONS,
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string', default: '127.0.0.1' },
} as const;

export const WORKER_USAGE = `usage: delivery-planner ${WORKER}`;

export interface WorkerConfig extends WorkConfig {
  flow: FlowServeOptions;
  /** `--metrics-port`: /healthz, /readyz and /metrics there (on `--metrics-host`). */
  metricsPort?: number;
  metricsHost: string;
}

export function parseWorkerArgs(argv: string[]): WorkerConfig | 'help' {
  const v = parseValues(argv, WORKER_OPTIONS, WORKER);
  if (v.help) return 'help';
  return {
    db: v.db,
    ...parseWorkOptions(v),
    flow: parseFlowServeArgs(v, (m) => new UsageError(m)),
    metricsPort: parseMetricsPort(v['metrics-port']),
    metricsHost: v['metrics-host'],
  };
}
