/**
 * Quotas per company (docs/contract/operations.md, "Quotas and outbound rules"; issue 38): what one tenant may
 * hold or send, so that one leaked key or one runaway integration cannot fill the store for
 * everyone. Over a quota the HTTP layer answers 429 `{"detail"}` naming it (errors.ts).
 */
import type { OutboxQuota } from '../store/types.js';
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

/**
 * The outbox's pending-deliveries quota for a process (`--max-pending-deliveries`): a dropped
 * delivery counts in planner_webhook_deliveries_dropped_total and is logged, at most once a minute
 * per subscription (a subscription at its cap drops every event of its company).
 */
export function pendingDeliveriesQuota(
  maxPending: number,
  report: { metrics?: { webhookDropped: { inc(labels: { event: string }, n?: number): void } }; warn?: (obj: object, msg: string) => void; now?: () => number } = {},
): OutboxQuota {
  const lastLogged = new Map<number, number>();
  const now = report.now ?? Date.now;
  return {
    maxPending,
    onDropped(subscriptionId, event, count) {
      report.metrics?.webhookDropped.inc({ event }, count);
      const at = now();
      if ((lastLogged.get(subscriptionId) ?? -Infinity) > at - 60_000) return;
      lastLogged.set(subscriptionId, at);
      report.warn?.(
        { subscription_id: subscriptionId, event, max_pending_deliveries: maxPending },
        'webhook delivery dropped: the subscription holds its pending-deliveries quota (its receiver has not taken them); logged once a minute per subscription',
      );
    },
  };
}
