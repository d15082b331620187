/**
 * The storage port: what the service needs of a database, the same for every adapter (SQLite in
 * src/store/sqlite/, PostgreSQL in src/store/postgres/): the repositories, one hand-written
 * asynchronous interface per aggregate (ports.ts), and transactions over them.
 *
 * Transactions: `transaction(fn)` runs `fn` with repositories bound to one transaction (SQLite:
 * BEGIN IMMEDIATE on the one connection, every other use of the store waiting for it to end;
 * PostgreSQL: one pooled client, BEGIN ... COMMIT). It commits when `fn` resolves and rolls back
 * when it rejects. Inside, use only `tx`, never the store itself (that would wait for the
 * transaction that waits for it). `fn` must not wait for anything but the database (no network).
 */
import type { PlanningStore } from '../jobs/ports.js';
import type { ApiKeysPort, CompaniesPort, GeocodeQueuePort, OrdersPort, OutboxPort, RoutesPort, VehiclesPort, WarehousesPort, WebhooksPort } from './ports.js';

/** The asynchronous form of a repository: each method answers a Promise of the same value. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** The repositories, one per aggregate (the same set in and out of a transaction). */
export interface Repositories {
  readonly companies: CompaniesPort;
  readonly apiKeys: ApiKeysPort;
  readonly warehouses: WarehousesPort;
  readonly vehicles: VehiclesPort;
  readonly orders: OrdersPort;
  readonly geocodeQueue: GeocodeQueuePort;
  readonly webhooks: WebhooksPort;
  readonly routes: RoutesPort;
  /** The webhook outbox (src/store/sqlite/outbox.ts, src/store/postgres/outbox.ts): deliveries are added inside the change's transaction. */
  readonly outbox: OutboxPort;
}

export interface StorePort extends Repositories {
  /** 'sqlite' or 'postgres' (logs, README). */
  readonly kind: 'sqlite' | 'postgres';
  /** The planning job layer's port (src/jobs/ports.ts): jobs, leases, plan commits in their own transactions. */
  readonly planning: PlanningStore;
  /** Runs `fn` in one write transaction (see the file comment). */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
