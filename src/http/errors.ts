/**
 * The one place where failures become HTTP answers. Handlers throw `HttpError` (or return a
 * body themselves); everything fastify raises (bad JSON, body too large, bad URL) is mapped to a
 * 4xx with `{detail}`; anything else is a 500 with a neutral text, logged with its stack.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { QuotaError } from '../service/quota.js';
import { markRefusal } from './metrics.js';
import { isTransientPgError } from '../store/postgres/db.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}

export const DETAIL = {
  notFound: 'Not found.',
  badUrl: 'Malformed URL: the path is not valid percent-encoding.',
  noCredentials: 'Authentication credentials were not provided.',
  badScheme: 'Invalid Authorization header. Expected "Api-Key <key>".',
  invalidKey: 'Invalid or revoked API key.',
  forbidden: (scope: string) => `You do not have permission to perform this action (requires scope ${scope}).`,
  methodNotAllowed: (method: string) => `Method "${method}" not allowed.`,
  notUpdatable: 'Order can no longer be updated because it has been dispatched.',
  notCancellable: 'Order can no longer be cancelled because it has been dispatched.',
  alreadyCancelled: 'Order can no longer be cancelled because it is already archived.',
  noMutableFields: 'No mutable fields were supplied.',
  bulkNotList: 'The body must be a non-empty list of orders.',
  bulkTooMany: (n: number | string) => `A bulk request may hold at most 500 orders (got ${n}).`,
  internal: 'Internal server error.',
} as const;

export const notFound = () => new HttpError(404, { detail: DETAIL.notFound });

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if ((error as unknown) instanceof QuotaError) {
    const quota = error as unknown as QuotaError;
    markRefusal(request, quota.quota);
    // a minute: the positions window; open orders free up as they are planned or cancelled
    reply.code(429).header('retry-after', '60').send({ detail: quota.message });
    return;
  }
  if (error instanceof HttpError) {
    reply.code(error.statusCode).headers(error.headers).send(error.body);
    return;
  }
  const code = (error as { code?: string }).code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || isTransientPgError(error)) {
    // another process held the write lock longer than busy_timeout (SQLite), or PostgreSQL gave up
    // a lock wait, broke a deadlock or lost its connection: nothing was written
    request.log.warn({ err: error }, 'database busy');
    reply.code(503).header('retry-after', '1').send({ detail: 'The database is busy; nothing was changed. Retry shortly.' });
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    let detail = error.message;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') detail = 'Request body is too large.';
    else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') detail = 'Unsupported media type; send application/json.';
    reply.code(status).send({ detail });
    return;
  }
  request.log.error({ err: error }, 'unhandled error');
  reply.code(500).send({ detail: DETAIL.internal });
}
