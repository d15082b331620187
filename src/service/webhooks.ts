/**
 * Webhook delivery for the service: the WebhookDispatcher (src/webhooks) on an outbox in the
 * service's SQLite file, fed by both event sources:
 * - the order service's `ServiceEvents` (`order.status_changed`: cancel -> archived, dispatch
 *   outcomes, and planning's in_route, forwarded from the job layer below), and
 * - the job layer's `EventBus` (`planning_job.finished` with the job object of 2.2 as data;
 *   its `order.status_changed` are forwarded to ServiceEvents so one channel carries them all).
 *
 * Events emitted in one synchronous run (a plan's 500 in_route changes are emitted in one loop) are
 * written to the outbox in ONE transaction at the next microtask, before any I/O callback can run
 * (one fsync, not 500); the dispatcher sends them in the background. Nothing here waits for a receiver: a slow or dead one holds one dispatcher slot for
 * at most the time-out.
 */
import type { EventBus } from '../jobs/events.js';
import type { Store } from '../store/store.js';
import type { WebhookEvent } from '../store/types.js';
import { WebhookDispatcher, defaultRetryDelaysMs } from '../webhooks/dispatcher.js';
import { SqliteWebhookOutbox } from '../webhooks/outbox.js';
import type { OrderStatusChanged, ServiceEvents } from './events.js';

export interface WebhookDeliveryOptions {
  /** A 2xx within this many ms delivers (default 10 000, operations.md). */
  timeoutMs?: number;
  /** Delays between tries (default: 10 delays over about 25.7 h). */
  retryDelaysMs?: readonly number[];
  /** How often the dispatcher looks at the outbox at the longest (ms). */
  pollMs?: number;
  /** How long a claimed delivery stays this process's without an outcome, ms (WebhookDispatcher). */
  leaseMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createWebhookDispatcher(store: Store, options: WebhookDeliveryOptions = {}): WebhookDispatcher {
  return new WebhookDispatcher({
    outbox: new SqliteWebhookOutbox(store.db),
    subscriptions: (companyId, event) =>
      store.webhooks.forEvent(companyId, event as WebhookEvent).map((s) => ({ id: s.id, url: s.url, secret: s.secret })),
    timeoutMs: options.timeoutMs ?? 10_000,
    retryDelaysMs: options.retryDelaysMs ?? defaultRetryDelaysMs,
    pollMs: options.pollMs,
    leaseMs: options.leaseMs,
    paused: () => store.webhooks.inactiveIds(),
    onOutcome: (subscriptionId, ok, at) => {
      if (store.webhooks.recordOutcome(subscriptionId, ok, at)) {
        options.log?.warn({ subscription_id: subscriptionId }, 'webhook subscription paused: every delivery failed for 24 h (admin webhook enable resumes it)');
      }
    },
    onFault: (error) => options.log?.error({ err: error }, 'webhook outbox unavailable; backing off'),
    onError: (delivery, error) =>
      options.log?.warn({ delivery_id: delivery.id, event: delivery.event, url: delivery.url, attempts: delivery.attempts + 1, error }, 'webhook delivery failed'),
  });
}

/** Payload of `order.status_changed` as operations.md fixes it. */
function orderData(e: OrderStatusChanged) {
  return { order_id: e.order_id, external_id: e.external_id, status: e.status, previous_status: e.previous_status, at: e.at };
}

export interface EventBridge {
  /** Writes the gathered events to the outbox now (shutdown). */
  flush(): void;
  /** Unsubscribes and flushes. */
  close(): void;
}

/** Connects the event sources to the dispatcher (see the file comment). */
export function bridgeEvents(options: {
  store: Store;
  dispatcher: WebhookDispatcher;
  serviceEvents: ServiceEvents;
  bus?: EventBus;
  /** The job layer's events were already written to the outbox inside their own transactions
   *  (OutboxPlanningStore): forward its order changes to ServiceEvents, publish nothing of it. */
  busPublishedInStore?: boolean;
  onError?: (error: unknown) => void;
}): EventBridge {
  const { store, dispatcher, serviceEvents, bus } = options;
  let forwarding = false;
  let pending: Array<{ companyId: number; event: WebhookEvent; data: unknown }> = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    try {
      store.transaction(() => {
        for (const e of batch) dispatcher.publish(e.companyId, e.event, e.data);
      });
    } catch (error) {
      options.onError?.(error);
    }
  };
  const add = (companyId: number, event: WebhookEvent, data: unknown) => {
    // Emitted inside the change's own transaction (the dispatch API does): write the outbox row in
    // it too, so the change and its webhook commit or vanish together.
    if (store.db.inTransaction) {
      dispatcher.publish(companyId, event, data);
      return;
    }
    pending.push({ companyId, event, data });
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(flush);
    }
  };

  const onStatus = (e: OrderStatusChanged) => {
    if (!forwarding) add(e.company_id, 'order.status_changed', orderData(e));
  };
  serviceEvents.on('order.status_changed', onStatus);
  const offs: Array<() => void> = [];
  if (bus) {
    const inStore = options.busPublishedInStore === true;
    if (!inStore) offs.push(bus.on('planning_job.finished', (e) => add(e.companyId, 'planning_job.finished', e.data)));
    offs.push(
      bus.on('order.status_changed', (e) => {
        forwarding = inStore;
        try {
          serviceEvents.emit('order.status_changed', { company_id: e.companyId, ...e.data });
        } finally {
          forwarding = false;
        }
      }),
    );
  }
  return {
    flush,
    close() {
      serviceEvents.off('order.status_changed', onStatus);
      for (const off of offs) off();
      flush();
    },
  };
}
