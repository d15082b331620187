/**
 * Planning jobs (docs/contract/public-api.md 2.2, 4.6, 4.7, 7.5; scope planning:write), under /api/public/v1.
 *
 * The body is checked strictly before the job service sees it, by its one schema
 * (src/contract/planning.ts): not an object, unknown fields and wrong types are 400 with
 * `{detail, <field>: [messages]}` (both forms, so a client reading either finds the reason). The references are then validated all-or-nothing by the job service, whose
 * contract texts (7.5) come back as 400 `{detail}`.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { BODY_LIMITS, JSON_VALUES } from './limits.js';
import { PlanningInputError, JobServiceClosedError } from '../jobs/errors.js';
import { IdempotencyKeyReusedError, TooManyJobsError } from '../jobs/ports.js';
import { parsePlanningRequest, PLANNING_MESSAGES, type PlanningRequest } from '../contract/planning.js';
import type { JobService } from '../jobs/service.js';
import { toJobView, type JobView } from '../jobs/view.js';
import type { StorePort } from '../store/port.js';
import { authOf } from './auth.js';
import { HttpError, notFound } from './errors.js';
import { methodNotAllowed, queryOf } from './request.js';
import { idParam } from './route-routes.js';

export const IDEMPOTENCY_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once.';

/** The Idempotency-Key header: undefined when absent, HttpError 400 when malformed. */
export function idempotencyKeyOf(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 255 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new HttpError(400, { detail: IDEMPOTENCY_KEY_MESSAGE });
  }
  return value;
}

/** The request as parsed (field order and spelling of numbers do not matter), hashed. */
function fingerprint(body: PlanningRequest): string {
  const canonical = JSON.stringify(
    Object.keys(body)
      .sort()
      .map((k) => [k, body[k as keyof PlanningRequest]]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** The body of POST /planning/jobs/ (src/contract/planning.ts), or HttpError 400. */
export function parsePlanningBody(body: unknown): PlanningRequest {
  const parsed = parsePlanningRequest(body);
  if (!parsed.ok) throw new HttpError(400, { detail: parsed.detail, ...parsed.errors });
  return parsed.value;
}

export function registerPlanningRoutes(app: FastifyInstance, options: { store: StorePort; jobs?: JobService }): void {
  const write = { scope: 'planning:write' as const };

  app.post('/planning/jobs/', { config: { ...write, json: { maxValues: JSON_VALUES.planning } }, bodyLimit: BODY_LIMITS.planning }, async (request, reply) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const body = parsePlanningBody(request.body);
    if (!options.jobs) throw new HttpError(503, { detail: PLANNING_MESSAGES.unavailable });
    const key = idempotencyKeyOf(request.headers['idempotency-key']);
    let job: JobView;
    let replayed = false;
    try {
      if (key === undefined) job = await options.jobs.submit(company.id, body);
      else ({ job, replayed } = await options.jobs.submitOnce(company.id, body, { key, fingerprint: fingerprint(body) }));
    } catch (error) {
      if (error instanceof PlanningInputError) throw new HttpError(400, { detail: error.detail });
      if (error instanceof JobServiceClosedError) throw new HttpError(503, { detail: error.message });
      if (error instanceof TooManyJobsError) throw new HttpError(429, { detail: error.message });
      if (error instanceof IdempotencyKeyReusedError) throw new HttpError(409, { detail: error.message });
      throw error;
    }
    // a replay is the first job as it is now: 200, not a new acceptance
    reply.code(replayed ? 200 : 202);
    return job;
  });
  methodNotAllowed(app, '/planning/jobs/', ['POST']);

  app.get('/planning/jobs/:id/', { config: write }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const id = idParam(request);
    const record = options.jobs ? undefined : await options.store.planning.getJob(company.id, id);
    const job = options.jobs ? await options.jobs.get(company.id, id) : record && toJobView(record);
    if (!job) throw notFound();
    return job;
  });
  methodNotAllowed(app, '/planning/jobs/:id/', ['GET']);
}
