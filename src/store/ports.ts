/**
 * The storage ports, written by hand: one asynchronous interface per aggregate, the same for every
 * adapter. SQLite (src/store/sqlite/, synchronous better-sqlite3 repositories behind the gate of
 * sqlite/port.ts, which makes each call a promise) and PostgreSQL (src/store/postgres/, pg) both
 * implement them, and one conformance suite (test/store/contract.ts) runs on each. The planning
 * jobs' port (jobs, leases, plan-commit primitives) is PlanningStore in src/jobs/ports.ts, beside
 * the rules that use it (src/jobs/commit.ts).
 *
 * Conventions: every read takes the company id where records belong to a company (another
 * company's record is missing); timestamps are ISO 8601 UTC strings passed in by the caller;
 * units are the columns' (grams, litres, micro-degrees for orders; see types.ts).
 */
import type {
  ApiKey,
  Company,
  CompanyChange,
  Delivery,
  DueOptions,
  NewDelivery,
  GeocodeTask,
  NewPosition,
  Order,
  OrderFields,
  OrderListQuery,
  OrderStatus,
  OrderStatusEntry,
  PositionRow,
  RouteListQuery,
  RouteRow,
  RouteStatus,
  Scope,
  StopRow,
  StopStatus,
  Vehicle,
  VehicleChange,
  Warehouse,
  WebhookEvent,
  WebhookSubscription,
} from './types.js';

export interface CompaniesPort {
  create(input: { name: string; timezone: string; speed_factor?: number }, now: string): Promise<Company>;
  get(id: number): Promise<Company | undefined>;
  /** The company after the change, or undefined when there is none with that id. */
  update(id: number, change: CompanyChange): Promise<Company | undefined>;
  findByName(name: string): Promise<Company | undefined>;
}

/**
 * API keys: `dpk_` and 32 random bytes in base64url (256 bits), shown once. The store keeps the
 * SHA-256 of the key (a fast hash is enough for random high-entropy secrets) and a short prefix
 * to find the candidate rows; the hashes are compared with timingSafeEqual.
 */
export interface ApiKeysPort {
  create(input: { company_id: number; scopes: Scope[]; label?: string }, now: string): Promise<{ record: ApiKey; key: string }>;
  get(id: number): Promise<ApiKey | undefined>;
  /** The active (not revoked) key matching the presented secret, or undefined. */
  authenticate(presented: string): Promise<ApiKey | undefined>;
  /** Every key of the company, revoked ones too, by id (never the key itself: only its hash is kept). */
  listForCompany(companyId: number): Promise<ApiKey[]>;
  revoke(id: number, now: string): Promise<ApiKey | undefined>;
}

export interface WarehousesPort {
  create(input: Omit<Warehouse, 'id' | 'created_at'>, now: string): Promise<Warehouse>;
  /** The warehouse if it belongs to the company. */
  get(companyId: number, id: number): Promise<Warehouse | undefined>;
  list(companyId: number): Promise<Warehouse[]>;
}

/** A vehicle to create: `max_trips`, `reload_min` and `breaks` may be left out. */
export type VehicleInput = Omit<Vehicle, 'id' | 'created_at' | 'max_trips' | 'reload_min' | 'breaks'> & Partial<Pick<Vehicle, 'max_trips' | 'reload_min' | 'breaks'>>;

export interface VehiclesPort {
  /** `max_trips`, `reload_min` and `breaks` default to 1, 15 and none (the migrations' defaults). */
  create(input: VehicleInput, now: string): Promise<Vehicle>;
  /** Writes the given fields; the vehicle after the change, or undefined when it is not the company's. */
  update(companyId: number, id: number, change: VehicleChange): Promise<Vehicle | undefined>;
  /** The vehicle if it belongs to the company (active or not). */
  get(companyId: number, id: number): Promise<Vehicle | undefined>;
  /** The vehicle with this id, of any company (the operator's `admin vehicle update`). */
  findById(id: number): Promise<Vehicle | undefined>;
  /** The company's vehicles, by id; only the active ones unless told otherwise. */
  list(companyId: number, options?: { includeInactive?: boolean }): Promise<Vehicle[]>;
  /** The subset of ids that exist, belong to the company and are active. */
  findActive(companyId: number, ids: number[]): Promise<Vehicle[]>;
  setActive(companyId: number, id: number, active: boolean): Promise<Vehicle | undefined>;
}

/**
 * Orders and their status history. Every method is scoped by company: an order of another
 * company is simply not found. Methods that write several rows run inside a transaction (they
 * join the caller's transaction when there is one: better-sqlite3 nests them as savepoints).
 */
export interface OrdersPort {
  /**
   * Orders of the company in status new or in_route (the open-orders quota), exact and O(1): a
   * per-company count kept with the order writes (SQLite: order_counts, by triggers; PostgreSQL:
   * open_order_counts, by a trigger deferred to commit). Inside a transaction on PostgreSQL it
   * locks the company's count until the transaction ends, so concurrent creates of one company
   * take turns and none passes the quota.
   */
  countOpen(companyId: number): Promise<number>;
  /** Inserts a new order in status `new` with its first history entry. */
  insert(companyId: number, externalId: string | null, fields: OrderFields, now: string): Promise<Order>;
  get(companyId: number, id: number): Promise<Order | undefined>;
  /** The oldest order of the company with this external_id (duplicates may exist). */
  findByExternalId(companyId: number, externalId: string): Promise<Order | undefined>;
  /** The orders among `ids` that belong to the company, in the order of `ids`. */
  findByIds(companyId: number, ids: number[]): Promise<Order[]>;
  /** For each external id, every order of the company carrying it (oldest first). */
  findByExternalIds(companyId: number, externalIds: string[]): Promise<Map<string, Order[]>>;
  /** A page of the company's orders, newest first, and the total count of the filtered set. */
  list(companyId: number, query: OrderListQuery): Promise<{ count: number; rows: Order[] }>;
  /** Writes changed client fields; the caller checks the status first (inside its transaction). */
  update(companyId: number, id: number, changes: Partial<OrderFields>, now: string): Promise<Order | undefined>;
  /**
   * Moves an order to `to` when its current status is one of `from`, appending a history entry.
   * Returns the updated order and the previous status, or the unchanged order (changed false)
   * when its status did not allow the move, or undefined when the order is not found.
   */
  transition(companyId: number, id: number, from: readonly OrderStatus[], to: OrderStatus, now: string): Promise<{ order: Order; changed: boolean; previous: OrderStatus } | undefined>;
  /**
   * Writes geocoded coordinates when the order is still new and still has the address that was
   * geocoded (internal: not company-scoped; the queue holds only ids the service put there).
   */
  applyGeocode(orderId: number, address: string, lat_e6: number, lon_e6: number, now: string): Promise<boolean>;
  history(orderId: number): Promise<OrderStatusEntry[]>;
}

/**
 * The persisted geocoding queue: one row per order whose address waits for coordinates. A row
 * leaves the queue only when its result is written (in the same transaction), so a crash or a
 * kill -9 leaves it pending for the next start.
 *
 * Several processes may work the queue: `due` with a lease claims the tasks it returns for one
 * owner (lease_owner, lease_until) in the same write transaction, so no two look up one task at
 * once; a process that dies leaves its leases to run out, and the tasks are due again. Tasks the
 * owner holds already (claimed, not yet looked up) are due to it again, claimed anew.
 */
export interface GeocodeQueuePort {
  /** Queues the order's address, replacing any earlier pending task of the order. */
  enqueue(orderId: number, address: string, now: string): Promise<void>;
  cancelForOrder(orderId: number): Promise<void>;
  /**
   * Tasks due at `now`, companies taking turns: each company's oldest due task, then each one's
   * second, and so on, so one company's 500-order upload cannot hold back another's one order.
   */
  due(now: string, limit: number, lease?: { owner: string; until: string }): Promise<GeocodeTask[]>;
  /** When the next task becomes due (or a lease on one runs out), or undefined when the queue is empty. */
  nextDueAt(now?: string): Promise<string | undefined>;
  /** The owner holding the task's lease, or null. */
  leaseOwner(id: number): Promise<string | null>;
  /** Hands back every task leased to `owner` (its lookups were stopped). */
  releaseAll(owner: string): Promise<void>;
  get(id: number): Promise<GeocodeTask | undefined>;
  remove(id: number): Promise<void>;
  retryLater(id: number, nextAttemptAt: string, error: string): Promise<void>;
  pending(): Promise<GeocodeTask[]>;
  count(): Promise<number>;
}

/** Webhook subscriptions; the secret (32 random bytes, hex) keys the HMAC of each delivery. */
export interface WebhooksPort {
  create(input: { company_id: number; url: string; events: WebhookEvent[] }, now: string): Promise<WebhookSubscription>;
  get(id: number): Promise<WebhookSubscription | undefined>;
  listForCompany(companyId: number): Promise<WebhookSubscription[]>;
  /** Enables (clearing a pause and its failing streak) or disables a subscription. */
  setActive(id: number, active: boolean): Promise<WebhookSubscription | undefined>;
  /** A new secret; deliveries already queued keep the secret they were queued with. */
  rotateSecret(id: number): Promise<WebhookSubscription | undefined>;
  /** Ids of the subscriptions that get no tries now (disabled or paused): their deliveries wait. */
  inactiveIds(): Promise<Set<number>>;
  /**
   * Records a try's outcome: a success clears the failing streak; a failure starts it, and a
   * streak of `pauseAfterMs` pauses the subscription (true when this call paused it).
   */
  recordOutcome(id: number, ok: boolean, at: number, pauseAfterMs?: number): Promise<boolean>;
  /**
   * The subscriptions of the company that listen to the event and take new deliveries: active
   * ones, and paused ones (their deliveries wait for `admin webhook enable`, none is lost); a
   * disabled one takes none.
   */
  forEvent(companyId: number, event: WebhookEvent): Promise<WebhookSubscription[]>;
}

export interface RoutesPort {
  /** Positions of the vehicle the server received at or after `since` (the positions quota). */
  countPositionsSince(vehicleId: number, since: string): Promise<number>;
  get(companyId: number, id: number): Promise<RouteRow | undefined>;
  /** A page of the company's routes, newest first, and the count of the filtered set. */
  list(companyId: number, query: RouteListQuery): Promise<{ count: number; rows: RouteRow[] }>;
  stops(routeId: number): Promise<StopRow[]>;
  /** The stop and its route, when the route belongs to the company. */
  getStop(companyId: number, stopId: number): Promise<{ stop: StopRow; route: RouteRow } | undefined>;
  /** Another route (not cancelled) of the company that holds the vehicle on the date. */
  routeHoldingVehicle(companyId: number, vehicleId: number, date: string, exceptRouteId: number): Promise<RouteRow | undefined>;
  /** Moves a planned (not dispatcher-assigned) route to another vehicle, or to none. */
  setPlannedVehicle(routeId: number, vehicleId: number | null, at: string): Promise<void>;
  assignVehicle(routeId: number, vehicleId: number, at: string): Promise<void>;
  setStatus(routeId: number, status: RouteStatus, at: string, stamp?: { actual_start_at?: string; actual_end_at?: string }): Promise<void>;
  updateStop(stopId: number, change: { status: StopStatus; actual_arrival_at: string | null; actual_departure_at: string | null }): Promise<void>;
  /** Order stops of the route not yet in a final status. */
  openOrderStops(routeId: number): Promise<number>;
  /** Order stops: total and final (confirmed, rejected, skipped). */
  progress(routeId: number): Promise<{ total: number; completed: number }>;
  addPositions(companyId: number, vehicleId: number, positions: NewPosition[], receivedAt: string): Promise<PositionRow[]>;
  /**
   * The vehicle's latest position (by its own timestamp, then arrival order) among those the
   * server received at or after `since` (default: all).
   */
  lastPosition(companyId: number, vehicleId: number, since?: string, notAfter?: string): Promise<PositionRow | undefined>;
  /** Deletes up to `limit` positions the server received before `before`; returns how many. */
  prunePositions(before: string, limit?: number): Promise<number>;
}

export interface OutboxPort {
  /**
   * Queues deliveries, except those of a subscription at its pending quota (the store's
   * OutboxQuota, types.ts): those are dropped and reported. The quota reads the subscription's
   * kept count (webhook_pending_counts, migration 123) without a lock, so changes committing at
   * the same moment may pass it by their own few deliveries.
   */
  add(deliveries: NewDelivery[]): Promise<void>;
  due(now: number, limit: number, skip: ReadonlySet<string>, options?: DueOptions): Promise<Delivery[]>;
  nextDue(paused?: ReadonlySet<number>, now?: number): Promise<number | null>;
  delivered(id: string, attempts: number, at: number, owner?: string): Promise<boolean>;
  retryLater(id: string, attempts: number, nextAttemptAt: number, error: string, owner?: string): Promise<boolean>;
  giveUp(id: string, attempts: number, error: string, owner?: string): Promise<boolean>;
  pruneDelivered(before: number): Promise<number>;
  release(id: string, owner: string): Promise<void>;
  get(id: string): Promise<Delivery | undefined>;
  list(): Promise<Delivery[]>;
  /** Pending deliveries, paused subscriptions' included (the backlog metric), from the kept counts. */
  countPending(): Promise<number>;
  /** Pending deliveries of one subscription (its kept count: what the quota compares). */
  countPendingFor(subscriptionId: number): Promise<number>;
}

