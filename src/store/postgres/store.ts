/**
 * The PostgreSQL store: `StorePort` (src/store/port.ts) on one pg Pool. `PgStore.open(url)`
 * creates the pool and applies the migrations (migrations.ts, under an advisory lock).
 *
 * Transactions: `transaction(fn)` checks one client out of the pool, BEGIN, runs `fn` with the
 * repositories bound to that client, COMMIT (ROLLBACK when `fn` rejects), and returns the client.
 * READ COMMITTED (PostgreSQL's default); where a read decides a write across processes the
 * repositories lock: rows FOR UPDATE, or transaction-scoped advisory locks (locks.ts). A
 * transaction may be aborted by PostgreSQL with a deadlock (SQLSTATE 40P01) or, rarely, a
 * serialization failure (40001): nothing of it is written and the caller may run it again.
 */
import type pg from 'pg';
import type { Repositories, StorePort } from '../port.js';
import { PgApiKeyRepository } from './api-keys.js';
import { PgCompanyRepository } from './companies.js';
import { createPool, PoolConn, type Conn, type PoolOptions } from './db.js';
import { PgVehicleRepository, PgWarehouseRepository } from './fleet.js';
import { PgGeocodeQueueRepository } from './geocode-queue.js';
import { migratePg, pgMigrations, type PgMigration } from './migrations.js';
import { PgOrderRepository } from './orders.js';
import { PgWebhookOutbox } from './outbox.js';
import { PgPlanningStore, type PlanningPublisher } from './planning.js';
import { PgRouteRepository } from './routes.js';
import { PgWebhookRepository } from './webhooks.js';
import { publishIn } from '../../webhooks/publish.js';
import type { OutboxQuota } from '../types.js';

/** The repositories on a Conn: the pool (each call on its own) or one transaction's client. */
export function pgRepositories(db: Conn, outboxQuota?: OutboxQuota): Repositories {
  return {
    companies: new PgCompanyRepository(db),
    apiKeys: new PgApiKeyRepository(db),
    warehouses: new PgWarehouseRepository(db),
    vehicles: new PgVehicleRepository(db),
    orders: new PgOrderRepository(db),
    geocodeQueue: new PgGeocodeQueueRepository(db),
    webhooks: new PgWebhookRepository(db),
    routes: new PgRouteRepository(db),
    outbox: new PgWebhookOutbox(db, outboxQuota),
  };
}

export interface PgOpenOptions extends PoolOptions {
  /** Extra migrations appended after the built-in ones (tests, later parts of the service). */
  migrations?: PgMigration[];
  /** The planning store's publish hook (PgPlanningStore.setPublisher). */
  publish?: PlanningPublisher;
  /** The outbox's pending-deliveries quota per subscription (default DEFAULT_MAX_PENDING_DELIVERIES). */
  outboxQuota?: OutboxQuota;
}

export class PgStore implements StorePort {
  readonly kind = 'postgres' as const;
  readonly companies: PgCompanyRepository;
  readonly apiKeys: PgApiKeyRepository;
  readonly warehouses: PgWarehouseRepository;
  readonly vehicles: PgVehicleRepository;
  readonly orders: PgOrderRepository;
  readonly geocodeQueue: PgGeocodeQueueRepository;
  readonly webhooks: PgWebhookRepository;
  readonly routes: PgRouteRepository;
  readonly outbox: PgWebhookOutbox;
  readonly planning: PgPlanningStore;
  private readonly db: PoolConn;
  private closed = false;

  private constructor(readonly pool: pg.Pool, publish?: PlanningPublisher, private readonly outboxQuota?: OutboxQuota) {
    this.db = new PoolConn(pool);
    const repos = pgRepositories(this.db, outboxQuota) as {
      companies: PgCompanyRepository;
      apiKeys: PgApiKeyRepository;
      warehouses: PgWarehouseRepository;
      vehicles: PgVehicleRepository;
      orders: PgOrderRepository;
      geocodeQueue: PgGeocodeQueueRepository;
      webhooks: PgWebhookRepository;
      routes: PgRouteRepository;
      outbox: PgWebhookOutbox;
    };
    this.companies = repos.companies;
    this.apiKeys = repos.apiKeys;
    this.warehouses = repos.warehouses;
    this.vehicles = repos.vehicles;
    this.orders = repos.orders;
    this.geocodeQueue = repos.geocodeQueue;
    this.webhooks = repos.webhooks;
    this.routes = repos.routes;
    this.outbox = repos.outbox;
    // by default the job layer's webhooks are written like every other event's (publishIn)
    this.planning = new PgPlanningStore(this.db, (db) => pgRepositories(db, outboxQuota), publish ?? ((tx, companyId, event, data) => publishIn(tx, companyId, event, data).then(() => undefined)));
  }

  /** Connects to `url` (postgres://USER@HOST:PORT/DB), migrates, and answers the store. */
  static async open(url: string, options: PgOpenOptions = {}): Promise<PgStore> {
    const pool = createPool(url, options);
    try {
      await migratePg(pool, [...pgMigrations, ...(options.migrations ?? [])]);
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return new PgStore(pool, options.publish, options.outboxQuota);
  }

  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.db.atomic((tx) => fn(pgRepositories(tx, this.outboxQuota)));
  }

  /** Housekeeping: delivered webhooks older than `before` (epoch ms), at most `limit`; how many went. */
  pruneDeliveredWebhooks(before: number, limit = 5_000): Promise<number> {
    return this.db.run(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE status = 'delivered' AND delivered_at < $1 ORDER BY delivered_at LIMIT $2)`,
      [before, limit],
    );
  }

  /** Housekeeping: Idempotency-Keys recorded before `before` (ISO), at most `limit`; how many went. */
  pruneIdempotencyKeys(before: string, limit = 5_000): Promise<number> {
    return this.planning.pruneIdempotencyKeys(before, limit);
  }

  /** Ends the pool (waits for checked-out clients to be returned). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
