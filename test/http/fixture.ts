import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { buildApp, type AppOptions } from '../../src/http/app.js';
import type { StorePort } from '../../src/store/port.js';
import { PgStore } from '../../src/store/postgres/store.js';
import { portOf } from '../../src/store/sqlite/port.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { Store } from '../../src/store/sqlite/store.js';
import { SCOPES, type Scope } from '../../src/store/types.js';
import { checkInject } from '../helpers/openapi-conformance.js';

export const BASE = '/api/public/v1';

/**
 * `inject(method, url, body?, key?)` with the key's header; every answer is checked against the
 * OpenAPI document (test/helpers/openapi-conformance.ts) unless `conformance` is false.
 */
function injector(app: ReturnType<typeof buildApp>, key: string, conformance: boolean) {
  const auth = (k = key) => ({ authorization: `Api-Key ${k}` });
  const inject = async (method: string, url: string, body?: unknown, k: string = key) => {
    const full = url.startsWith('/api') ? url : BASE + url;
    const res = await app.inject({
      method: method as 'GET',
      url: full,
      headers: { ...auth(k), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    if (conformance) checkInject(method, full, res, typeof body === 'string' ? undefined : body);
    return res;
  };
  return { auth, inject };
}

/**
 * A real app on a real SQLite file in a temp dir, one company and a key with every scope. The
 * request limit is off unless `rateLimit` is given: these suites send thousands of requests with
 * one key (test/http/rate-limit.test.ts holds the limit itself).
 */
export function makeApp(options: Partial<AppOptions> & { timezone?: string; conformance?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'dp-http-'));
  const store = Store.open(join(dir, 'test.db'));
  const now = new Date().toISOString();
  const company = store.companies.create({ name: 'Acme', timezone: options.timezone ?? 'UTC' }, now);
  const other = store.companies.create({ name: 'Other', timezone: 'UTC' }, now);
  const key = store.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now).key;
  const otherKey = store.apiKeys.create({ company_id: other.id, scopes: [...SCOPES] }, now).key;
  const app = buildApp({ store, rateLimit: 0, ...options });
  const keyWith = (scopes: Scope[]) => store.apiKeys.create({ company_id: company.id, scopes }, now).key;
  const { auth, inject } = injector(app, key, options.conformance !== false);
  const close = async () => {
    // a test that listened and left answers unread holds busy keep-alive connections, which a
    // closing server waits for (a hook timed out on Node 24 in CI): cut them
    app.server.closeAllConnections();
    await app.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { app, store, company, other, key, otherKey, keyWith, auth, inject, close, dir };
}

/** One PostgreSQL database per test file, emptied for each app (created on first use). */
let pgDatabase: Promise<TestDatabase> | undefined;
afterAll(async () => {
  if (pgDatabase) await (await pgDatabase).drop();
});

/**
 * `makeApp` on either store, through the storage port: SQLite (a temp file) or PostgreSQL (this
 * file's database, emptied first). `port` is the store the app uses.
 */
export async function makeAppOn(kind: 'sqlite' | 'postgres', options: Partial<AppOptions> & { timezone?: string } = {}) {
  let port: StorePort;
  let drop = async () => {};
  /** Another store on the same database (a restarted process); the caller closes it. */
  let reopen: () => Promise<StorePort>;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'dp-http-'));
    port = portOf(Store.open(join(dir, 'test.db')));
    drop = async () => rmSync(dir, { recursive: true, force: true });
    reopen = async () => portOf(Store.open(join(dir, 'test.db')));
  } else {
    pgDatabase ??= createTestDatabase();
    const database = await pgDatabase;
    port = await PgStore.open(database.url);
    await database.reset();
    reopen = () => PgStore.open(database.url);
  }
  const now = new Date().toISOString();
  const { company, other, key, otherKey } = await port.transaction(async (tx) => {
    const company = await tx.companies.create({ name: 'Acme', timezone: options.timezone ?? 'UTC' }, now);
    const other = await tx.companies.create({ name: 'Other', timezone: 'UTC' }, now);
    const key = (await tx.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now)).key;
    const otherKey = (await tx.apiKeys.create({ company_id: other.id, scopes: [...SCOPES] }, now)).key;
    return { company, other, key, otherKey };
  });
  const app = buildApp({ store: port, rateLimit: 0, ...options });
  const keyWith = async (scopes: Scope[]) => (await port.apiKeys.create({ company_id: company.id, scopes }, now)).key;
  const { auth, inject } = injector(app, key, true);
  const close = async () => {
    await app.close();
    await port.close();
    await drop();
  };
  return { app, port, company, other, key, otherKey, keyWith, auth, inject, close, reopen };
}
