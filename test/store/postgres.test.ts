/** The storage port contract (contract.ts) on PgStore, the real PostgreSQL server, and what is PostgreSQL's own. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  afterAll(async () => {
    for (const s of [store, ...others]) await s?.close();
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

  it('isPostgresUrl tells a --db URL from a SQLite path', () => {
    expect(isPostgresUrl('postgres://postgres@127.0.0.1:5432/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u:p@host/db')).toBe(true);
    expect(isPostgresUrl('./data/planner.db')).toBe(false);
    expect(isPostgresUrl('/var/lib/postgres/planner.db')).toBe(false);
  });
});
