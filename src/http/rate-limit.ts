/**
 * Request limits per API key (docs/contract/operations.md "Request limits"): a token bucket per key, `max`
 * requests a minute, refilled continuously. Wired through @fastify/rate-limit: the plugin owns the
 * hook, the headers and the 429; this file owns the bucket, behind the plugin's store interface
 * (`incr(key, cb, timeWindow, max)` -> `{current, ttl}`). With `serve --redis` the same bucket
 * lives in Redis (rate-limit-redis.ts), shared by every API process, behind the same interface.
 *
 * Only requests with a valid key count: auth (onRequest, app level) runs before the plugin's
 * route-level onRequest hook, and a request without `request.auth` is on the allow list.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1200;
const MINUTE_MS = 60_000;
/** Buckets kept before full ones (indistinguishable from new ones) are swept out. */
const SWEEP_AT = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export interface IncrResult {
  /** Requests counted against `max`: `max + 1` when refused, so the plugin answers 429. */
  current: number;
  /** Milliseconds: until the bucket is full again, or (refused) until the next token. */
  ttl: number;
}

/**
 * The arithmetic of one bucket a key, with the clock passed in. Capacity `max`, refill `max`
 * tokens per `windowMs`; a request takes one token or is refused.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, windowMs: number, max: number): IncrResult {
    const now = this.now();
    const perMs = max / windowMs;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= SWEEP_AT) this.sweep(now, perMs, max);
      bucket = { tokens: max, at: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(max, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens < 1) {
      return { current: max + 1, ttl: Math.ceil((1 - bucket.tokens) / perMs) };
    }
    bucket.tokens -= 1;
    const remaining = Math.floor(bucket.tokens);
    return { current: max - remaining, ttl: Math.ceil((max - bucket.tokens) / perMs) };
  }

  /** The tokens `key` has now and, when under one, ms until it has one; takes nothing. */
  peek(key: string, windowMs: number, max: number): { tokens: number; waitMs: number } {
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: max, waitMs: 0 };
    const perMs = max / windowMs;
    const tokens = Math.min(max, bucket.tokens + (this.now() - bucket.at) * perMs);
    return { tokens, waitMs: tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perMs) };
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Drops the buckets that have refilled: a new bucket starts full, so nothing changes. */
  private sweep(now: number, perMs: number, max: number): void {
    for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * perMs >= max) this.buckets.delete(key);
  }
}

/** Where the buckets live: this process (`TokenBuckets`) or a store shared by every API process
 *  (`RedisTokenBuckets`, rate-limit-redis.ts). */
export interface BucketCounter {
  take(key: string, windowMs: number, max: number): IncrResult | Promise<IncrResult>;
}

/** The plugin's store interface (the plugin constructs it) over one `BucketCounter`. */
function storeOver(counter: BucketCounter) {
  return class TokenBucketStore {
    incr(key: string, cb: (err: Error | null, result?: IncrResult) => void, timeWindow: number, max: number): void {
      let result: IncrResult | Promise<IncrResult>;
      try {
        result = counter.take(key, timeWindow, max);
      } catch (err) {
        cb(err as Error);
        return;
      }
      if (result instanceof Promise) result.then((r) => cb(null, r), (err: Error) => cb(err));
      else cb(null, result);
    }

    child(): TokenBucketStore {
      return this;
    }
  };
}

export const throttledDetail = (seconds: number) => `Request was throttled. Expected available in ${seconds} seconds.`;

/**
 * Registers the per-key limit on `app` (before any route); `perMinute` 0 registers nothing. The
 * buckets are this process's unless `shared` (Redis) is given.
 */
export function registerRateLimit(app: FastifyInstance, perMinute: number, shared?: BucketCounter): void {
  if (perMinute <= 0) return;
  app.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: MINUTE_MS,
    hook: 'onRequest',
    store: storeOver(shared ?? new TokenBuckets()) as never,
    enableDraftSpec: true,
    allowList: (request) => request.auth === null,
    // the plugin asks for the key before it looks at the allow list: a route without a scope (the
    // docs page) has no auth context, and is let through by the allow list
    keyGenerator: (request) => (request.auth ? `key:${request.auth.key.id}` : 'no-key'),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return Object.assign(new Error(throttledDetail(seconds)), { statusCode: 429, throttled: true });
    },
  });
}
