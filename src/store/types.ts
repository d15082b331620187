/** Records as the store keeps them. Decimals are scaled integers (see migrations.ts). */

export const ORDER_STATUSES = ['new', 'in_route', 'visited', 'confirmed', 'rejected', 'skipped', 'archived'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_TYPES = ['one_time', 'recurring'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const SCOPES = [
  'orders:read',
  'orders:write',
  'planning:write',
  'routes:read',
  'tracking:read',
  'dispatch:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export const WEBHOOK_EVENTS = ['planning_job.finished', 'order.status_changed', 'route.updated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Company {
  id: number;
  name: string;
  timezone: string;
  /** Travel times of the company's plans are multiplied by it (default 1). */
  speed_factor: number;
  created_at: string;
}

export interface ApiKey {
  id: number;
  company_id: number;
  scopes: Scope[];
  label: string;
  created_at: string;
  revoked_at: string | null;
}

export interface Warehouse {
  id: number;
  company_id: number;
  name: string;
  address: string;
  lat: number;
  lon: number;
  created_at: string;
}

export interface Vehicle {
  id: number;
  company_id: number;
  warehouse_id: number;
  name: string;
  capacity_kg: number;
  capacity_m3: number;
  /** HH:MM, local to the company's timezone; null means no shift limit. */
  shift_start: string | null;
  shift_end: string | null;
  max_distance_km: number | null;
  max_duration_min: number | null;
  max_orders: number | null;
  features: string[];
  /** Trips per shift (1: no reload); between two, a mid_depot stop of reload_min minutes. */
  max_trips: number;
  reload_min: number;
  /** The driver's breaks (migration 110): each `minutes` long, starting inside [start, end]. */
  breaks: VehicleBreak[];
  active: boolean;
  created_at: string;
}

/** A driver's break (`admin vehicle create|update --break HH:MM-HH:MM/MIN`): `minutes` long,
 *  starting between `start` and `end` (HH:MM, local to the company), where the driver is then. */
export interface VehicleBreak {
  start: string;
  end: string;
  minutes: number;
}

/** What `admin vehicle update` may change. */
export type VehicleChange = Partial<Omit<Vehicle, 'id' | 'company_id' | 'created_at'>>;

/** The columns `admin vehicle update` may write (names in SQL come from here only). */
export const VEHICLE_CHANGE_COLUMNS = [
  'warehouse_id',
  'name',
  'capacity_kg',
  'capacity_m3',
  'shift_start',
  'shift_end',
  'max_distance_km',
  'max_duration_min',
  'max_orders',
  'features',
  'max_trips',
  'reload_min',
  'breaks',
  'active',
] as const satisfies readonly (keyof VehicleChange)[];

/** A change's columns and values as stored (JSON lists as text). */
export function vehicleChangeValues(change: VehicleChange, flag: (b: boolean) => unknown): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const column of VEHICLE_CHANGE_COLUMNS) {
    const value = change[column];
    if (value === undefined) continue;
    out.push([column, column === 'features' || column === 'breaks' ? JSON.stringify(value) : column === 'active' ? flag(value as boolean) : value]);
  }
  return out;
}

/** The fields a client may set on an order (create and PATCH), already validated and scaled. */
export interface OrderFields {
  name: string;
  recipient: string;
  phone: string;
  address: string;
  /** micro-degrees; both null or both set */
  lat_e6: number | null;
  lon_e6: number | null;
  /** HH:MM:SS */
  time_window_start: string | null;
  time_window_end: string | null;
  /** grams */
  weight_g: number;
  /** litres (thousandths of a cubic metre) */
  volume_l: number;
  service_time: number;
  notes: string;
  order_type: OrderType;
  /** YYYY-MM-DD */
  delivery_date: string;
}

export interface Order extends OrderFields {
  id: number;
  company_id: number;
  external_id: string | null;
  status: OrderStatus;
  created_at: string;
  updated_at: string;
  /** Every write to the order adds one (0 when created): a planning job commits only over the
   *  versions it read (src/jobs/commit.ts). Not shown by the API. */
  version: number;
}

export interface OrderStatusEntry {
  id: number;
  order_id: number;
  status: OrderStatus;
  previous_status: OrderStatus | null;
  at: string;
}

export interface GeocodeTask {
  id: number;
  order_id: number;
  address: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string;
  created_at: string;
}

export interface WebhookSubscription {
  id: number;
  company_id: number;
  url: string;
  events: WebhookEvent[];
  secret: string;
  active: boolean;
  created_at: string;
}

/** What `admin company update` may change. */
export interface CompanyChange {
  name?: string;
  timezone?: string;
  speed_factor?: number;
}

// ---- orders (list query, field columns), routes and positions, webhooks: shared by both adapters ----

export interface OrderListQuery {
  status?: OrderStatus;
  external_id?: string;
  limit: number;
  offset: number;
}

/** The order's field columns, the same on both stores (column names in SQL come from here only). */
export const FIELD_COLUMNS = [
  'name',
  'recipient',
  'phone',
  'address',
  'lat_e6',
  'lon_e6',
  'time_window_start',
  'time_window_end',
  'weight_g',
  'volume_l',
  'service_time',
  'notes',
  'order_type',
  'delivery_date',
] as const satisfies readonly (keyof OrderFields)[];

export const ROUTE_STATUSES = ['planned', 'active', 'completed', 'archived', 'cancelled'] as const;
export type RouteStatus = (typeof ROUTE_STATUSES)[number];
export const STOP_STATUSES = ['pending', 'in_progress', 'visited', 'confirmed', 'rejected', 'skipped'] as const;
export type StopStatus = (typeof STOP_STATUSES)[number];
export type StopType = 'order' | 'start_depot' | 'mid_depot' | 'end_depot';
/** A stop in one of these is done: nothing can change it any more. */
export const FINAL_STOP_STATUSES: readonly StopStatus[] = ['confirmed', 'rejected', 'skipped'];

export interface RouteRow {
  id: number;
  company_id: number;
  job_id: number | null;
  vehicle_id: number | null;
  assigned_vehicle_id: number | null;
  vehicle_assigned_at: string | null;
  name: string;
  date: string;
  status: RouteStatus;
  planned_mileage_km: number;
  planned_duration_min: number;
  total_weight_kg: number;
  total_volume_m3: number;
  actual_start_at: string | null;
  actual_end_at: string | null;
  created_at: string;
  updated_at: string;
  /** The planned breaks, JSON `[{start, end}]` (UTC timestamps; migration 110; '[]' without). */
  breaks?: string;
}

export interface StopRow {
  id: number;
  route_id: number;
  position: number;
  stop_type: StopType;
  status: StopStatus;
  order_id: number | null;
  order_external_id: string | null;
  warehouse_id: number | null;
  address: string;
  lat: number;
  lon: number;
  planned_arrival_at: string | null;
  planned_departure_at: string | null;
  actual_arrival_at: string | null;
  actual_departure_at: string | null;
}

export interface PositionRow {
  id: number;
  company_id: number;
  vehicle_id: number;
  lat: number;
  lon: number;
  timestamp: string;
  speed_kmh: number;
  heading_deg: number;
  received_at: string;
}

export interface NewPosition {
  lat: number;
  lon: number;
  timestamp: string;
  speed_kmh: number;
  heading_deg: number;
}

export interface RouteListQuery {
  status?: RouteStatus;
  date?: string;
  limit: number;
  offset: number;
}

/** A subscription whose every try failed for this long is paused (operations: 24 h). */
export const PAUSE_AFTER_FAILING_MS = 24 * 3_600_000;

/**
 * The pending-deliveries quota of one webhook subscription (issue 38, item 3;
 * `--max-pending-deliveries`): an event for a subscription that holds `maxPending` pending
 * deliveries already is not queued for it (dropped; the change itself goes ahead), and
 * `onDropped` hears of it (the metric and the log).
 */
export interface OutboxQuota {
  maxPending: number;
  onDropped?: (subscriptionId: number, event: string, count: number) => void;
}

/** Pending deliveries one subscription may hold (`--max-pending-deliveries`). */
export const DEFAULT_MAX_PENDING_DELIVERIES = 100_000;

/** A webhook delivery's state in the outbox. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as the outbox port answers it (every store). */
export interface Delivery {
  /** The delivery id: `X-Planner-Delivery-Id` and the body's `id`, the same on every retry. */
  id: string;
  subscriptionId: number;
  url: string;
  secret: string;
  event: string;
  /** The exact bytes sent, so every retry carries the same body. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  /** Epoch milliseconds of the next try (pending only). */
  nextAttemptAt: number;
  lastError: string;
  createdAt: number;
  deliveredAt: number | null;
}

export interface DueOptions {
  perSubscription?: number;
  paused?: ReadonlySet<number>;
  /** Claim what is returned for this owner until `leaseUntil` (epoch ms): no other owner gets it
   *  before then, and in-flight deliveries of other owners count against `perSubscription`. A row
   *  this owner holds already (its outcome could not be written) is returned again. */
  lease?: { owner: string; until: number };
}

export type NewDelivery = Pick<Delivery, 'id' | 'subscriptionId' | 'url' | 'secret' | 'event' | 'body' | 'createdAt'>;

/** A webhook_deliveries row as both stores return it. */
export interface DeliveryRow {
  id: string;
  subscription_id: number;
  url: string;
  secret: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string;
  created_at: number;
  delivered_at: number | null;
}

export const deliveryFromRow = (r: DeliveryRow): Delivery => ({
  id: r.id,
  subscriptionId: r.subscription_id,
  url: r.url,
  secret: r.secret,
  event: r.event,
  body: r.body,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
});

/** Delivery order of the outbox: next try, then creation, then id (byte order, as both stores sort). */
export const byDue = (a: DeliveryRow, b: DeliveryRow): number =>
  a.next_attempt_at - b.next_attempt_at || a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
