/**
 * `delivery-planner/client`: a typed client of both APIs (public and dispatch), openapi-fetch over
 * the types generated from the OpenAPI document (src/client/api-types.ts, `npm run openapi`).
 * Loads nothing of the server (no fastify, no SQLite).
 *
 * ```ts
 * const api = createPlannerClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'dpk_...' });
 * const { data, error, response } = await api.POST('/api/public/v1/orders/', { body: { address: 'Unter den Linden 1, Berlin' } });
 * ```
 * Each call answers `{ data }` on a 2xx (typed per status: `response.status` tells 200 from 201)
 * or `{ error }` otherwise (the documented error bodies: `{detail}` or field errors).
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './client/api-types.js';

export type { components, operations, paths };
export type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type OrderInput = Schemas['OrderInput'];
export type OrderPatch = Schemas['OrderPatch'];
export type BulkResult = Schemas['BulkResult'];
export type OrderHistory = Schemas['OrderHistory'];
export type PlanningJob = Schemas['PlanningJob'];
export type PlanningJobRequest = Schemas['PlanningJobRequest'];
export type PlanningJobResult = Schemas['PlanningJobResult'];
export type RouteListItem = Schemas['RouteListItem'];
export type Route = Schemas['Route'];
export type Stop = Schemas['Stop'];
export type Tracking = Schemas['Tracking'];
export type Detail = Schemas['Detail'];
export type FieldErrors = Schemas['FieldErrors'];

export type PlannerClient = Client<paths>;

export interface PlannerClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** Where the service listens, e.g. `http://127.0.0.1:8080` (the paths carry /api/public/v1 and /api/internal/v1). */
  baseUrl: string;
  /** The API key; sent as `Authorization: Api-Key <key>`. */
  apiKey: string;
  /** More headers for every request. */
  headers?: Record<string, string>;
}

/** A client of both APIs that sends the key on every request. */
export function createPlannerClient(options: PlannerClientOptions): PlannerClient {
  const { apiKey, headers, baseUrl, ...rest } = options;
  return createClient<paths>({
    ...rest,
    baseUrl,
    headers: { ...headers, authorization: `Api-Key ${apiKey}` },
  });
}

/** True when a planning job's `result` holds the routes (status done), not `{}`. */
export function hasResult(job: PlanningJob): job is PlanningJob & { result: PlanningJobResult } {
  return 'route_ids' in job.result;
}
