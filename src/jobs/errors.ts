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
 */
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
