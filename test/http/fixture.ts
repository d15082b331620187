import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type AppOptions } from '../../src/http/app.js';
import { Store } from '../../src/store/store.js';
import { SCOPES, type Scope } from '../../src/store/types.js';
import { checkInject } from '../helpers/openapi-conformance.js';

export const BASE = '/api/public/v1';

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
  const auth = (k = key) => ({ authorization: `Api-Key ${k}` });
  // every answer is checked against the OpenAPI document (test/helpers/openapi-conformance.ts)
  const inject = async (method: string, url: string, body?: unknown, k: string = key) => {
    const full = url.startsWith('/api') ? url : BASE + url;
    const res = await app.inject({
      method: method as 'GET',
      url: full,
      headers: { ...auth(k), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    if (options.conformance !== false) checkInject(method, full, res, typeof body === 'string' ? undefined : body);
    return res;
  };
  const close = async () => {
    await app.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { app, store, company, other, key, otherKey, keyWith, auth, inject, close, dir };
}
