import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import { DETAIL, HttpError } from './errors.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The request's query parameters, refusing any not in `allowed` and any given twice: no
 * parameter is silently ignored. 400 `{param: [message]}`.
 */
export function queryOf(request: FastifyRequest, allowed: readonly string[]): Record<string, string | undefined> {
  const query = (request.query ?? {}) as Record<string, string | string[]>;
  const errors: Record<string, string[]> = {};
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!allowed.includes(key)) errors[key] = ['Unknown query parameter.'];
    else if (Array.isArray(value)) errors[key] = ['Only one value is allowed.'];
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
