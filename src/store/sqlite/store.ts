import { ApiKeyRepository } from './api-keys.js';
import { CompanyRepository } from './companies.js';
import { Checkpointer } from './checkpointer.js';
import { openDatabase, type Db, type OpenOptions } from './db.js';
import { GroupCommit } from './durability.js';
import { VehicleRepository, WarehouseRepository } from './fleet.js';
import { GeocodeQueueRepository } from './geocode-queue.js';
import { OrderRepository } from './orders.js';
import { SqliteWebhookOutbox } from './outbox.js';
import { RouteRepository } from './routes.js';
import { WebhookRepository } from './webhooks.js';
import type { OutboxQuota } from '../types.js';

/** The SQLite store: one connection, one repository per aggregate. */
export class Store {
  readonly companies: CompanyRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly warehouses: WarehouseRepository;
  readonly vehicles: VehicleRepository;
  readonly orders: OrderRepository;
  readonly geocodeQueue: GeocodeQueueRepository;
  readonly webhooks: WebhookRepository;
  /** Routes, stops and vehicle positions (read API, dispatch API). */
  readonly routes: RouteRepository;
  /** The webhook outbox (outbox.ts). */
  readonly outbox: SqliteWebhookOutbox;

  /** Group commit (`synchronous: 'group'`): the storage port waits on it; undefined at FULL. */
  readonly durability: GroupCommit | undefined;
  /** The checkpoint thread of a 'group' store. */
  readonly checkpointer: Checkpointer | undefined;

  constructor(readonly db: Db, outboxQuota?: OutboxQuota, group?: { durability: GroupCommit; checkpointer: Checkpointer }) {
    this.durability = group?.durability;
    this.checkpointer = group?.checkpointer;
    this.companies = new CompanyRepository(db);
    this.apiKeys = new ApiKeyRepository(db);
    this.warehouses = new WarehouseRepository(db);
    this.vehicles = new VehicleRepository(db);
    this.orders = new OrderRepository(db);
    this.geocodeQueue = new GeocodeQueueRepository(db);
    this.webhooks = new WebhookRepository(db);
    this.routes = new RouteRepository(db);
    this.outbox = new SqliteWebhookOutbox(db, outboxQuota);
  }

  static open(path: string, options?: OpenOptions): Store {
    const file = path !== ':memory:' && !path.startsWith('file:');
    const group = options?.synchronous === 'group' && file;
    const db = openDatabase(path, { ...options, synchronous: group ? 'group' : 'full' });
    if (!group) return new Store(db, options?.outboxQuota);
    const durability = new GroupCommit(db, path);
    const checkpointer = new Checkpointer(db, path, {
      intervalMs: options?.checkpointIntervalMs,
      // a lost thread costs the event loop the checkpoints' syncs again, never the WAL's bound
      onLost: (reason) => process.emitWarning(`${reason}; WAL checkpoints run on commit again (${path})`, 'SqliteCheckpointWarning'),
    });
    return new Store(db, options?.outboxQuota, { durability, checkpointer });
  }

  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE: takes the write lock at once, so two
   * processes cannot interleave a read-then-insert). Nested calls become savepoints.
   */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return this.db.transaction(fn)();
    return this.db.transaction(fn).immediate();
  }

  /**
   * Closes the connection at once; the promise settles once the checkpoint thread has closed its own
   * (a caller that removes the files waits for it: the storage port's close does).
   */
  close(): Promise<void> {
    const thread = this.checkpointer?.stop() ?? Promise.resolve();
    if (this.db.open) this.db.close();
    this.durability?.close();
    return thread;
  }
}
