/**
 * Planning jobs (public-api.md 2.2, 4.6, 4.7, 7.5; scope planning:write), under /api/public/v1.
 *
 * The body is checked strictly before the job service sees it: not an object, unknown fields and
 * wrong types are 400 with `{detail, <field>: [messages]}` (both forms, so a client reading either
 * finds the reason). The references are then validated all-or-nothing by the job service, whose
 * contract texts (7.5) come back as 400 `{detail}`.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { BODY_LIMITS, JSON_VALUES } from './limits.js';
import { PlanningInputError, JobServiceClosedError } from '../jobs/errors.js';
import { IdempotencyKeyReusedError, TooManyJobsError } from '../jobs/ports.js';
import type { PlanningRequest } from '../jobs/request.js';
import type { JobService } from '../jobs/service.js';
import { toJobView, type JobView } from '../jobs/view.js';
import type { StorePort } from '../store/port.js';
import { SqlitePlanningStore } from '../store/sqlite/planning.js';
import { authOf } from './auth.js';
import { HttpError, notFound } from './errors.js';
import { describeJsonType, MESSAGES } from '../contract/order.js';
import { methodNotAllowed, queryOf } from './request.js';
import { idParam } from './route-routes.js';

/** Longest id list accepted in one field (far above the 500-order limit; keeps queries bounded). */
export const MAX_LIST = 10_000;
const FIELDS = ['order_ids', 'external_ids', 'vehicle_ids', 'warehouse_id'] as const;

export const PLANNING_MESSAGES = {
  body: (got: string) => `Invalid data. Expected a JSON object with order_ids and/or external_ids, but got ${got}.`,
  unknown: 'Unknown field.',
  integerList: 'Expected a list of integers.',
  stringList: 'Expected a list of strings.',
  integer: 'A valid integer is required.',
  tooLong: `Ensure this list has no more than ${MAX_LIST} items.`,
  externalIdLength: 'Ensure every external_id has no more than 128 characters.',
  unavailable: 'Planning is not available on this server.',
} as const;

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

/** The body of POST /planning/jobs/, or HttpError 400. */
export function parsePlanningBody(body: unknown): PlanningRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, { detail: PLANNING_MESSAGES.body(body === undefined ? 'an empty body' : describeJsonType(body)) });
  }
  const input = body as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  for (const key of Object.keys(input)) {
    if (!(FIELDS as readonly string[]).includes(key)) errors[key] = [PLANNING_MESSAGES.unknown];
  }
  const out: PlanningRequest = {};
  const list = (name: 'order_ids' | 'external_ids' | 'vehicle_ids', kind: 'integer' | 'string') => {
    const value = input[name];
    if (value === undefined || value === null) return undefined; // null: not given
    const expected = kind === 'integer' ? PLANNING_MESSAGES.integerList : PLANNING_MESSAGES.stringList;
    if (!Array.isArray(value)) {
      errors[name] = [`${expected} Got ${describeJsonType(value)}.`];
      return undefined;
    }
    if (value.length > MAX_LIST) {
      errors[name] = [PLANNING_MESSAGES.tooLong];
      return undefined;
    }
    const bad = value.findIndex((v) => (kind === 'integer' ? !Number.isSafeInteger(v) : typeof v !== 'string'));
    if (bad >= 0) {
      errors[name] = [`${expected} Item ${bad} is ${describeItem(value[bad])}.`];
      return undefined;
    }
    if (kind === 'string' && value.some((v: string) => v.length > 128)) {
      errors[name] = [PLANNING_MESSAGES.externalIdLength];
      return undefined;
    }
    if (kind === 'string' && value.some((v: string) => v.includes('\u0000'))) {
      errors[name] = [MESSAGES.nullCharacters];
      return undefined;
    }
    return value;
  };
  const orderIds = list('order_ids', 'integer');
  const externalIds = list('external_ids', 'string');
  const vehicleIds = list('vehicle_ids', 'integer');
  if (orderIds !== undefined) out.order_ids = orderIds as number[];
  if (externalIds !== undefined) out.external_ids = externalIds as string[];
  if (vehicleIds !== undefined) out.vehicle_ids = vehicleIds as number[];
  const warehouse = input.warehouse_id;
  if (warehouse !== undefined && warehouse !== null) {
    if (!Number.isSafeInteger(warehouse)) errors.warehouse_id = [`${PLANNING_MESSAGES.integer} Got ${describeItem(warehouse)}.`];
    else out.warehouse_id = warehouse as number;
  }
  const fields = Object.keys(errors);
  if (fields.length > 0) {
    throw new HttpError(400, { detail: `Invalid planning request: ${fields.map((f) => `${f}: ${errors[f]!.join(' ')}`).join('; ')}`, ...errors });
  }
  return out;
}

function describeItem(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number') return `the number ${value}`;
  return describeJsonType(value);
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
