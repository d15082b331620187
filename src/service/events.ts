import { EventEmitter } from 'node:events';
import type { OrderStatus } from '../store/types.js';

/** Payload of `order.status_changed` (operations.md, webhooks), plus the owning company. */
export interface OrderStatusChanged {
  company_id: number;
  order_id: number;
  external_id: string | null;
  status: OrderStatus;
  previous_status: OrderStatus | null;
  at: string;
}

interface EventMap {
  'order.status_changed': [OrderStatusChanged];
}

/**
 * The service's in-process events. Emitted after the change is committed; listeners run
 * synchronously, so they must only queue work (the webhook outbox of a later issue subscribes
 * here). A listener that throws is isolated: it never fails the request that caused the event.
 */
export class ServiceEvents extends EventEmitter<EventMap> {
  /** Where a throwing listener's error goes (the server logs it). */
  onListenerError: (err: unknown) => void = () => {};

  override emit<K extends keyof EventMap>(event: K, ...args: EventMap[K]): boolean {
    let any = false;
    for (const listener of this.listeners(event) as ((...a: EventMap[K]) => void)[]) {
      any = true;
      try {
        listener(...args);
      } catch (err) {
        this.onListenerError(err);
      }
    }
    return any;
  }
}
