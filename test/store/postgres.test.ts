/** The storage port contract (contract.ts) on PgStore, the real PostgreSQL server, and what is PostgreSQL's own. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUrl, isTransientPgError, PgStore } from '../../src/store/postgres/index.js';
import { createTestDatabase, postgres, type TestDatabase } from '../helpers/postgres.js';
import { describeStoreContract, orderFields } from './contract.js';

let database: TestDatabase | undefined;
let store: PgStore | undefined;
const others: PgStore[] = [];

if (postgres.available) {
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await PgStore.open(database.url);
  });
  // the second stores (pools) of a test are closed after it: the server's connections are shared
  afterEach(async () => {
    for (const s of others.splice(0)) await s.close();
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
}

describe.skipIf(!postgres.available)('PgStore', () => {
  describeStoreContract('PgStore', async () => {
    await database!.reset();
    return {
      store: store!,
      another: async () => {
        const s = await PgStore.open(database!.url);
        others.push(s);
        return s;
      },
    };
  }, { manyProcesses: true });
});

describe.skipIf(!postgres.available)('PgStore: PostgreSQL specifics', () => {
  it('a lock wait longer than lockTimeoutMs fails as a transient error (55P03) and writes nothing; the holder commits', async () => {
    await database!.reset();
    const impatient = await PgStore.open(database!.url, { lockTimeoutMs: 200 });
    others.push(impatient);
    const company = await store!.companies.create({ name: 'A', timezone: 'UTC' }, '2026-11-25T08:00:00.000Z');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const holder = store!.transaction(async (tx) => {
      await tx.orders.findByExternalId(company.id, 'E');
      locked();
      await held;
      return tx.orders.insert(company.id, 'E', orderFields(), '2026-11-25T08:00:00.000Z');
    });
    await lockTaken;
    const waiter = impatient.transaction(async (tx) => {
      if (!(await tx.orders.findByExternalId(company.id, 'E'))) await tx.orders.insert(company.id, 'E', orderFields(), '2026-11-25T08:00:00.000Z');
    });
    const error = await waiter.then(() => undefined, (e: unknown) => e);
    release();
    await holder;
    expect((error as { code?: string }).code).toBe('55P03');
    expect(isTransientPgError(error)).toBe(true);
    expect(isTransientPgError(new Error('duplicate key'))).toBe(false);
    expect((await store!.orders.findByExternalIds(company.id, ['E'])).get('E')).toHaveLength(1);
  });

  it('BIGINT columns come back as numbers; text compares byte by byte whatever the database collation', async () => {
    await database!.reset();
    const t = Date.parse('2026-11-25T08:00:00.000Z');
    await store!.outbox.add([{ id: 'd', subscriptionId: 2 ** 40, url: 'u', secret: 's', event: 'e', body: '{}', createdAt: t }]);
    const d = (await store!.outbox.get('d'))!;
    expect(d.subscriptionId).toBe(2 ** 40);
    expect(d.createdAt).toBe(t);
    expect(typeof d.nextAttemptAt).toBe('number');
    const collations = (await store!.pool.query(
      `SELECT DISTINCT collation_name FROM information_schema.columns WHERE table_schema = 'public' AND data_type = 'text' AND table_name <> 'schema_migrations'`,
    )).rows.map((r) => r.collation_name);
    expect(collations).toEqual(['C']);
  });

  it('two transactions looking external ids up one by one in opposite orders: PostgreSQL aborts one (40P01, transient, nothing written), the other commits', async () => {
    await database!.reset();
    const b = await PgStore.open(database!.url);
    others.push(b);
    const company = await store!.companies.create({ name: 'A', timezone: 'UTC' }, '2026-11-25T08:00:00.000Z');
    let arrived = 0;
    let bothHoldOne!: () => void;
    const barrier = new Promise<void>((r) => (bothHoldOne = r));
    const create = (st: PgStore, exts: string[]) =>
      st.transaction(async (tx) => {
        for (const [i, ext] of exts.entries()) {
          if (!(await tx.orders.findByExternalId(company.id, ext))) await tx.orders.insert(company.id, ext, orderFields(), '2026-11-25T08:00:00.000Z');
          if (i === 0 && ++arrived === 2) bothHoldOne();
          if (i === 0) await barrier;
        }
        return exts;
      });
    const outcomes = await Promise.allSettled([create(store!, ['E1', 'E2']), create(b, ['E2', 'E1'])]);
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0].reason.code).toBe('40P01');
    expect(isTransientPgError(rejected[0].reason)).toBe(true);
    const stored = await store!.orders.findByExternalIds(company.id, ['E1', 'E2']);
    expect(stored.get('E1')).toHaveLength(1);
    expect(stored.get('E2')).toHaveLength(1);
  });

  it('housekeeping: delivered webhooks and Idempotency-Keys older than the cut are removed in batches; close is idempotent', async () => {
    await database!.reset();
    const t = Date.parse('2026-11-25T08:00:00.000Z');
    await store!.outbox.add(['old1', 'old2', 'old3', 'new', 'pending'].map((id, i) => ({ id, subscriptionId: 1, url: 'u', secret: 's', event: 'e', body: '{}', createdAt: t + i })));
    for (const [id, at] of [['old1', t], ['old2', t + 1], ['old3', t + 2], ['new', t + 10_000]] as const) await store!.outbox.delivered(id, 1, at);
    expect(await store!.pruneDeliveredWebhooks(t + 5_000, 2)).toBe(2);
    expect(await store!.pruneDeliveredWebhooks(t + 5_000, 2)).toBe(1);
    expect(await store!.pruneDeliveredWebhooks(t + 5_000, 2)).toBe(0);
    expect((await store!.outbox.list()).map((d) => d.id)).toEqual(['new', 'pending']);

    const company = await store!.companies.create({ name: 'A', timezone: 'UTC' }, '2026-11-25T08:00:00.000Z');
    const input = { order_ids: [], vehicle_ids: [], warehouse_id: null };
    await store!.planning.createJob(company.id, input, '2026-11-24T08:00:00.000Z', undefined, { key: 'old', fingerprint: 'f' });
    await store!.planning.createJob(company.id, input, '2026-11-25T08:00:00.000Z', undefined, { key: 'new', fingerprint: 'f' });
    expect(await store!.pruneIdempotencyKeys('2026-11-25T00:00:00.000Z')).toBe(1);
    expect(await store!.planning.findIdempotent(company.id, 'old', '2026-01-01T00:00:00.000Z')).toBeUndefined();
    expect(await store!.planning.findIdempotent(company.id, 'new', '2026-01-01T00:00:00.000Z')).toMatchObject({ fingerprint: 'f' });

    const spare = await PgStore.open(database!.url);
    await spare.close();
    await spare.close();
  });

  it('isPostgresUrl tells a --db URL from a SQLite path', () => {
    expect(isPostgresUrl('postgres://postgres@127.0.0.1:5432/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u:p@host/db')).toBe(true);
    expect(isPostgresUrl('./data/planner.db')).toBe(false);
    expect(isPostgresUrl('/var/lib/postgres/planner.db')).toBe(false);
  });
});
