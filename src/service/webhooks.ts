/**
 * Webhook delivery for the service: the WebhookDispatcher (src/webhooks) on the store's outbox.
 * Every event's deliveries are written inside the transaction of the change that causes it (the
 * order service's cancel and dispatch outcomes through `publishIn`, a plan's in_route changes and
 * `planning_job.finished` by the planning store), so a change and its webhooks commit together;
 * nothing is written after a commit. The bridge only wakes the loop when an event was written in
 * this process, and forwards the job layer's `order.status_changed` to ServiceEvents (one channel
 * for in-process listeners). Nothing here waits for a receiver: a slow or dead one holds one
 * dispatcher slot for at most the time-out.
 */
import type { EventBus } from '../jobs/events.js';
import type { StorePort } from '../store/port.js';
import type { WebhookEvent } from '../store/types.js';
import { WebhookDispatcher, defaultRetryDelaysMs } from '../webhooks/dispatcher.js';
import type { ServiceEvents } from './events.js';
import { redactUrl } from '../io/redact.js';
import type { PlannerMetrics } from './metrics.js';

export interface WebhookDeliveryOptions {
  /** A 2xx within this many ms delivers (default 10 000, docs/contract/operations.md). */
  timeoutMs?: number;
  /** Delays between tries (default: 10 delays over about 25.7 h). */
  retryDelaysMs?: readonly number[];
  /** How often the dispatcher looks at the outbox at the longest (ms). */
  pollMs?: number;
  /** How long a claimed delivery stays this process's without an outcome, ms (WebhookDispatcher). */
  leaseMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Counts every try by outcome (planner_webhook_deliveries_total). */
  metrics?: PlannerMetrics;
}

export function createWebhookDispatcher(store: StorePort, options: WebhookDeliveryOptions = {}): WebhookDispatcher {
  return new WebhookDispatcher({
    outbox: store.outbox,
    subscriptions: async (companyId, event) =>
      (await store.webhooks.forEvent(companyId, event as WebhookEvent)).map((s) => ({ id: s.id, url: s.url, secret: s.secret })),
    timeoutMs: options.timeoutMs ?? 10_000,
    retryDelaysMs: options.retryDelaysMs ?? defaultRetryDelaysMs,
    pollMs: options.pollMs,
    leaseMs: options.leaseMs,
    // the subscription's URL and secret as they are now: rotate-secret holds from the next try
    target: async (subscriptionId) => {
      const s = await store.webhooks.get(subscriptionId);
      return s && { url: s.url, secret: s.secret };
    },
    paused: () => store.webhooks.inactiveIds(),
    onTry: options.metrics ? (outcome) => options.metrics!.webhookDeliveries.inc({ outcome }) : undefined,
    onOutcome: async (subscriptionId, ok, at) => {
      if (await store.webhooks.recordOutcome(subscriptionId, ok, at)) {
        options.log?.warn({ subscription_id: subscriptionId }, 'webhook subscription paused: every delivery failed for 24 h (admin webhook enable resumes it)');
      }
    },
    onFault: (error) => options.log?.error({ err: error }, 'webhook outbox unavailable; backing off'),
    onError: (delivery, error) =>
      options.log?.warn({ delivery_id: delivery.id, event: delivery.event, url: redactUrl(delivery.url), attempts: delivery.attempts + 1, error }, 'webhook delivery failed'),
  });
}

export interface EventBridge {
  close(): void;
}

/** Wakes the dispatcher on every event of this process; forwards the job layer's order changes. */
export function bridgeEvents(options: { dispatcher: WebhookDispatcher; serviceEvents: ServiceEvents; bus?: EventBus }): EventBridge {
  const { dispatcher, serviceEvents, bus } = options;
  const kick = () => dispatcher.kick();
  serviceEvents.on('order.status_changed', kick);
  const offs: Array<() => void> = [];
  if (bus) {
    offs.push(bus.on('planning_job.finished', kick));
    offs.push(bus.on('order.status_changed', (e) => serviceEvents.emit('order.status_changed', { company_id: e.companyId, ...e.data })));
  }
  return {
    close() {
      serviceEvents.off('order.status_changed', kick);
      for (const off of offs) off();
    },
  };
}
