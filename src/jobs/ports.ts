/**
 * The storage port of the planning-job layer: everything the job service reads and writes.
 *
 * Two implementations: `MemoryPlanningStore` (src/jobs/memory-store.ts, tests and embedding) and
 * the SQLite store of the service. Both must pass the same behaviour (test/jobs/store-contract.ts).
 *
 * Conventions:
 * - Every read takes the company id: records of another company are treated as missing.
 * - Ids are positive integers assigned by the store.
 * - Timestamps are ISO 8601 UTC strings with a trailing Z, passed in by the caller (the job
 *   service owns the clock), so a store never reads the time itself.
 * - Numbers are plain JS numbers in the units named by the field (kg, m3, km, minutes); the HTTP
 *   layer formats them as the contract's decimal strings.
 * - Methods may be synchronous or return promises: the job service awaits every call.
 */

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/** The effective input of a job, as section 2.2 shows it (resolved order ids, sorted ascending). */
export interface JobInput {
  order_ids: number[];
  vehicle_ids: number[];
  /** null when the request named no warehouse (each vehicle then uses its own). */
  warehouse_id: number | null;
  /**
   * A re-plan of one date (dispatch API, operations.md "Re-planning a day"): its planned and active
   * routes with `order_ids` as the new orders (empty: every new order of the date), and with
   * `unavailable`, that vehicle out from `from` on (its pending stops move to the other routes).
   */
  replan?: { date: string; unavailable?: { vehicle_id: number; from: string } };
}

import type { UnassignedReason } from '../model/input.js';

// the errors a store's writes throw (their own file; imported from here like the rest of the port)
export * from './port-errors.js';

export type { UnassignedReason };

/** The result of a finished job (2.2); `{}` until done and on failure. */
export interface JobResult {
  route_ids: number[];
  summary: { route_count: number; unassigned_count: number };
  unassigned: Array<{ order_id: number; reason: UnassignedReason }>;
}

export interface JobRecord {
  id: number;
  companyId: number;
  status: JobStatus;
  input: JobInput;
  /** null until done; stays null on failure. */
  result: JobResult | null;
  /** '' unless failed. */
  error: string;
  createdAt: string;
  updatedAt: string;
  /** Times a process has claimed the job (claimJob); a job handed back (releaseJob) does not count. */
  attempts?: number;
}

export interface Company {
  id: number;
  /** IANA time zone (for example `Europe/Berlin`); time windows and delivery dates are local to it. */
  timezone: string;
  /** Travel times of its plans are multiplied by it (`admin company update --speed-factor`); default 1. */
  speedFactor?: number;
}

export type OrderStatus = 'new' | 'in_route' | 'visited' | 'confirmed' | 'rejected' | 'skipped' | 'archived';

/** What planning needs of an order. */
export interface PlanningOrder {
  id: number;
  companyId: number;
  externalId: string | null;
  status: OrderStatus;
  address: string;
  /** null until geocoded; an order without both is dropped from planning. */
  lat: number | null;
  lon: number | null;
  weightKg: number;
  volumeM3: number;
  /** Minutes at the stop. */
  serviceTimeMin: number;
  /** 'HH:MM:SS' local to the company, or null (any time within the vehicle's shift). */
  timeWindowStart: string | null;
  timeWindowEnd: string | null;
  /** 'YYYY-MM-DD', local to the company. */
  deliveryDate: string;
  /** Features the vehicle must have (absent or empty: none). */
  requiredFeatures?: string[];
  /** Timestamp of the last change (the store may refresh it in commitPlan). */
  updatedAt?: string;
  /** Counts the order's changes: every write to the order adds one (absent: 0). A plan commits
   *  only over the versions it read (src/jobs/commit.ts). */
  version?: number;
}

export interface PlanningVehicle {
  id: number;
  companyId: number;
  name: string;
  active: boolean;
  warehouseId: number;
  capacityKg: number;
  capacityM3: number;
  /** 'HH:MM-HH:MM' local to the company; null means the whole day (00:00-24:00). An end not after
   *  the start means the shift ends on the next day. */
  shift: string | null;
  maxDistanceKm: number | null;
  maxDurationMin: number | null;
  maxOrders: number | null;
  features: string[];
  /** Trips per shift (absent or 1: no reload); between two a mid_depot stop of `reloadMin` minutes. */
  maxTrips?: number;
  reloadMin?: number;
  /** The driver's breaks: `minutes` long, starting between `start` and `end` ('HH:MM' local). */
  breaks?: Array<{ start: string; end: string; minutes: number }>;
}

export interface Warehouse {
  id: number;
  companyId: number;
  name: string;
  address: string;
  lat: number;
  lon: number;
}

export type StopType = 'start_depot' | 'order' | 'mid_depot' | 'end_depot';

/** A stop as planning creates it; the store adds its id. Status starts `pending`. */
export interface NewStop {
  /** From 1: start_depot first, end_depot last. */
  position: number;
  stopType: StopType;
  /** Set for order stops, null for depots. */
  orderId: number | null;
  orderExternalId: string | null;
  /** Warehouse id for depot stops, null for order stops. */
  warehouseId: number | null;
  address: string;
  lat: number;
  lon: number;
  /** UTC timestamps. For an order: arrival = planned start of service (inside its window),
   *  departure = end of service. Start depot: both the departure time; end depot: both the arrival.
   *  Mid depot (a reload between two trips): the arrival, and the arrival plus the reload time. */
  plannedArrivalAt: string;
  plannedDepartureAt: string;
}

/** A route as planning creates it; the store adds its id. Status starts `planned`. */
export interface NewRoute {
  jobId: number;
  companyId: number;
  /** The vehicle the route was planned for; it makes the vehicle busy on `date`. */
  vehicleId: number;
  name: string;
  /** 'YYYY-MM-DD', the delivery date. */
  date: string;
  plannedMileageKm: number;
  /** Whole minutes. */
  plannedDurationMin: number;
  totalWeightKg: number;
  totalVolumeM3: number;
  stops: NewStop[];
  /** The driver's planned breaks (UTC timestamps), when the vehicle has breaks. */
  breaks?: Array<{ start: string; end: string }>;
}

/** One order status change written by commitPlan (also the payload of `order.status_changed`). */
export interface OrderStatusChange {
  order_id: number;
  external_id: string | null;
  status: OrderStatus;
  previous_status: OrderStatus | null;
  at: string;
}

export interface PlanCommit {
  jobId: number;
  companyId: number;
  /** Timestamp of the history entries and of the job's updated_at. */
  at: string;
  routes: NewRoute[];
  /** Sorted by order id. */
  unassigned: JobResult['unassigned'];
  /** The lease holder (claimJob's owner): the commit is refused (LeaseLostError) unless the job is
   *  still `running` under this owner. Without it, only a job already done or failed is refused. */
  owner?: string;
  /** The version of every order the job read (order id -> PlanningOrder.version as read): a placed
   *  order whose version differs now, or that is missing here, is OrdersChangedError. */
  versions: Readonly<Record<number, number>>;
}

/** A re-plan's commit (src/jobs/commit.ts commitReplan). */
export interface ReplanCommit {
  jobId: number;
  companyId: number;
  at: string;
  owner?: string;
  date: string;
  /** The date's planned and active routes with their stops, as the job read them: the fence. */
  read: DayRoute[];
  /** The routes of the date after the re-plan. */
  rewrites: RouteRewrite[];
  /** Of those, the routes whose stops changed (ids or order): `route.updated`. */
  changed: number[];
  /** Routes of free vehicles (a stop with an id is a kept stop moved there). */
  newRoutes: Array<Omit<NewRoute, 'stops'> & { stops: RewrittenStop[] }>;
  /** New orders placed (new -> in_route), sorted; checked like a plan's (new, at the versions read). */
  placed: number[];
  versions: Readonly<Record<number, number>>;
  /** Orders of an unavailable vehicle that fit nowhere (in_route -> new). */
  backToNew: Array<{ id: number; externalId: string | null }>;
  unassigned: JobResult['unassigned'];
}

/** A job claimed this many times without finishing (its process died each time) fails. */
export const MAX_JOB_ATTEMPTS = 3;

/** An `Idempotency-Key` of planning submit and the fingerprint of the request it came with. */
export interface IdempotencyKey {
  key: string;
  fingerprint: string;
}

/** How long an Idempotency-Key stands for its first job. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

type MaybePromise<T> = T | Promise<T>;

/** The jobs and their queue. */
export interface JobStore {
  /**
   * Creates a job in status `queued` with created_at = updated_at = `at`; ids ascend. With
   * `maxUnfinished`, throws TooManyJobsError (nothing written) when the company already has that
   * many jobs queued or running: count and insert are one atomic step. With `idempotency`, the
   * key is recorded with the job in the same step; a key used within the window throws
   * IdempotentReplayError (same fingerprint) or IdempotencyKeyReusedError (another one).
   */
  createJob(companyId: number, input: JobInput, at: string, maxUnfinished?: number, idempotency?: IdempotencyKey): MaybePromise<JobRecord>;
  /** The job and fingerprint an Idempotency-Key of the company stands for, if used at or after `since`. */
  findIdempotent(companyId: number, key: string, since: string): MaybePromise<{ jobId: number; fingerprint: string } | undefined>;
  /** The job, or undefined when missing or of another company. */
  getJob(companyId: number, jobId: number): MaybePromise<JobRecord | undefined>;
  /**
   * Moves a job to `running` or `failed` (done is written only by commitPlan), sets updated_at;
   * `error` only with failed (result stays null). Returns the updated job. With `owner`, the job
   * must be `running` under that owner's lease (else LeaseLostError, nothing written), and the
   * lease ends with the write.
   */
  updateJob(jobId: number, change: { status: 'running' } | { status: 'failed'; error: string }, at: string, owner?: string): MaybePromise<JobRecord>;
  /** Jobs in status queued or running of every company, ascending id. */
  listUnfinishedJobs(): MaybePromise<JobRecord[]>;
  /**
   * In one atomic step, takes the next job to run and leases it to `owner` until `leaseUntil`:
   * status `running`, attempts + 1, updated_at = `at`. Claimable: a `queued` job, or a `running`
   * one whose lease ended before `at` (its process died); those taken over come first, then the
   * company whose last claim is the oldest (a company never served first), then the oldest job.
   * Undefined when nothing is claimable.
   */
  claimJob(owner: string, at: string, leaseUntil: string): MaybePromise<JobRecord | undefined>;
  /** Forgets Idempotency-Keys recorded before `before` (older than the replay window); how many. */
  pruneIdempotencyKeys(before: string): MaybePromise<number>;
  /** Extends the lease; false when the job is no longer `running` under this owner. */
  renewLease(jobId: number, owner: string, leaseUntil: string): MaybePromise<boolean>;
  /** Hands a running job back: its lease ends, so the next claimJob anywhere takes it over first;
   *  the attempt is not counted, and the status stays `running` (a client never sees it go back to
   *  `queued`). False when the job is no longer `running` under this owner. */
  releaseJob(jobId: number, owner: string, at: string): MaybePromise<boolean>;
}

export type DayStopStatus = 'pending' | 'in_progress' | 'visited' | 'confirmed' | 'rejected' | 'skipped';
export type DayRouteStatus = 'planned' | 'active' | 'completed' | 'archived' | 'cancelled';

/** A stop of a route of a day being re-planned, as stored. */
export interface DayStop {
  id: number;
  position: number;
  stopType: StopType;
  status: DayStopStatus;
  orderId: number | null;
  orderExternalId: string | null;
  warehouseId: number | null;
  address: string;
  lat: number;
  lon: number;
  plannedArrivalAt: string | null;
  plannedDepartureAt: string | null;
  actualArrivalAt: string | null;
  actualDepartureAt: string | null;
}

/** A planned or active route of a day being re-planned, with its stops by position. */
export interface DayRoute {
  id: number;
  jobId: number | null;
  /** The vehicle that makes the date busy (planned, or assigned by the dispatch API). */
  vehicleId: number | null;
  name: string;
  date: string;
  status: DayRouteStatus;
  actualStartAt: string | null;
  /** The planned breaks (UTC). */
  breaks: Array<{ start: string; end: string }>;
  stops: DayStop[];
}

/** A vehicle's last reported position. */
export interface DayPosition {
  vehicleId: number;
  lat: number;
  lon: number;
  timestamp: string;
}

/** A stop as a re-plan writes it: a kept stop names its id (it may come from another route), a new one has none. */
export type RewrittenStop = NewStop & { id?: number };

/** A route of the date after a re-plan (src/jobs/commit.ts commitReplan). */
export interface RouteRewrite {
  routeId: number;
  /** The stops in their new order (positions from 1); stops of the route left out are deleted
   *  unless another rewrite of the same commit takes them. */
  stops: RewrittenStop[];
  /** A route left without orders to serve: cancelled (nothing done) or completed (all done). */
  status?: 'cancelled' | 'completed';
  plannedMileageKm: number;
  plannedDurationMin: number;
  totalWeightKg: number;
  totalVolumeM3: number;
  breaks: Array<{ start: string; end: string }>;
}

/** The planning data (read-only here, except commitPlan). */
export interface PlanningDataStore {
  getCompany(companyId: number): MaybePromise<Company | undefined>;
  /** Orders of the company among `ids` (any status); missing ids are simply absent. */
  getOrdersByIds(companyId: number, ids: number[]): MaybePromise<PlanningOrder[]>;
  /** Orders of the company whose external_id is among `externalIds` (any status; external_id is
   *  not unique, so one value may match several orders). */
  getOrdersByExternalIds(companyId: number, externalIds: string[]): MaybePromise<PlanningOrder[]>;
  /** Vehicles of the company among `ids`, active or not. */
  getVehiclesByIds(companyId: number, ids: number[]): MaybePromise<PlanningVehicle[]>;
  /** Active vehicles of the company. */
  listActiveVehicles(companyId: number): MaybePromise<PlanningVehicle[]>;
  /** Warehouses of the company among `ids`. */
  getWarehousesByIds(companyId: number, ids: number[]): MaybePromise<Warehouse[]>;
  /** Ids of the company's vehicles that already have a route (any status but cancelled) on `date`. */
  vehicleIdsWithRouteOn(companyId: number, date: string): MaybePromise<number[]>;
  /** The company's routes of `date` in status planned or active, by id, each with its stops by position. */
  openRoutesOn(companyId: number, date: string): MaybePromise<DayRoute[]>;
  /** Each vehicle's latest position (by its own timestamp) stamped at or before `notAfter`; vehicles without one are absent. */
  lastPositions(companyId: number, vehicleIds: number[], notAfter: string): MaybePromise<DayPosition[]>;
  /** Ids of the company's orders in status new for `date`, ascending. */
  newOrderIdsOn(companyId: number, date: string): MaybePromise<number[]>;
  /**
   * Runs `fn` in ONE write transaction with the primitives a plan commit needs; commits when `fn`
   * resolves, writes nothing when it rejects. The rules of a commit (lease held, orders new and
   * unchanged since read, vehicles free) live once above it, in src/jobs/commit.ts. `fn` waits on
   * nothing but `tx` (no network, no other store call).
   */
  commitTransaction<T>(fn: (tx: PlanCommitTx) => Promise<T>): Promise<T>;
}

export type PlanningStore = JobStore & PlanningDataStore;

/** What one order is at commit time: enough to check it and to name it in the status change. */
export interface OrderAtCommit {
  id: number;
  status: OrderStatus;
  version: number;
  externalId: string | null;
}

/**
 * The primitives of a plan commit, bound to one transaction (PlanningDataStore.commitTransaction).
 * Each adapter makes them safe across processes its own way: SQLite holds the write lock for the
 * whole transaction (BEGIN IMMEDIATE); PostgreSQL locks the job row and the orders FOR UPDATE and
 * takes the company's routes lock.
 */
export interface PlanCommitTx {
  /** The job's status and lease holder (locked until the transaction ends), or undefined. */
  jobLease(jobId: number): MaybePromise<{ status: JobStatus; owner: string | null } | undefined>;
  /** Takes the company's routes lock: no other route of the company is written until the end. */
  lockRoutes(companyId: number): MaybePromise<void>;
  /** The orders of the company among `ids` as they are now (locked until the end); missing ids are absent. */
  ordersAtCommit(companyId: number, ids: number[]): MaybePromise<OrderAtCommit[]>;
  /** Ids of the company's vehicles with a route (any status but cancelled) on `date`. */
  vehicleIdsWithRouteOn(companyId: number, date: string): MaybePromise<number[]>;
  /** Inserts a route (status planned) and its stops (status pending); returns the route id. */
  insertRoute(route: NewRoute, at: string): MaybePromise<number>;
  /** Moves the orders new -> in_route (their versions go up), one history entry each, in this order. */
  markInRoute(companyId: number, orderIds: number[], at: string): MaybePromise<void>;
  /** Marks the job `done` with `result`, ending its lease; returns it. */
  finishJob(jobId: number, result: JobResult, at: string): MaybePromise<JobRecord>;
  /** Writes an event's webhook deliveries in this transaction (an adapter without an outbox does nothing). */
  publish(companyId: number, event: PlanningEvent, data: unknown): MaybePromise<void>;
  /** The company's planned and active routes of `date` with their stops as they are now (locked until the end): a re-plan's fence. */
  openRoutesOn(companyId: number, date: string): MaybePromise<DayRoute[]>;
  /** Writes the routes' new stop lists, totals, breaks and statuses (a re-plan; see RouteRewrite). */
  rewriteRoutes(companyId: number, rewrites: RouteRewrite[], at: string): MaybePromise<void>;
  /** Moves the orders in_route -> new (their versions go up), one history entry each, in this order. */
  markNew(companyId: number, orderIds: number[], at: string): MaybePromise<void>;
}

/** The events a plan commit writes to the outbox. */
export type PlanningEvent = 'planning_job.finished' | 'order.status_changed' | 'route.updated';
