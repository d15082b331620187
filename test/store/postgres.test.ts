/** The storage port contract (contract.ts) on PgStore, the real PostgreSQL server. */
import { afterAll, beforeAll, describe } from 'vitest';
import { PgStore } from '../../src/store/postgres/index.js';
import { createTestDatabase, postgres, type TestDatabase } from '../helpers/postgres.js';
import { describeStoreContract } from './contract.js';

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
