/**
 * Quotas per company (docs/contract/operations.md, "Quotas and outbound rules"; issue 38): what one tenant may
 * hold or send, so that one leaked key or one runaway integration cannot fill the store for
 * everyone. Over a quota the HTTP layer answers 429 `{"detail"}` naming it (errors.ts).
 */
export interface Quotas {
  /** Orders in status new or in_route one company may hold (`--max-open-orders`). */
  maxOpenOrders: number;
  /** Positions one vehicle may send in a minute (`--max-positions-per-minute`). */
  maxPositionsPerMinute: number;
}

export const DEFAULT_QUOTAS: Quotas = { maxOpenOrders: 100_000, maxPositionsPerMinute: 60 };

export class QuotaError extends Error {
  constructor(
    /** The quota's name: the `limit` label of planner_rate_limited_total. */
    readonly quota: 'open_orders' | 'positions_per_minute',
    detail: string,
  ) {
    super(detail);
  }
}

export const openOrdersExceeded = (max: number) =>
  new QuotaError('open_orders', `Open orders quota exceeded: a company may hold at most ${max} orders in status new or in_route. Cancel or plan some first.`);

export const positionsExceeded = (max: number) =>
  new QuotaError('positions_per_minute', `Positions quota exceeded: a vehicle may send at most ${max} positions a minute. Send fewer, or batch them less often.`);
