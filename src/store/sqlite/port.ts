/**
 * The storage port (port.ts) on the embedded SQLite store: the synchronous repositories behind a
 * gate. better-sqlite3 has one connection and a transaction is a state of that connection, so while
 * `transaction(fn)` runs (BEGIN IMMEDIATE ... COMMIT, across `fn`'s awaits) every other use of the
 * store waits for it: nothing from another request can land inside it, or see it half done. A
 * call outside a transaction runs at once (one microtask later) when no transaction is open.
 * `fn` waits on nothing but these repositories, so a transaction holds the gate for the time of
 * its statements only.
 */
import type { PlanCommitTx, PlanningStore } from '../../jobs/ports.js';
import { OutboxPlanningStore } from './planning-outbox.js';
import type { Async, Repositories, StorePort } from '../port.js';
import type { ApiKeysPort, CompaniesPort, GeocodeQueuePort, OrdersPort, OutboxPort, RoutesPort, VehiclesPort, WarehousesPort, WebhooksPort } from '../ports.js';
import type { ApiKeyRepository } from './api-keys.js';
import type { CompanyRepository } from './companies.js';
import type { VehicleRepository, WarehouseRepository } from './fleet.js';
import type { GeocodeQueueRepository } from './geocode-queue.js';
import type { OrderRepository } from './orders.js';
import type { SqliteWebhookOutbox } from './outbox.js';
import type { RouteRepository } from './routes.js';
import type { WebhookRepository } from './webhooks.js';
import type { Store } from './store.js';
import type { GroupCommit } from './durability.js';

/** The compiler checks that each synchronous repository, made asynchronous by the gate, is its port. */
type Is<Port, Repository> = Async<Repository> extends Port ? true : never;
export const repositoriesAreTheirPorts: [
  Is<CompaniesPort, CompanyRepository>,
  Is<ApiKeysPort, ApiKeyRepository>,
  Is<WarehousesPort, WarehouseRepository>,
  Is<VehiclesPort, VehicleRepository>,
  Is<OrdersPort, OrderRepository>,
  Is<GeocodeQueuePort, GeocodeQueueRepository>,
  Is<WebhooksPort, WebhookRepository>,
  Is<RoutesPort, RouteRepository>,
  Is<OutboxPort, SqliteWebhookOutbox>,
] = [true, true, true, true, true, true, true, true, true];

/** Every method of `target` made asynchronous, each call first waiting for `ready()`, then for `done` of what it did. */
function gated<T extends object>(target: T, ready: () => Promise<void> | undefined, done?: GroupCommit): any {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function') return value;
      if (!done) {
        return async (...args: unknown[]) => {
          for (let wait = ready(); wait; wait = ready()) await wait;
          return value.apply(obj, args);
        };
      }
      return async (...args: unknown[]) => {
        for (let wait = ready(); wait; wait = ready()) await wait;
        // counted in the same step as the call, before and after: no transaction is open then, so
        // a count that moved is this call's commit (or another process's, seen meanwhile)
        const before = done.observe();
        let result: unknown;
        try {
          result = value.apply(obj, args);
        } finally {
          const after = done.observe();
          if (after > before) await done.until(after);
        }
        return result;
      };
    },
  });
}

export class SqliteStorePort implements StorePort {
  readonly kind = 'sqlite' as const;
  readonly companies: Repositories['companies'];
  readonly apiKeys: Repositories['apiKeys'];
  readonly warehouses: Repositories['warehouses'];
  readonly vehicles: Repositories['vehicles'];
  readonly orders: Repositories['orders'];
  readonly geocodeQueue: Repositories['geocodeQueue'];
  readonly webhooks: Repositories['webhooks'];
  readonly routes: Repositories['routes'];
  readonly outbox: Repositories['outbox'];
  readonly planning: PlanningStore;
  private readonly tx: Repositories;
  /** Resolves when the open transaction ends; undefined when none is open. */
  private open: Promise<void> | undefined;

  constructor(readonly store: Store) {
    const raw = {
      companies: store.companies,
      apiKeys: store.apiKeys,
      warehouses: store.warehouses,
      vehicles: store.vehicles,
      orders: store.orders,
      geocodeQueue: store.geocodeQueue,
      webhooks: store.webhooks,
      routes: store.routes,
      outbox: store.outbox,
    };
    const outside = () => this.open;
    const inside = () => undefined;
    // group commit (durability.ts): a call outside a transaction that committed answers after the
    // sync of what it did; a call that only read answers at once
    const done = store.durability;
    this.companies = gated(raw.companies, outside, done);
    this.apiKeys = gated(raw.apiKeys, outside, done);
    this.warehouses = gated(raw.warehouses, outside, done);
    this.vehicles = gated(raw.vehicles, outside, done);
    this.orders = gated(raw.orders, outside, done);
    this.geocodeQueue = gated(raw.geocodeQueue, outside, done);
    this.webhooks = gated(raw.webhooks, outside, done);
    this.routes = gated(raw.routes, outside, done);
    this.outbox = gated(raw.outbox, outside, done);
    const planning = new OutboxPlanningStore(store.db, undefined, store.outbox);
    const gatedPlanning = gated(planning, outside, done);
    // a plan commit is a transaction across awaits (src/jobs/commit.ts): it holds the gate as
    // transaction() does, and its primitives run on the connection directly
    this.planning = new Proxy(gatedPlanning, {
      get: (obj, prop, receiver) =>
        prop === 'commitTransaction'
          ? (fn: (tx: PlanCommitTx) => Promise<unknown>) => this.exclusive(() => planning.commitTransaction(fn))
          : Reflect.get(obj, prop, receiver),
    });
    this.tx = Object.fromEntries(Object.entries(raw).map(([name, repo]) => [name, gated(repo, inside)])) as unknown as Repositories;
  }

  async transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const db = this.store.db;
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.tx);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /**
   * Runs `fn` holding the gate: every other call on this port waits until it settles. With group
   * commit it answers after the sync of its commit, the gate already open to the next (so the
   * transactions of a moment share a sync).
   */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.open) await this.open;
    let end!: () => void;
    this.open = new Promise<void>((resolve) => (end = resolve));
    const done = this.store.durability;
    // counted with the gate held and no transaction open, before and after
    const before = done?.observe() ?? 0;
    let after = 0;
    try {
      return await fn();
    } finally {
      // counted before the gate opens: the transaction has ended, no other has begun
      if (done) after = done.observe();
      this.open = undefined;
      end();
      if (done && after > before) await done.until(after);
    }
  }

  async close(): Promise<void> {
    while (this.open) await this.open;
    await this.store.durability?.idle();
    await this.store.close();
  }
}

const ports = new WeakMap<Store, SqliteStorePort>();

/** The one port of a SQLite store (one gate per connection), or the port given. */
export function portOf(store: Store | StorePort): StorePort {
  if ('kind' in store) return store;
  let port = ports.get(store);
  if (!port) ports.set(store, (port = new SqliteStorePort(store)));
  return port;
}
