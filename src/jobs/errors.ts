/**
 * Why a planning job is refused at submit time (section 7.5). `detail` is the contract's exact
 * text; the HTTP layer answers 400 `{detail}`. All problems of one request are collected in
 * `problems`, too many orders first (a selection of 501 is refused for its size whether or not its
 * ids exist), then in the order below; `detail` is the first one's text. The size counts the
 * resolved orders plus each order id and external_id that resolves to none.
 *
 * Formatting of the varying parts (decided here, documented in the README):
 * - ids: distinct, ascending, comma and space separated: `[3, 7]`.
 * - external_ids: distinct, in request order, each as a JSON string: `["A-1", "B \"2\""]`.
 * - counts and a single id: plain decimal integers.
 *
 * And why a job that ran failed: `describeFailure` gives the readable text of its `error`.
 */
import { PoolTaskError } from '../pool/pool.js';
import { OrdersChangedError, OrdersNotNewError, VehicleBusyError } from './ports.js';

export type PlanningProblem =
  | { kind: 'empty_selection' }
  | { kind: 'orders_not_found'; ids: number[] }
  | { kind: 'external_ids_not_found'; externalIds: string[] }
  | { kind: 'too_many_orders'; count: number }
  | { kind: 'vehicles_not_found'; ids: number[] }
  | { kind: 'warehouse_not_found'; id: number };

export function problemDetail(p: PlanningProblem): string {
  switch (p.kind) {
    case 'empty_selection':
      return 'The order selection is empty.';
    case 'orders_not_found':
      return `Orders not found for this tenant: [${p.ids.join(', ')}].`;
    case 'external_ids_not_found':
      return `Orders not found for external_ids: [${p.externalIds.map((x) => JSON.stringify(x)).join(', ')}].`;
    case 'too_many_orders':
      return `A planning job may select at most ${MAX_ORDERS_PER_JOB} orders (got ${p.count}).`;
    case 'vehicles_not_found':
      return `Vehicles not found or inactive for this tenant: [${p.ids.join(', ')}].`;
    case 'warehouse_not_found':
      return `Warehouse not found for this tenant: ${p.id}.`;
  }
}

export const MAX_ORDERS_PER_JOB = 500;

/** A planning start request that creates no job (all-or-nothing validation). */
export class PlanningInputError extends Error {
  override readonly name = 'PlanningInputError';
  /** The contract's text for the first problem: the `{detail}` of the 400 answer. */
  readonly detail: string;

  constructor(readonly problems: PlanningProblem[]) {
    const detail = problemDetail(problems[0]);
    super(detail);
    this.detail = detail;
  }
}

/** The job service has been closed. */
export class JobServiceClosedError extends Error {
  override readonly name = 'JobServiceClosedError';
  constructor() {
    super('The planning job service is shut down.');
  }
}

/** A job failure with the text that goes into the job's `error`. */
export class JobFailure extends Error {}

/** The readable text of a failed job's `error` (internal details go to the log, not here). */
export function describeFailure(error: unknown): string {
  if (error instanceof JobFailure) return error.message;
  if (error instanceof OrdersNotNewError) {
    const list = error.orders.map((o) => `${o.id} (${o.status})`).join(', ');
    return `Only orders in status new can be planned; these are not (already in a route or closed): ${list}. Nothing was planned.`;
  }
  if (error instanceof VehicleBusyError) return 'Other planning jobs kept taking the vehicles of this job; nothing was planned. Start the job again.';
  if (error instanceof OrdersChangedError) {
    return `Orders kept changing while they were being planned: ${error.orderIds.join(', ')}. Nothing was planned. Start the job again.`;
  }
  if (error instanceof PoolTaskError) {
    switch (error.kind) {
      case 'aborted':
        return `The planning was stopped. Nothing was planned.`;
      case 'out_of_memory':
        return 'The planning worker ran out of memory and was stopped. Nothing was planned; try fewer orders per job.';
      case 'crashed':
        return `The planning worker crashed (${error.message}). Nothing was planned.`;
      case 'failed':
        return `The planning failed: ${error.message}. Nothing was planned.`;
    }
  }
  return `The planning failed: ${(error as Error)?.message ?? String(error)}. Nothing was planned.`;
}
