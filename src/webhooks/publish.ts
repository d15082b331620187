/**
 * Turning an event into webhook deliveries: one per subscription of the company that asked for the
 * event, each with its own id (the `X-Planner-Delivery-Id` of every try) and its body fixed now, so
 * every try sends the same bytes. The caller writes them into the outbox inside the transaction
 * that makes the change (`publishIn`), so a change and its webhooks commit together or not at all.
 */
import { randomUUID } from 'node:crypto';
import type { NewDelivery, WebhookEvent } from '../store/types.js';

export interface Subscription {
  id: number;
  url: string;
  secret: string;
}

export function deliveriesFor(subscriptions: readonly Subscription[], event: string, data: unknown, now: number): NewDelivery[] {
  const createdAt = new Date(now).toISOString();
  return subscriptions.map((s) => {
    const id = randomUUID();
    const body = JSON.stringify({ id, event, created_at: createdAt, data });
    return { id, subscriptionId: s.id, url: s.url, secret: s.secret, event, body, createdAt: now };
  });
}

/** What publishIn needs of a transaction: the subscriptions and the outbox. */
export interface PublishTarget {
  webhooks: { forEvent(companyId: number, event: WebhookEvent): Promise<Subscription[]> | Subscription[] };
  outbox: { add(deliveries: NewDelivery[]): Promise<void> | void };
}

/** Writes the deliveries of one event through `tx` (a transaction's repositories); their ids. */
export async function publishIn(
  tx: PublishTarget,
  companyId: number,
  event: WebhookEvent,
  data: unknown,
  now = Date.now(),
): Promise<string[]> {
  const deliveries = deliveriesFor(await tx.webhooks.forEvent(companyId, event), event, data, now);
  if (deliveries.length > 0) await tx.outbox.add(deliveries);
  return deliveries.map((d) => d.id);
}
