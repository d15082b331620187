/**
 * Request limits across API processes (docs/contract/operations.md "Request limits", "Scaling out": `serve
 * --redis redis://HOST:PORT`): the token bucket in a real Redis, shared by real `serve` processes
 * on loopback; without `--redis` each process limits alone; while Redis is away each process
 * counts alone (fail-open) and says so, and counts in Redis again once it is back.
 *
 * Needs Redis on 127.0.0.1:6379 (every machine of the project runs one): without it these tests
 * are skipped, and say so. Each test has its own key prefix, so runs never see each other; the
 * stop/start test runs its own `redis-server` on a free port, never touching the shared one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseRedisUrl, redisBucketKey, RedisTokenBuckets } from '../../src/http/rate-limit-redis.js';
import { throttledDetail, TokenBuckets } from '../../src/http/rate-limit.js';
import { Store } from '../../src/store/sqlite/store.js';
import { SCOPES } from '../../src/store/types.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { parseServeArgs } from '../../src/cli/options.js';
import { runCli } from '../helpers/run-cli.js';
import { seedDb, sleep, startServe, type Served } from '../e2e/serve.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

async function reachable(port: number): Promise<boolean> {
  const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 2_000, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const redisUp = await reachable(6379);
const redisServerBinary = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
if (!redisUp) process.stdout.write(`\nrate-limit-redis: SKIPPED, no Redis answers at ${REDIS_URL} (the request-limit tests across processes need it)\n`);
else if (!redisServerBinary) process.stdout.write('\nrate-limit-redis: the Redis stop/start test is SKIPPED, no redis-server binary to start a private Redis\n');

const redis = redisUp ? new Redis(REDIS_URL) : undefined;
const prefixes: string[] = [];
/** A key prefix of this test alone. */
function freshPrefix(): string {
  const prefix = `dp-test:${process.pid}:${randomUUID()}:`;
  prefixes.push(prefix);
  return prefix;
}
async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

afterAll(async () => {
  if (!redis) return;
  for (const prefix of prefixes) {
    const keys = await keysUnder(redis, prefix);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis.disconnect();
});

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup.length = 0;
});

const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

async function serve(db: string, args: string[]): Promise<Served> {
  const s = await startServe(db, ['--jobs', 'off', ...args]);
  cleanup.push(() => (alive(s.child) ? s.kill('SIGKILL') : undefined));
  return s;
}

/** A seeded SQLite file with two keys of one company. */
function seeded() {
  const s = seedDb({ vehicles: 1 });
  cleanup.push(() => rmSync(s.dir, { recursive: true, force: true }));
  const store = Store.open(s.db);
  const second = store.apiKeys.create({ company_id: s.company.id, scopes: [...SCOPES] }, new Date().toISOString()).key;
  store.close();
  return { db: s.db, key: s.key, second };
}

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  retryAfter: string | null;
  body: { detail?: string; count?: number };
}

async function get(s: Served, key: string): Promise<Answer> {
  const r = await fetch(`${s.base}/api/public/v1/orders/`, { headers: { authorization: `Api-Key ${key}` } });
  return {
    status: r.status,
    limit: r.headers.get('ratelimit-limit'),
    remaining: r.headers.get('ratelimit-remaining'),
    reset: r.headers.get('ratelimit-reset'),
    retryAfter: r.headers.get('retry-after'),
    body: (await r.json()) as Answer['body'],
  };
}

/** Status and RateLimit-Remaining of each answer. */
const brief = (answers: Answer[]) => answers.map((a) => [a.status, a.remaining]);

function expectThrottled(a: Answer, limit: number): void {
  expect(a.status).toBe(429);
  expect(a.limit).toBe(String(limit));
  expect(a.remaining).toBe('0');
  const seconds = Number(a.retryAfter);
  // one token comes back every 60/limit s: the wait is at most that
  expect(seconds).toBeLessThanOrEqual(60 / limit);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(a.reset).toBe(a.retryAfter);
  expect(a.body).toEqual({ detail: throttledDetail(seconds) });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** At most one warning a minute: the first, and one more for each whole minute since `since`. */
function expectWarnedOnceAMinute(s: Served, since: number): void {
  const warned = warnings(s.stderr());
  expect(warned.length).toBeGreaterThanOrEqual(1);
  expect(warned.length).toBeLessThanOrEqual(1 + Math.floor((Date.now() - since) / 60_000));
  expect(warned[0]!.level).toBe(40);
}

const warnings = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.msg.startsWith('request limits: Redis unreachable'));

describe('--redis: parsing (no Redis needed)', () => {
  it('takes redis://HOST:PORT, a database index, a user and password, rediss://', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6379')).toMatchObject({ tls: false, host: '127.0.0.1', port: 6379, db: 0, display: 'redis://127.0.0.1:6379' });
    expect(parseRedisUrl('redis://cache.internal')).toMatchObject({ host: 'cache.internal', port: 6379 });
    expect(parseRedisUrl('redis://[::1]:6380/3')).toMatchObject({ host: '::1', port: 6380, db: 3 });
    const secret = parseRedisUrl('rediss://app:s%40cret@redis.example:6390/15');
    expect(secret).toMatchObject({ tls: true, username: 'app', password: 's@cret', db: 15 });
    expect(secret.display).not.toContain('cret');
  });

  it('a bad URL is a usage error of one line that never echoes a password; serve exits 2 with it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dp-redis-args-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'x.db');
    const bad = ['http://127.0.0.1:6379', 'redis://', 'redis://h:99999', 'redis://h:0', 'redis://h:1/16', 'redis://h:1/x', 'redis://h:1?db=2', 'redis://h:1#x', 'redis://h:1\nx', ' redis://h:1', '127.0.0.1:6379', `redis://${'a'.repeat(5000)}`, 'redis://u:hunter2@h:1/x'];
    for (const value of bad) {
      let error: unknown;
      try {
        parseServeArgs(['--db', db, '--redis', value]);
      } catch (err) {
        error = err;
      }
      expect(error, value).toBeInstanceOf(UsageError);
      const message = (error as Error).message;
      expect(message).toMatch(/^--redis: expected redis:\/\/HOST:PORT/);
      expect(message).not.toContain('\n');
      expect(message).not.toContain('hunter2');
      expect(message.length).toBeLessThan(400);
    }
    expect(() => parseServeArgs(['--db', db, '--redis', REDIS_URL, '--redis-prefix', 'a b'])).toThrow(/^--redis-prefix: expected/);
    expect(parseServeArgs(['--db', db, '--redis', 'redis://127.0.0.1:6380/2'])).toMatchObject({ redis: { host: '127.0.0.1', port: 6380, db: 2 } });
    // the real command: exit 2, one line on stderr
    const r = runCli(['serve', '--db', db, '--redis', 'redis://u:hunter2@h:1?x']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^delivery-planner: --redis: expected redis:\/\/HOST:PORT/);
    expect(r.stderr).not.toContain('hunter2');
  });
});

describe.skipIf(!redisUp)(`the token bucket in Redis (${REDIS_URL})`, () => {
  it('answers as the in-process bucket; the key is the prefix and a hash, and it expires', async () => {
    const prefix = freshPrefix();
    const buckets = new RedisTokenBuckets({ target: parseRedisUrl(REDIS_URL), prefix });
    cleanup.push(() => buckets.close());
    expect(await buckets.connect()).toBe(true);
    const local = new TokenBuckets();
    const started = Date.now();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await buckets.take('key:7', 60_000, 3));
    const elapsed = Date.now() - started;
    const expected = Array.from({ length: 4 }, () => local.take('key:7', 60_000, 3));
    expect(seen.map((r) => r.current)).toEqual(expected.map((r) => r.current)); // 1, 2, 3, then 4 (refused)
    expect(seen.map((r) => r.current)).toEqual([1, 2, 3, 4]);
    // refused: the next token in 20 s, less the little that already came back
    expect(seen[3]!.ttl).toBeLessThanOrEqual(20_000);
    expect(seen[3]!.ttl).toBeGreaterThanOrEqual(20_000 - elapsed - 1);
    expect((await buckets.take('key:8', 60_000, 3)).current).toBe(1); // another key, its own bucket

    const keys = (await keysUnder(redis!, prefix)).sort();
    expect(keys).toEqual([redisBucketKey(prefix, 'key:7'), redisBucketKey(prefix, 'key:8')].sort());
    for (const key of keys) {
      expect(key.slice(prefix.length)).toMatch(/^[0-9a-f]{32}$/); // no key id in clear
      const ttl = await redis!.pttl(key);
      expect(ttl).toBeGreaterThan(0); // idle keys go away: no unbounded growth
      expect(ttl).toBeLessThanOrEqual(61_000); // at most when the bucket would be full again, plus 1 s
    }
  });

  it('refill and take are one atomic step: 60 requests at once from two clients, exactly max pass', async () => {
    const prefix = freshPrefix();
    const a = new RedisTokenBuckets({ target: parseRedisUrl(REDIS_URL), prefix });
    const b = new RedisTokenBuckets({ target: parseRedisUrl(REDIS_URL), prefix });
    cleanup.push(() => a.close(), () => b.close());
    expect(await a.connect()).toBe(true);
    expect(await b.connect()).toBe(true);
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take('key:1', 3_600_000, 20)));
    expect(results.filter((r) => r.current <= 20)).toHaveLength(20);
    expect(results.filter((r) => r.current <= 20).map((r) => r.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe.skipIf(!redisUp)('two real serve processes', () => {
  it('with --redis share one budget per key: N across both, the N+1th is 429 whichever answers; another key is unaffected', async () => {
    const { db, key, second } = seeded();
    const args = ['--rate-limit', '3', '--redis', REDIS_URL, '--redis-prefix', freshPrefix()];
    const [p1, p2] = await Promise.all([serve(db, args), serve(db, args)]);
    const answers = [await get(p1, key), await get(p2, key), await get(p1, key)];
    expect(brief(answers)).toEqual([[200, '2'], [200, '1'], [200, '0']]);
    for (const a of answers) expect(a.limit).toBe('3');
    // seconds until the bucket is full again: 20 s a token taken (a fixed window would say 60, 60, 60)
    answers.forEach((a, i) => {
      expect(Number(a.reset)).toBeGreaterThan(20 * i);
      expect(Number(a.reset)).toBeLessThanOrEqual(20 * (i + 1));
    });
    expectThrottled(await get(p2, key), 3);
    expectThrottled(await get(p1, key), 3);
    // the other key (same company) has its whole budget, counted across both processes too
    expect(brief([await get(p2, second), await get(p1, second)])).toEqual([[200, '2'], [200, '1']]);
    expect(warnings(p1.stderr()).concat(warnings(p2.stderr()))).toEqual([]);
  });

  it('without --redis each limits alone: N processes allow N times the budget', async () => {
    const { db, key } = seeded();
    const [p1, p2] = await Promise.all([serve(db, ['--rate-limit', '2']), serve(db, ['--rate-limit', '2'])]);
    const answers = [await get(p1, key), await get(p1, key), await get(p2, key), await get(p2, key)];
    expect(brief(answers)).toEqual([[200, '1'], [200, '0'], [200, '1'], [200, '0']]);
    expectThrottled(await get(p1, key), 2);
    expectThrottled(await get(p2, key), 2);
  });
});

describe.skipIf(!redisUp)('Redis away: fail-open to the process\'s own bucket', () => {
  it('nothing listening at --redis: serve starts, counts in the process, still throttles, warns at most once a minute', async () => {
    const { db, key } = seeded();
    const started = Date.now();
    const s = await serve(db, ['--rate-limit', '3', '--redis', `redis://127.0.0.1:${await freePort()}`]);
    const answers = [await get(s, key), await get(s, key), await get(s, key)];
    expect(brief(answers)).toEqual([[200, '2'], [200, '1'], [200, '0']]);
    expectThrottled(await get(s, key), 3);
    for (let i = 0; i < 20; i++) expect((await get(s, key)).status).toBe(429);
    // ioredis fails a reconnect every 2 s at most and each of the 24 requests found no connection: one line a minute at most
    expectWarnedOnceAMinute(s, started);
  });

  it.skipIf(!redisServerBinary)('Redis stopped (SIGSTOP), killed and started again: requests are answered throughout, counted alone while it is away, shared again once it is back', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'dp-redis-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    let server: ChildProcess | undefined;
    const startRedis = async () => {
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      server = child;
      cleanup.push(() => (alive(child) ? child.kill('SIGKILL') : undefined));
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString('utf8');
          if (out.includes('Ready to accept connections')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-1000)}`)));
      });
    };
    const stopRedis = async () => {
      const child = server!;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    };
    await startRedis();

    const { db, key } = seeded();
    const args = ['--rate-limit', '3', '--redis', `redis://127.0.0.1:${port}`, '--redis-prefix', freshPrefix(), '--log-level', 'info'];
    const [p1, p2] = await Promise.all([serve(db, args), serve(db, args)]);
    const started = Date.now();
    expect(brief([await get(p1, key), await get(p2, key)])).toEqual([[200, '2'], [200, '1']]); // in Redis

    // Redis hangs: the request is answered anyway (after the command time-out), from p1's own bucket
    server!.kill('SIGSTOP');
    try {
      expect(brief([await get(p1, key)])).toEqual([[200, '2']]);
    } finally {
      server!.kill('SIGCONT');
    }

    // Redis gone: each process counts alone, and still throttles
    await stopRedis();
    expect(brief([await get(p1, key), await get(p1, key)])).toEqual([[200, '1'], [200, '0']]);
    expectThrottled(await get(p1, key), 3);
    expect(brief([await get(p2, key)])).toEqual([[200, '2']]); // p2's own bucket
    expectWarnedOnceAMinute(p1, started);
    expectWarnedOnceAMinute(p2, started);

    // Redis back (empty): once each process has reconnected, the budget is shared again
    const marks = [p1.stderr().length, p2.stderr().length];
    await startRedis();
    const back = (s: Served) => s.stderr().slice(marks[s === p1 ? 0 : 1]).includes('request limits: Redis reachable again');
    while (!back(p1) || !back(p2)) await sleep(100);
    expect(brief([await get(p1, key), await get(p2, key), await get(p1, key)])).toEqual([[200, '2'], [200, '1'], [200, '0']]);
    expectThrottled(await get(p2, key), 3);
    expectThrottled(await get(p1, key), 3);
  }, 120_000);
});
