import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Database } from '../../src/store/sqlite/driver.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StorePort } from '../../src/store/port.js';
import { PgStore } from '../../src/store/postgres/index.js';
import { portOf } from '../../src/store/sqlite/port.js';
import { Store } from '../../src/store/sqlite/store.js';
import { WebhookDispatcher, type Subscription } from '../../src/webhooks/dispatcher.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { BACKENDS } from '../e2e/backends.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const secret = 'whsec_test_secret';

/** One PostgreSQL database for the file, emptied before each test. */
let pgDatabase: Promise<TestDatabase> | undefined;
afterAll(async () => {
  if (pgDatabase) await (await pgDatabase).drop();
});

// the dispatcher over each store's outbox port (src/store/sqlite/outbox.ts, src/store/postgres/outbox.ts)
for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`webhook dispatcher on ${kind}`, () => {
  let dir: string;
  let stores: StorePort[];
  let store: StorePort;
  let receivers: WebhookReceiver[];
  let dispatchers: WebhookDispatcher[];

  /** A store on the test's database: SQLite `name` in the test's folder, or the file's PostgreSQL database. */
  async function open(name = 'planner.db', options: { lockTimeoutMs?: number; busyTimeoutMs?: number } = {}): Promise<StorePort> {
    const s = kind === 'sqlite' ? portOf(Store.open(join(dir, name), { busyTimeoutMs: options.busyTimeoutMs })) : await PgStore.open((await pgDatabase!).url, { lockTimeoutMs: options.lockTimeoutMs });
    stores.push(s);
    return s;
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhooks-'));
    if (kind === 'postgres') {
      pgDatabase ??= createTestDatabase();
      await (await pgDatabase).reset();
    }
    stores = [];
    receivers = [];
    dispatchers = [];
    store = await open();
  });

  afterEach(async () => {
    for (const d of dispatchers) await d.stop();
    for (const r of receivers) await r.close();
    for (const s of stores) await s.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  async function receiver(plan: Array<number | 'hang'> = []) {
    const r = await startWebhookReceiver(plan);
    receivers.push(r);
    return r;
  }

  function dispatcher(subs: Subscription[], options: Partial<ConstructorParameters<typeof WebhookDispatcher>[0]> = {}, on = store) {
    const d = new WebhookDispatcher({
      outbox: on.outbox,
      subscriptions: (companyId) => (companyId === 1 ? subs : []),
      retryDelaysMs: [20, 20, 20],
      timeoutMs: 2_000,
      pollMs: 20,
      ...options,
    });
    dispatchers.push(d);
    return d;
  }

  it('delivers a signed body with the delivery id and event headers', async () => {
    const r = await receiver();
    const d = dispatcher([{ id: 7, url: r.url, secret }]);
    d.start();
    const [id] = await d.publish(1, 'planning_job.finished', { job_id: 3, status: 'done' });
    const [got] = await r.waitFor(1);
    await d.settled();

    expect(got.headers['x-planner-delivery-id']).toBe(id);
    expect(got.headers['x-planner-event']).toBe('planning_job.finished');
    expect(got.headers['content-type']).toBe('application/json');
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ id, event: 'planning_job.finished', data: { job_id: 3, status: 'done' } });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const header = String(got.headers['x-planner-signature']);
    expect(verifySignature(secret, header, got.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifySignature('another-secret', header, got.body, Math.floor(Date.now() / 1000))).toBe(false);
    expect(verifySignature(secret, header, got.body.replace('done', 'fail'), Math.floor(Date.now() / 1000))).toBe(false);

    const stored = (await store.outbox.get(id!))!;
    expect(stored.status).toBe('delivered');
    expect(stored.attempts).toBe(1);
  });

  it('a company without subscriptions queues nothing', async () => {
    const d = dispatcher([]);
    expect(await d.publish(2, 'order.status_changed', {})).toEqual([]);
    expect(await store.outbox.list()).toEqual([]);
  });

  it('retries a 500 with the same delivery id and the same body until a 200', async () => {
    const r = await receiver([500, 503]);
    const d = dispatcher([{ id: 1, url: r.url, secret }]);
    d.start();
    const [id] = await d.publish(1, 'order.status_changed', { order_id: 5, status: 'in_route' });
    const got = await r.waitFor(3);
    await d.settled();
    expect(got.map((g) => g.headers['x-planner-delivery-id'])).toEqual([id, id, id]);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    expect(got.map((g) => g.status)).toEqual([500, 503, 200]);
    const stored = (await store.outbox.get(id!))!;
    expect(stored).toMatchObject({ status: 'delivered', attempts: 3 });
    // No further request after delivery.
    await new Promise((res) => setTimeout(res, 100));
    expect(r.received).toHaveLength(3);
  });

  it('gives up once the retry schedule is spent, keeping the last error', async () => {
    const r = await receiver([500, 500, 500, 500, 500]);
    const d = dispatcher([{ id: 1, url: r.url, secret }], { retryDelaysMs: [10, 10] });
    d.start();
    const [id] = await d.publish(1, 'order.status_changed', {});
    await r.waitFor(3);
    await d.settled();
    expect((await store.outbox.get(id!))).toMatchObject({ status: 'failed', attempts: 3, lastError: 'HTTP 500' });
  });

  it('a receiver that never answers does not hold up another subscription', async () => {
    const dead = await receiver(['hang']);
    const good = await receiver();
    const d = dispatcher(
      [
        { id: 1, url: dead.url, secret },
        { id: 2, url: good.url, secret },
      ],
      { timeoutMs: 60_000 },
    );
    d.start();
    const [deadId, goodId] = await d.publish(1, 'planning_job.finished', { job_id: 1 });
    await good.waitFor(1);
    await dead.waitFor(1);
    const outbox = store.outbox;
    while ((await outbox.get(goodId!))!.status !== 'delivered') await new Promise((res) => setTimeout(res, 10));
    // The dead receiver's request is still open: untouched, not yet counted as a try.
    expect(await outbox.get(deadId!)).toMatchObject({ status: 'pending', attempts: 0 });
    // Shutting down aborts it and leaves it pending for the next start.
    await d.stop();
    expect(await outbox.get(deadId!)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('a dead receiver with a backlog holds 2 slots at most; the healthy one gets everything', async () => {
    const dead = await receiver(Array.from({ length: 50 }, () => 'hang' as const));
    const good = await receiver();
    const d = dispatcher(
      [
        { id: 1, url: dead.url, secret },
        { id: 2, url: good.url, secret },
      ],
      { timeoutMs: 60_000, concurrency: 4 },
    );
    // the dead one's backlog is older than every delivery of the healthy one
    for (let i = 0; i < 20; i++) await d.publish(1, 'order.status_changed', { i });
    d.start();
    await good.waitFor(20);
    expect(dead.received).toHaveLength(2);
    // another process sees the dead one's two slots taken (in flight here, leased): it sends none of its backlog
    const outbox = store.outbox;
    const other = { owner: 'another-process', until: Date.now() + 60_000 };
    expect((await outbox.due(Date.now(), 100, new Set(), { perSubscription: 2, lease: other })).filter((x) => x.subscriptionId === 1)).toHaveLength(0);
  });

  it('a paused subscription gets no tries; its deliveries wait and go out once it is active again', async () => {
    const r = await receiver();
    let paused = new Set([7]);
    const d = dispatcher([{ id: 7, url: r.url, secret }], { paused: () => paused });
    d.start();
    const [id] = await d.publish(1, 'planning_job.finished', { job_id: 1 });
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(0);
    const outbox = store.outbox;
    expect(await outbox.get(id!)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await outbox.nextDue(paused)).toBeNull();
    paused = new Set();
    await r.waitFor(1);
    await d.settled();
    expect((await outbox.get(id!))!.status).toBe('delivered');
  });

  it('reports every outcome per subscription', async () => {
    const r = await receiver([500, 200]);
    const outcomes: Array<[number, boolean]> = [];
    const d = dispatcher([{ id: 3, url: r.url, secret }], { onOutcome: (sub, ok) => void outcomes.push([sub, ok]) });
    d.start();
    await d.publish(1, 'planning_job.finished', { job_id: 1 });
    await r.waitFor(2);
    await d.settled();
    expect(outcomes).toEqual([[3, false], [3, true]]);
  });

  it('an outcome it cannot write (another writer holds the lock) is a fault, not a crash: the delivery goes out again', async () => {
    const r = await receiver();
    const faults: unknown[] = [];
    const tries: string[] = [];
    // a store that waits for another writer's lock 0 ms (SQLite) or 200 ms (PostgreSQL), then fails
    const impatient = await open('locked.db', { busyTimeoutMs: 0, lockTimeoutMs: 200 });
    const d = dispatcher([{ id: 1, url: r.url, secret }], { onFault: (e) => faults.push(e), onTry: (t) => tries.push(t) }, impatient);
    const [id] = await d.publish(1, 'planning_job.finished', { job_id: 1 });
    // the delivery is claimed; while its request is answered, another writer takes the lock
    let unlock: () => Promise<void>;
    if (kind === 'sqlite') {
      const locker = new Database(join(dir, 'locked.db'));
      r.onRequest = (i) => {
        if (i === 0) locker.exec('BEGIN IMMEDIATE');
      };
      unlock = async () => {
        locker.exec('COMMIT');
        locker.close();
      };
    } else {
      const locker = new pg.Client({ connectionString: (await pgDatabase!).url });
      await locker.connect();
      r.onRequest = async (i) => {
        if (i === 0) await locker.query('BEGIN; LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE');
      };
      unlock = async () => {
        await locker.query('COMMIT');
        await locker.end();
      };
    }
    d.start();
    await r.waitFor(1);
    // the lock is held until the delivery's outcome has been written, or failed to be: a fault of
    // the polling loop (which meets the same lock) does not release it early (the write would then
    // wait out the lock and succeed, and nothing would go out again)
    while (!tries.includes('delivered')) await new Promise((res) => setTimeout(res, 10));
    expect(faults.length).toBeGreaterThan(0);
    await unlock();
    await r.waitFor(2); // delivered, but not recorded: tried again, by the same process, same id
    while ((await impatient.outbox.get(id!))!.status !== 'delivered') await new Promise((res) => setTimeout(res, 10));
    expect((faults[0] as { code?: string }).code).toMatch(kind === 'sqlite' ? /^SQLITE_BUSY/ : /^55P03$/);
    expect(new Set(r.received.map((x) => x.headers['x-planner-delivery-id']))).toEqual(new Set([id]));
  });

  it('options given as undefined take their defaults (an idle loop looks once a second, not every millisecond)', async () => {
    const d = new WebhookDispatcher({
      outbox: store.outbox,
      subscriptions: () => [],
      pollMs: undefined,
      timeoutMs: undefined,
      retryDelaysMs: undefined,
    });
    dispatchers.push(d);
    let looks = 0;
    const outbox = (d as unknown as { o: { outbox: StorePort['outbox'] } }).o.outbox;
    const nextDue = outbox.nextDue.bind(outbox);
    outbox.nextDue = (p?: ReadonlySet<number>) => {
      looks++;
      return nextDue(p);
    };
    d.start();
    await new Promise((res) => setTimeout(res, 1_500));
    expect(looks).toBeGreaterThanOrEqual(1);
    expect(looks).toBeLessThanOrEqual(3);
  });

  it('a receiver that does not answer in time counts as a failed try', async () => {
    const dead = await receiver(['hang']);
    const d = dispatcher([{ id: 1, url: dead.url, secret }], { timeoutMs: 100, retryDelaysMs: [60_000] });
    d.start();
    const [id] = await d.publish(1, 'planning_job.finished', { job_id: 1 });
    await dead.waitFor(1);
    await d.settled();
    const stuck = (await store.outbox.get(id!))!;
    expect(stuck).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no answer within 100 ms' });
    expect(stuck.nextAttemptAt).toBeGreaterThan(Date.now() + 30_000);
  });

  it('a receiver that is down is retried, not lost', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    receivers = [];
    const d = dispatcher([{ id: 1, url, secret }], { retryDelaysMs: [60_000] });
    d.start();
    const [id] = await d.publish(1, 'order.status_changed', {});
    await d.settled();
    const stored = (await store.outbox.get(id!))!;
    expect(stored.status).toBe('pending');
    expect(stored.attempts).toBe(1);
    expect(stored.lastError).toMatch(/fetch failed/);
  });

  it('deliveries queued before a restart go out after it, with their ids', async () => {
    const first = await open('restart.db');
    const r = await receiver();
    // Published but never sent: the process "dies" before its loop ran.
    const before = dispatcher([{ id: 1, url: r.url, secret }], {}, first);
    const ids = [await before.publish(1, 'order.status_changed', { n: 1 }), await before.publish(1, 'order.status_changed', { n: 2 })].flat();
    await first.close();

    const second = await open('restart.db');
    const after = dispatcher([], {}, second);
    after.start();
    const got = await r.waitFor(2);
    await after.settled();
    expect(got.map((g) => g.headers['x-planner-delivery-id']).sort()).toEqual([...ids].sort());
    expect((await second.outbox.list()).map((x) => x.status)).toEqual(['delivered', 'delivered']);
  });
});

describe('webhook signature', () => {
  it('refuses a timestamp older than the tolerance and a malformed header', async () => {
    const { signatureHeader } = await import('../../src/webhooks/signature.js');
    const header = signatureHeader(secret, 1_000_000, '{}');
    expect(header).toMatch(/^t=1000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, '{}', 1_000_100)).toBe(true);
    expect(verifySignature(secret, header, '{}', 1_000_400)).toBe(false);
    expect(verifySignature(secret, 'garbage', '{}', 1_000_000)).toBe(false);
    expect(verifySignature(secret, 't=1000000,v1=zz', '{}', 1_000_000)).toBe(false);
  });
});
