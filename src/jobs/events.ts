import { randomUUID } from 'node:crypto';
import type { OrderStatusChange } from './ports.js';
import type { JobView } from './view.js';

/** The events of section 6 and their payloads (docs/contract/operations.md, Webhooks). */
export interface EventPayloads {
  /** The planning job object (2.2) when the job reaches done or failed. */
  'planning_job.finished': JobView;
  'order.status_changed': OrderStatusChange;
}

export type EventName = keyof EventPayloads;

/** One event as a webhook delivers it: `id` is the delivery id, unique per event. */
export interface PlannerEvent<N extends EventName = EventName> {
  id: string;
  event: N;
  created_at: string;
  /** The company whose subscribers receive it (not part of the webhook body). */
  companyId: number;
  data: EventPayloads[N];
}

type Handler<N extends EventName> = (event: PlannerEvent<N>) => void;

/**
 * An in-process, synchronous, typed event bus. Handlers run in subscription order when an event is
 * emitted; a throwing handler does not stop the others nor the emitter (its error goes to
 * `onHandlerError`). A webhook outbox subscribes with `onAny` and persists each event.
 */
export class EventBus {
  private readonly handlers = new Map<EventName | '*', Set<Handler<any>>>();

  constructor(private readonly onHandlerError: (error: unknown, event: PlannerEvent) => void = () => {}) {}

  on<N extends EventName>(name: N, handler: Handler<N>): () => void {
    return this.add(name, handler);
  }

  /** Every event, whatever its name. */
  onAny(handler: (event: PlannerEvent) => void): () => void {
    return this.add('*', handler);
  }

  emit<N extends EventName>(name: N, companyId: number, data: EventPayloads[N], at: string): PlannerEvent<N> {
    const event: PlannerEvent<N> = { id: randomUUID(), event: name, created_at: at, companyId, data };
    for (const key of [name, '*'] as const) {
      for (const handler of this.handlers.get(key) ?? []) {
        try {
          handler(event);
        } catch (error) {
          this.onHandlerError(error, event);
        }
      }
    }
    return event;
  }

  private add(key: EventName | '*', handler: Handler<any>): () => void {
    let set = this.handlers.get(key);
    if (!set) this.handlers.set(key, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }
}
