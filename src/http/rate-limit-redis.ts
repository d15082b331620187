/**
 * The request-limit token buckets in Redis (`serve --redis redis://HOST:PORT`), shared by every
 * API process that names the same Redis and key prefix. The same bucket as `TokenBuckets`
 * (rate-limit.ts): capacity `max`, refilled continuously at `max` per window, one token a request;
 * the refill and the take are one Lua script, so two processes never spend the same token, and the
 * clock is Redis's own (`TIME`), so the processes' clocks do not matter.
 *
 * Keys: `<prefix><sha256 of the limiter key, 32 hex>` (the limiter key is `key:<API key id>`, never
 * the API key itself), a hash `{t: tokens, at: ms}` that expires once the bucket would be full again
 * (plus a second): an idle key costs nothing and a returning one starts full, as it would anyway.
 *
 * Redis unreachable (down, refused, or slower than COMMAND_TIMEOUT_MS): fail open to this process's
 * own buckets, exactly what `serve` without `--redis` does, with one warning a minute at most; the
 * next request after RETRY_AFTER_FAILURE_MS tries Redis again, and ioredis reconnects by itself.
 * See the README, "Limits, fairness and faults", for why open and not closed.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { TokenBuckets, type IncrResult, type BucketCounter } from './rate-limit.js';

export const DEFAULT_REDIS_PREFIX = 'delivery-planner:rate:';
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;
/** After a failed command, requests are counted locally for this long before Redis is tried again. */
const RETRY_AFTER_FAILURE_MS = 1_000;
const WARN_EVERY_MS = 60_000;

/** KEYS[1] the bucket; ARGV[1] max, ARGV[2] window ms. Returns {current, ttl ms} as TokenBuckets.take. */
const TAKE_SCRIPT = `
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per_ms = max / window
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = max
  at = now
end
if now > at then
  tokens = math.min(max, tokens + (now - at) * per_ms)
  at = now
end
local current
local ttl
if tokens < 1 then
  current = max + 1
  ttl = math.ceil((1 - tokens) / per_ms)
else
  tokens = tokens - 1
  current = max - math.floor(tokens)
  ttl = math.ceil((max - tokens) / per_ms)
end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'at', string.format('%.17g', at))
redis.call('PEXPIRE', KEYS[1], math.ceil((max - tokens) / per_ms) + 1000)
return {current, ttl}
`;

interface WithTake {
  dpTokenBucketTake(key: string, max: number, windowMs: number): Promise<[number, number]>;
}

export interface RedisTarget {
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** The URL without its password, for messages and logs. */
  display: string;
}

const usage = (given: string) =>
  `--redis: expected redis://HOST:PORT (optionally redis://[USER:PASSWORD@]HOST:PORT/DB, or rediss:// for TLS), got ${oneLine(given)}`;

/** A value quoted on one line whatever it holds, its password (if it has one) not shown. */
function oneLine(given: string): string {
  const shown = given.includes('@') ? `…@${given.slice(given.lastIndexOf('@') + 1)}` : given;
  return JSON.stringify(shown.length > 200 ? `${shown.slice(0, 200)}…` : shown);
}

const isDigits = (s: string) => s.length > 0 && [...s].every((c) => c >= '0' && c <= '9');

/**
 * `--redis`: `redis://HOST:PORT`, with an optional user and password, database index (0 to 15)
 * and `rediss:` for TLS. Parsed by the WHATWG URL parser and checked field by field (no regular
 * expression). Throws an Error with a one-line message for the usage error.
 */
export function parseRedisUrl(given: string): RedisTarget {
  if (given.length === 0 || given.length > 2048 || [...given].some((c) => c <= ' ' || c === '\u007f')) throw new Error(usage(given));
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(usage(given));
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(usage(given));
  if (url.search !== '' || url.hash !== '' || url.hostname === '') throw new Error(usage(given));
  const port = url.port === '' ? 6379 : Number(url.port);
  if (port < 1) throw new Error(usage(given));
  let db = 0;
  if (url.pathname !== '' && url.pathname !== '/') {
    const index = url.pathname.slice(1);
    if (!isDigits(index) || index.length > 2 || Number(index) > 15) throw new Error(usage(given));
    db = Number(index);
  }
  const host = url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  const display = `${url.protocol}//${username ? `${username}@` : password ? '…@' : ''}${url.host}${db ? `/${db}` : ''}`;
  return { tls: url.protocol === 'rediss:', host, port, db, username, password, display };
}

/** Key prefix (`--redis-prefix`): 1 to 100 characters of letters, digits and `:_-.` */
export function validRedisPrefix(prefix: string): boolean {
  return prefix.length > 0 && prefix.length <= 100 && [...prefix].every((c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || ':_-.'.includes(c));
}

/** The Redis key of a limiter key: the prefix and a hash, never the API key or its id in clear. */
export function redisBucketKey(prefix: string, limiterKey: string): string {
  return prefix + createHash('sha256').update(limiterKey).digest('hex').slice(0, 32);
}

export interface RateLimitLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RedisTokenBucketsOptions {
  target: RedisTarget;
  prefix?: string;
  log?: RateLimitLog;
}

export class RedisTokenBuckets implements BucketCounter {
  readonly prefix: string;
  private readonly client: Redis;
  private readonly local = new TokenBuckets();
  private readonly log: RateLimitLog;
  private readonly target: RedisTarget;
  /** Requests counted here (not in Redis) since the last warning, and when that warning was. */
  private localSinceWarning = 0;
  private lastWarningAt = -Infinity;
  private degraded = false;
  private retryAt = 0;
  private lastError = '';

  constructor(options: RedisTokenBucketsOptions) {
    this.target = options.target;
    this.prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
    this.log = options.log ?? { warn: () => {}, info: () => {} };
    this.client = new Redis({
      host: options.target.host,
      port: options.target.port,
      db: options.target.db,
      username: options.target.username,
      password: options.target.password,
      tls: options.target.tls ? {} : undefined,
      lazyConnect: true,
      // a command never waits for a connection: while Redis is away, requests count locally
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(100 * times, 2_000),
    });
    this.client.defineCommand('dpTokenBucketTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.client.on('error', (err: Error) => this.failed(err));
    this.client.on('ready', () => this.recovered());
  }

  /**
   * Connects; resolves true once Redis answers, false if it refused or did not answer within the
   * connect time-out (the service then starts counting locally and keeps trying to reconnect).
   */
  async connect(): Promise<boolean> {
    const ready = new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        clearTimeout(timer);
        resolve(ok);
      };
      const onReady = () => done(true);
      const onError = () => done(false);
      const timer = setTimeout(() => done(false), CONNECT_TIMEOUT_MS + 500);
      this.client.once('ready', onReady);
      this.client.once('error', onError);
    });
    this.client.connect().catch(() => {}); // failures arrive as 'error' events
    const ok = await ready;
    if (ok) this.log.info({ redis: this.target.display, prefix: this.prefix }, 'request limits: counted in Redis (shared by all API processes)');
    else this.failed(new Error(this.lastError || 'no answer'));
    return ok;
  }

  /** One request of `limiterKey`: the token bucket in Redis, or this process's while Redis is away. */
  async take(limiterKey: string, windowMs: number, max: number): Promise<IncrResult> {
    if (this.client.status !== 'ready') {
      this.failed(new Error(this.lastError || `connection ${this.client.status}`));
    } else if (Date.now() >= this.retryAt) {
      try {
        const [current, ttl] = await (this.client as unknown as WithTake).dpTokenBucketTake(redisBucketKey(this.prefix, limiterKey), max, windowMs);
        if (this.degraded) this.recovered();
        return { current, ttl };
      } catch (err) {
        this.failed(err as Error);
        this.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
      }
    }
    this.localSinceWarning++;
    return this.local.take(limiterKey, windowMs, max);
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.retryAt = 0;
    this.log.info(
      { redis: this.target.display, counted_locally: this.localSinceWarning },
      'request limits: Redis reachable again, counted in Redis (shared by all API processes)',
    );
    this.localSinceWarning = 0;
  }

  private failed(err: Error): void {
    this.lastError = err.message;
    this.degraded = true;
    const now = Date.now();
    if (now - this.lastWarningAt < WARN_EVERY_MS) return;
    this.lastWarningAt = now;
    this.log.warn(
      { redis: this.target.display, error: err.message, counted_locally: this.localSinceWarning },
      'request limits: Redis unreachable, counting in this process only (each API process limits alone) until it is back',
    );
    this.localSinceWarning = 0;
  }

  async close(): Promise<void> {
    try {
      if (this.client.status === 'ready') await this.client.quit();
    } catch {
      // closing anyway
    }
    this.client.disconnect();
  }
}
