/**
 * The storage port contract (contract.ts) on SQLite, the reference the PostgreSQL adapter
 * mirrors: the suite's expectations are the SQLite repositories' own answers.
 *
 * The adapter here is a stand-in for the service's SQLite port (being written beside this, in the
 * conversion of the services to the asynchronous port): each repository's methods wrapped in
 * promises, and a transaction as BEGIN IMMEDIATE ... COMMIT on the one connection (the repositories'
 * own transactions nest as savepoints). When `SqliteStorePort` lands, this file runs the suite on it
 * instead. No second store: the cross-process part is PostgreSQL's (SQLite's is tested with real
 * processes in the lease tests).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqlitePlanningStore } from '../../src/store/planning.js';
import type { Async, Repositories, StorePort } from '../../src/store/port.js';
import { Store } from '../../src/store/store.js';
import { SqliteWebhookOutbox } from '../../src/webhooks/outbox.js';
import { describeStoreContract } from './contract.js';

function promised<T extends object>(target: T): Async<T> {
  return new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop) as unknown;
      return typeof value === 'function' ? async (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(t, args) : value;
    },
  }) as unknown as Async<T>;
}

function sqlitePort(store: Store): StorePort {
  const repos: Repositories = {
    companies: promised(store.companies),
    apiKeys: promised(store.apiKeys),
    warehouses: promised(store.warehouses),
    vehicles: promised(store.vehicles),
    orders: promised(store.orders),
    geocodeQueue: promised(store.geocodeQueue),
    webhooks: promised(store.webhooks),
    routes: promised(store.routes),
    outbox: promised(new SqliteWebhookOutbox(store.db)),
  };
  return {
    kind: 'sqlite',
    ...repos,
    planning: new SqlitePlanningStore(store.db),
    async transaction(fn) {
      store.db.exec('BEGIN IMMEDIATE');
      try {
        const value = await fn(repos);
        store.db.exec('COMMIT');
        return value;
      } catch (error) {
        if (store.db.inTransaction) store.db.exec('ROLLBACK');
        throw error;
      }
    },
    async close() {
      store.close();
    },
  };
}

const opened: Array<{ dir: string; store: Store }> = [];
afterAll(() => {
  for (const { dir, store } of opened) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describeStoreContract('SQLite (reference)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dp-contract-'));
  const store = Store.open(join(dir, 'planner.db'));
  opened.push({ dir, store });
  return { store: sqlitePort(store) };
});
