/**
 * The storage port: what the service needs of a database, the same for every adapter (SQLite in
 * src/store/sqlite/, PostgreSQL in src/store/postgres/). Every method is asynchronous here; the
 * SQLite repositories are synchronous (better-sqlite3) and are the reference for names, arguments
 * and answers: `Async<Repository>` turns one into its port.
 *
 * Transactions: `transaction(fn)` runs `fn` with repositories bound to one transaction (SQLite:
 * BEGIN IMMEDIATE on the one connection, every other use of the store waiting for it to end;
 * PostgreSQL: one pooled client, BEGIN ... COMMIT). It commits when `fn` resolves and rolls back
 * when it rejects. Inside, use only `tx`, never the store itself (that would wait for the
 * transaction that waits for it). `fn` must not wait for anything but the database (no network).
 */
import type { ApiKeyRepository } from './sqlite/api-keys.js';
import type { CompanyRepository } from './sqlite/companies.js';
import type { VehicleRepository, WarehouseRepository } from './sqlite/fleet.js';
import type { GeocodeQueueRepository } from './sqlite/geocode-queue.js';
import type { OrderRepository } from './sqlite/orders.js';
import type { RouteRepository } from './sqlite/routes.js';
import type { WebhookRepository } from './sqlite/webhooks.js';
import type { PlanningStore } from '../jobs/ports.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';

/** The asynchronous form of a repository: each method answers a Promise of the same value. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** The repositories, one per aggregate (the same set in and out of a transaction). */
export interface Repositories {
  readonly companies: Async<CompanyRepository>;
  readonly apiKeys: Async<ApiKeyRepository>;
  readonly warehouses: Async<WarehouseRepository>;
  readonly vehicles: Async<VehicleRepository>;
  readonly orders: Async<OrderRepository>;
  readonly geocodeQueue: Async<GeocodeQueueRepository>;
  readonly webhooks: Async<WebhookRepository>;
  readonly routes: Async<RouteRepository>;
  /** The webhook outbox (src/webhooks/outbox.ts): deliveries are added inside the change's transaction. */
  readonly outbox: Async<WebhookOutbox>;
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
