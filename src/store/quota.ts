/** The pending-deliveries quota of the outbox, the same rule on every store (sqlite/outbox.ts, postgres/outbox.ts). */
import type { NewDelivery, OutboxQuota } from './types.js';

/**
 * The deliveries a subscription at its pending quota does not take, and those it does: each
 * subscription takes at most `maxPending - pending` of the batch (first come first kept).
 */
export function withinQuota(deliveries: NewDelivery[], pending: ReadonlyMap<number, number>, quota: OutboxQuota): { kept: NewDelivery[]; dropped: NewDelivery[] } {
  const room = new Map<number, number>();
  const kept: NewDelivery[] = [];
  const dropped: NewDelivery[] = [];
  for (const d of deliveries) {
    const left = room.get(d.subscriptionId) ?? quota.maxPending - (pending.get(d.subscriptionId) ?? 0);
    if (left > 0) kept.push(d);
    else dropped.push(d);
    room.set(d.subscriptionId, left - 1);
  }
  for (const d of dropped) quota.onDropped?.(d.subscriptionId, d.event, 1);
  return { kept, dropped };
}
