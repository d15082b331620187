import type { FieldErrors } from '../contract/order.js';
import { MESSAGES } from '../contract/order.js';
import type { Repositories, StorePort } from '../store/port.js';
import type { Company, Order, OrderFields, OrderStatus, OrderStatusEntry } from '../store/types.js';
import { publishIn } from '../webhooks/publish.js';
import type { ServiceEvents } from './events.js';
import { localDate, systemClock, type Clock } from './time.js';
import { DEFAULT_QUOTAS, openOrdersExceeded } from './quota.js';

export interface NewOrder {
  external_id: string | null;
  fields: OrderFields;
}

export type CreateResult = { order: Order; created: boolean };

export type PatchResult =
  | { kind: 'ok'; order: Order }
  | { kind: 'not_found' }
  | { kind: 'conflict'; order: Order }
  | { kind: 'invalid'; errors: FieldErrors };

export type CancelResult =
  | { kind: 'ok'; order: Order }
  | { kind: 'not_found' }
  | { kind: 'conflict'; order: Order };

export interface OrderServiceOptions {
  store: StorePort;
  events: ServiceEvents;
  /** Whether new addresses go to the geocoding queue (false for the `none` provider). */
  geocoding: boolean;
  /** Called after a commit that queued geocoding work. */
  onGeocodeQueued?: () => void;
  /** Called after a commit that wrote webhook deliveries (wakes the webhook loop). */
  onPublished?: () => void;
  clock?: Clock;
  /** Open orders one company may hold (default 100,000). */
  maxOpenOrders?: number;
}

/**
 * The order use cases, company-scoped: the HTTP layer validates the wire format, this layer
 * applies the rules that need stored state (external_id idempotency, lat/lon together with the
 * stored pair, time window against the stored window, status guards) inside one transaction,
 * queues geocoding and writes the `order.status_changed` webhooks in it; after the commit it
 * emits the event in process.
 */
export class OrderService {
  private readonly store: StorePort;
  private readonly events: ServiceEvents;
  private readonly clock: Clock;

  constructor(private readonly options: OrderServiceOptions) {
    this.store = options.store;
    this.events = options.events;
    this.clock = options.clock ?? systemClock;
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** The company's local date today: the default delivery_date. */
  today(company: Company): string {
    return localDate(this.clock(), company.timezone);
  }

  /**
   * Creates the order, or returns the oldest existing one with the same external_id (sent data
   * discarded). The lookup and the insert share one IMMEDIATE transaction, so concurrent creates
   * with one external_id (even from two processes) make exactly one order.
   */
  async create(company: Company, input: NewOrder): Promise<CreateResult> {
    const result = await this.store.transaction((tx) => this.createInTx(tx, company, input, this.now()));
    if (result.created && this.needsGeocoding(result.order)) this.options.onGeocodeQueued?.();
    return result;
  }

  /** Creates many orders in one transaction (one fsync); `undefined` items are skipped. */
  async bulkCreate(company: Company, inputs: (NewOrder | undefined)[]): Promise<(CreateResult | undefined)[]> {
    const now = this.now();
    const results = await this.store.transaction(async (tx) => {
      // every external_id looked up at once: on PostgreSQL this takes their locks in one fixed
      // order, so two overlapping bulk uploads cannot deadlock
      const ids = [...new Set(inputs.flatMap((i) => (i?.external_id == null ? [] : [i.external_id])))];
      const known = new Map<string, Order>();
      for (const [id, orders] of await tx.orders.findByExternalIds(company.id, ids)) if (orders[0]) known.set(id, orders[0]);
      // the quota holds for the whole request: every new order of it fits, or none is made
      const fresh = new Set<string>();
      let adding = 0;
      for (const input of inputs) {
        if (input === undefined) continue;
        if (input.external_id === null) adding++;
        else if (!known.has(input.external_id) && !fresh.has(input.external_id)) {
          fresh.add(input.external_id);
          adding++;
        }
      }
      await this.checkOpenOrders(tx, company, adding);
      const out: (CreateResult | undefined)[] = [];
      for (const input of inputs) {
        if (input === undefined) {
          out.push(undefined);
          continue;
        }
        const existing = input.external_id === null ? undefined : known.get(input.external_id);
        if (existing) {
          out.push({ order: existing, created: false });
          continue;
        }
        const created = await this.createInTx(tx, company, { ...input, external_id: null }, now, input.external_id, true);
        if (input.external_id !== null) known.set(input.external_id, created.order);
        out.push(created);
      }
      return out;
    });
    if (results.some((r) => r?.created && this.needsGeocoding(r.order))) this.options.onGeocodeQueued?.();
    return results;
  }

  /** Refuses (QuotaError) when `adding` more open orders would pass the company's quota. */
  private async checkOpenOrders(tx: Repositories, company: Company, adding: number): Promise<void> {
    if (adding === 0) return;
    const max = this.options.maxOpenOrders ?? DEFAULT_QUOTAS.maxOpenOrders;
    if ((await tx.orders.countOpen(company.id)) + adding > max) throw openOrdersExceeded(max);
  }

  /** `externalId`: insert with this external_id without looking it up (the caller did); `quotaChecked`:
   *  the caller counted this order against the open-orders quota. */
  private async createInTx(
    tx: Repositories,
    company: Company,
    input: NewOrder,
    now: string,
    externalId = input.external_id,
    quotaChecked = false,
  ): Promise<CreateResult> {
    if (input.external_id !== null) {
      const existing = await tx.orders.findByExternalId(company.id, input.external_id);
      if (existing) return { order: existing, created: false };
    }
    if (!quotaChecked) await this.checkOpenOrders(tx, company, 1);
    const order = await tx.orders.insert(company.id, externalId, input.fields, now);
    if (this.needsGeocoding(order)) await tx.geocodeQueue.enqueue(order.id, order.address, now);
    return { order, created: true };
  }

  private needsGeocoding(order: Order): boolean {
    return this.options.geocoding && order.lat_e6 === null;
  }

  get(company: Company, id: number): Promise<Order | undefined> {
    return this.store.orders.get(company.id, id);
  }

  list(company: Company, query: { status?: OrderStatus; external_id?: string; limit: number; offset: number }) {
    return this.store.orders.list(company.id, query);
  }

  /**
   * Applies validated changes to an order in status new. lat/lon are checked together with the
   * stored pair and the time window with the stored bounds. A changed address (without new
   * coordinates in the same request) is geocoded again; coordinates sent by the client cancel
   * any pending geocoding of the order.
   */
  async patch(company: Company, id: number, changes: Partial<OrderFields>): Promise<PatchResult> {
    let queued = false;
    const result = await this.store.transaction(async (tx): Promise<PatchResult> => {
      const order = await tx.orders.get(company.id, id);
      if (!order) return { kind: 'not_found' };
      if (order.status !== 'new') return { kind: 'conflict', order };
      const next = { ...changes };
      const lat = 'lat_e6' in next ? next.lat_e6! : order.lat_e6;
      const lon = 'lon_e6' in next ? next.lon_e6! : order.lon_e6;
      if ((lat === null) !== (lon === null)) {
        const errors: FieldErrors = {};
        if ('lat_e6' in next && 'lon_e6' in next) {
          errors.lat = [MESSAGES.latLonTogether];
          errors.lon = [MESSAGES.latLonTogether];
        } else {
          const sent = 'lat_e6' in next ? 'lat' : 'lon';
          const other = sent === 'lat' ? 'lon' : 'lat';
          const otherValue = sent === 'lat' ? lon : lat;
          errors[sent] = [MESSAGES.latLonStored.replace('{other}', `${other} is ${otherValue === null ? 'null' : 'set'}`)];
        }
        return { kind: 'invalid', errors };
      }
      if (lat === 0 && lon === 0 && ('lat_e6' in next || 'lon_e6' in next)) {
        next.lat_e6 = null;
        next.lon_e6 = null;
      }
      const start = 'time_window_start' in next ? next.time_window_start! : order.time_window_start;
      const end = 'time_window_end' in next ? next.time_window_end! : order.time_window_end;
      if (start !== null && end !== null && end <= start) {
        return { kind: 'invalid', errors: { time_window_end: [MESSAGES.windowOrder] } };
      }
      const now = this.now();
      const updated = (await tx.orders.update(company.id, id, next, now))!;
      const sentCoordinates = next.lat_e6 !== undefined && next.lat_e6 !== null;
      if (sentCoordinates) {
        await tx.geocodeQueue.cancelForOrder(id);
      } else if (
        this.options.geocoding &&
        next.address !== undefined &&
        (next.address !== order.address || updated.lat_e6 === null)
      ) {
        await tx.geocodeQueue.enqueue(id, updated.address, now);
        queued = true;
      }
      return { kind: 'ok', order: updated };
    });
    if (queued) this.options.onGeocodeQueued?.();
    return result;
  }

  /** new -> archived, with a history entry and an event; any other status is a conflict. */
  async cancel(company: Company, id: number): Promise<CancelResult> {
    const now = this.now();
    const result = await this.store.transaction(async (tx) => {
      const r = await tx.orders.transition(company.id, id, ['new'], 'archived', now);
      if (r?.changed) {
        await tx.geocodeQueue.cancelForOrder(id);
        // inside the transaction: the archived order and its webhook row commit together
        await this.publishStatusChanged(tx, company.id, r.order, r.previous, now);
      }
      return r;
    });
    if (!result) return { kind: 'not_found' };
    if (!result.changed) return { kind: 'conflict', order: result.order };
    this.announceStatusChanged(company.id, result.order, result.previous, now);
    return { kind: 'ok', order: result.order };
  }

  async history(company: Company, id: number): Promise<{ order: Order; events: OrderStatusEntry[] } | undefined> {
    const order = await this.store.orders.get(company.id, id);
    if (!order) return undefined;
    return { order, events: await this.store.orders.history(order.id) };
  }

  /**
   * Writes a status change's webhooks from inside its transaction (cancel, dispatch): if the
   * outbox cannot take them, this throws and the change rolls back with it.
   */
  async publishStatusChanged(tx: Repositories, companyId: number, order: Order, previous: OrderStatus | null, at: string): Promise<void> {
    const change = statusChanged(companyId, order, previous, at);
    await publishIn(tx, companyId, 'order.status_changed', {
      order_id: change.order_id,
      external_id: change.external_id,
      status: change.status,
      previous_status: change.previous_status,
      at: change.at,
    });
  }

  /** After the commit: the in-process event, and the webhook loop woken. */
  announceStatusChanged(companyId: number, order: Order, previous: OrderStatus | null, at: string): void {
    this.options.onPublished?.();
    this.events.emit('order.status_changed', statusChanged(companyId, order, previous, at));
  }
}

function statusChanged(companyId: number, order: Order, previous: OrderStatus | null, at: string) {
  return {
    company_id: companyId,
    order_id: order.id,
    external_id: order.external_id,
    status: order.status,
    previous_status: previous,
    at,
  };
}
