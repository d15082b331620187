import type { PageView } from '../contract/wire.js';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import { DETAIL, HttpError } from './errors.js';
import { MESSAGES } from '../contract/order.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The request's query parameters, refusing any not in `allowed`, any given twice, and any holding
 * U+0000 (which PostgreSQL text cannot hold: both stores answer alike): no parameter is silently
 * ignored. 400 `{param: [message]}`.
 */
export function queryOf(request: FastifyRequest, allowed: readonly string[]): Record<string, string | undefined> {
  const query = (request.query ?? {}) as Record<string, string | string[]>;
  const errors: Record<string, string[]> = {};
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!allowed.includes(key)) errors[key] = ['Unknown query parameter.'];
    else if (Array.isArray(value)) errors[key] = ['Only one value is allowed.'];
    else if (value.includes('\u0000')) errors[key] = [MESSAGES.nullCharacters]; // PostgreSQL cannot compare with it
    else out[key] = value;
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return out;
}

/** Answers 405 with an Allow header for every method of `url` not in `allowed`. */
export function methodNotAllowed(app: FastifyInstance, url: string, allowed: HTTPMethods[]): void {
  const others = METHODS.filter((m) => !allowed.includes(m));
  app.route({
    method: others,
    url,
    config: { scope: 'authenticated' },
    handler: async (request) => {
      throw new HttpError(405, { detail: DETAIL.methodNotAllowed(request.method) }, { allow: allowed.join(', ') });
    },
  });
}

/** Lists are paginated alike (orders 4.3, routes 4.8): page from 1, page_size default 50, max 200. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

export interface PageRequest {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
}

function positiveInt(errors: Record<string, string[]>, name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\s*\d{1,9}\s*$/.test(raw) || Number(raw) < 1) {
    errors[name] = ['A valid positive integer is required.'];
    return fallback;
  }
  return Number(raw);
}

/** `page` and `page_size` of a list request; a bad value adds its message to `errors`. */
export function readPage(errors: Record<string, string[]>, query: Record<string, string | undefined>): PageRequest {
  const page = positiveInt(errors, 'page', query.page, 1);
  const pageSize = Math.min(positiveInt(errors, 'page_size', query.page_size, PAGE_SIZE_DEFAULT), PAGE_SIZE_MAX);
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

const PUBLIC_URL = Symbol('publicUrl');

/** The base of pagination links (`serve --public-url`), kept on the app; child contexts inherit it. */
export function setPublicUrl(app: FastifyInstance, url: string | undefined): void {
  let base = url ?? '';
  while (base.endsWith('/')) base = base.slice(0, -1);
  (app as unknown as Record<symbol, string>)[PUBLIC_URL] = base;
}

/**
 * The list answer `{count, next, previous, results}`, with links that keep the filters: built
 * from the public URL when one is set, relative otherwise, never from the Host header (a client
 * could name any host there and have our answer point at it);
 * a page past the last is 404 "Invalid page." (page 1 of an empty list is an empty page).
 */
export function pageAnswer<T>(
  request: FastifyRequest,
  path: string,
  filters: Record<string, string | undefined>,
  { page, pageSize }: PageRequest,
  count: number,
  results: T[],
): PageView<T> {
  const lastPage = Math.max(1, Math.ceil(count / pageSize));
  if (page > lastPage) throw new HttpError(404, { detail: 'Invalid page.' });
  const link = (p: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) if (value !== undefined) params.set(name, value);
    params.set('page', String(p));
    params.set('page_size', String(pageSize));
    const base = (request.server as unknown as Record<symbol, string | undefined>)[PUBLIC_URL] ?? '';
    return `${base}${path}?${params.toString()}`;
  };
  return {
    count,
    next: page < lastPage ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results,
  };
}
