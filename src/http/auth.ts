/**
 * `Authorization: Api-Key <key>`. Runs in onRequest, before the body is read: a request without
 * a valid key is refused before it costs anything. The key's company scopes every query; the
 * route's `config.scope` names the permission it needs (docs/contract/operations.md lists them).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StorePort } from '../store/port.js';
import type { ApiKey, Company, Scope } from '../store/types.js';
import { DETAIL, HttpError } from './errors.js';
import { throttledDetail, TokenBuckets } from './rate-limit.js';
import { markRefusal } from './metrics.js';

const MINUTE_MS = 60_000;

function unauthenticatedThrottle(waitMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new HttpError(429, { detail: throttledDetail(seconds) }, { 'retry-after': String(seconds) });
}

export interface AuthContext {
  key: ApiKey;
  company: Company;
}

/** Per-route config: `scope` is the permission needed; 'authenticated' needs only a valid key. */
export interface RouteAuthConfig {
  scope?: Scope | 'authenticated';
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    scope?: Scope | 'authenticated';
  }
}

const CHALLENGE = { 'www-authenticate': 'Api-Key' };

export async function authenticate(store: StorePort, header: string | undefined): Promise<AuthContext> {
  if (header === undefined || header.trim() === '') throw new HttpError(401, { detail: DETAIL.noCredentials }, CHALLENGE);
  const m = /^\s*api-key\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new HttpError(401, { detail: DETAIL.badScheme }, CHALLENGE);
  const key = await store.apiKeys.authenticate(m[1]!);
  const company = key && (await store.companies.get(key.company_id));
  if (!key || !company) throw new HttpError(401, { detail: DETAIL.invalidKey }, CHALLENGE);
  return { key, company };
}

/** Requests without a valid key one client address may make a minute (docs/contract/operations.md, "Quotas"). */
export const DEFAULT_UNAUTHENTICATED_PER_MINUTE = 120;

export function registerAuth(app: FastifyInstance, store: StorePort, options: { unauthenticatedPerMinute?: number } = {}): void {
  app.decorateRequest('auth', null);
  // A coarse bucket per client address for requests with no key or a bad one (docs/contract/operations.md,
  // "Quotas and outbound rules"): each 401 takes a token, and an address whose bucket is empty is
  // refused (429) before its key is even looked up, so keys cannot be tried at the speed of the
  // network. Requests with a valid key take nothing from it.
  const perMinute = options.unauthenticatedPerMinute ?? DEFAULT_UNAUTHENTICATED_PER_MINUTE;
  const failures = new TokenBuckets();
  // 401 first (no body read), then the request limit counts the key (rate-limit.ts, a route-level
  // onRequest hook, so after this one), then the scope: a 403 is an answer to a valid key too.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config?.scope === undefined) return;
    if (perMinute <= 0) {
      request.auth = await authenticate(store, request.headers.authorization);
      return;
    }
    const address = `addr:${request.ip}`;
    const left = failures.peek(address, MINUTE_MS, perMinute);
    if (left.tokens < 1) {
      markRefusal(request, 'address');
      throw unauthenticatedThrottle(left.waitMs);
    }
    try {
      request.auth = await authenticate(store, request.headers.authorization);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 401) failures.take(address, MINUTE_MS, perMinute);
      throw error;
    }
  });
  app.addHook('preParsing', async (request: FastifyRequest, _reply, payload) => {
    const scope = request.routeOptions.config?.scope;
    if (request.auth && scope !== undefined && scope !== 'authenticated' && !request.auth.key.scopes.includes(scope)) {
      throw new HttpError(403, { detail: DETAIL.forbidden(scope) });
    }
    return payload;
  });
}

/** The authenticated context of a route that declared a scope. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route without a scope asked for the auth context');
  return request.auth;
}
