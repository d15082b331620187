import { EventEmitter } from 'node:events';
import type { OrderStatus } from '../store/types.js';

/** Payload of `order.status_changed` (docs/contract/operations.md, webhooks), plus the owning company. */
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
 * The service's in-process events. Listeners run synchronously, so they must only queue work (the
 * webhook outbox subscribes here). Order status changes are emitted with `emitStrict` inside the
 * change's transaction; `emit` (after a commit) isolates a listener that throws.
 */
export class ServiceEvents extends EventEmitter<EventMap> {
  /** Where a throwing listener's error goes (the server logs it). */
  onListenerError: (err: unknown) => void = () => {};

  /**
   * Emits from inside the change's own transaction: a listener that throws (the webhook outbox
   * could not be written) fails the emit, so the transaction rolls back and the change never
   * happens without its webhook.
   */
  emitStrict<K extends keyof EventMap>(event: K, ...args: EventMap[K]): void {
    for (const listener of this.listeners(event) as ((...a: EventMap[K]) => void)[]) listener(...args);
  }

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
