/**
 * The webhook outbox: every delivery is written here before it is sent, and leaves only as
 * delivered or given up, so none is lost to a restart or a kill -9. At-least-once: a delivery
 * that was in flight when the process died is sent again, with the same delivery id, and the
 * receiver discards the duplicate.
 *
 * Several processes may send from one outbox: a delivery is claimed with a lease (its owner and
 * `lease_until`) in the step that finds it due, so one process at a time has it in flight; the
 * outcome is written only by the lease holder. A process that dies mid-send leaves the lease to run
 * out, and the delivery goes out again from another process, with the same id.
 */
import type Database from 'better-sqlite3';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

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

export interface WebhookOutbox {
  add(deliveries: NewDelivery[]): void;
  /**
   * Pending deliveries due at `now`, oldest first: at most `perSubscription` of one subscription
   * (in flight ones, `skip`, count and are left out), none of the `paused` subscriptions.
   */
  due(now: number, limit: number, skip: ReadonlySet<string>, options?: DueOptions): Delivery[];
  /** Epoch ms of the earliest pending try (not of the `paused` subscriptions), or null. */
  nextDue(paused?: ReadonlySet<number>, now?: number): number | null;
  /** The outcome writes end the lease; with `owner`, only the lease holder's write lands (false
   *  when another process holds the delivery now). */
  delivered(id: string, attempts: number, at: number, owner?: string): boolean;
  retryLater(id: string, attempts: number, nextAttemptAt: number, error: string, owner?: string): boolean;
  giveUp(id: string, attempts: number, error: string, owner?: string): boolean;
  /** Hands a claimed delivery back untouched (its try was stopped by a shutdown). */
  release(id: string, owner: string): void;
  /** Removes delivered rows delivered before `before` (epoch ms); how many. */
  pruneDelivered(before: number): number;
  get(id: string): Delivery | undefined;
  list(): Delivery[];
  /** Pending deliveries, paused subscriptions' included (the backlog metric). */
  countPending(): number;
}

/** The table this outbox keeps in the service's SQLite database. Idempotent. */
export const webhookOutboxSchema = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id TEXT PRIMARY KEY,
  subscription_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  delivered_at INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
`;

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

/** Lease columns of webhook_deliveries (migration 106; added here too for an outbox on its own). */
function ensureLeaseColumns(db: Database.Database): void {
  const columns = new Set((db.prepare(`PRAGMA table_info(webhook_deliveries)`).all() as Array<{ name: string }>).map((c) => c.name));
  if (!columns.has('lease_owner')) db.exec(`ALTER TABLE webhook_deliveries ADD COLUMN lease_owner TEXT`);
  if (!columns.has('lease_until')) db.exec(`ALTER TABLE webhook_deliveries ADD COLUMN lease_until INTEGER`);
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

export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly insert: Database.Statement;
  private readonly selectDue: Database.Statement;
  private readonly selectNext: Database.Statement;
  private readonly update: Database.Statement;
  private readonly selectOne: Database.Statement;
  private readonly selectAll: Database.Statement;
  private readonly claim: Database.Statement;

  constructor(private readonly db: Database.Database) {
    // an outbox on a database of its own (the service's gets its table from the migrations):
    // created in one write transaction, so two processes opening it at once do it once
    db.transaction(() => {
      db.exec(webhookOutboxSchema);
      ensureLeaseColumns(db);
    }).immediate();
    this.insert = db.prepare(
      `INSERT INTO webhook_deliveries (id, subscription_id, url, secret, event, body, next_attempt_at, created_at)
       VALUES (@id, @subscriptionId, @url, @secret, @event, @body, @createdAt, @createdAt)`,
    );
    // the oldest `perSubscription` due rows of each subscription, so one dead receiver's
    // backlog cannot fill the page and starve the others; deliveries in flight anywhere (leased)
    // rank first, so they take their subscription's places and are not returned
    this.selectDue = db.prepare(
      `SELECT * FROM (
         SELECT *, ROW_NUMBER() OVER (
             PARTITION BY subscription_id ORDER BY COALESCE(lease_until, 0) > @now DESC, next_attempt_at, created_at, id) AS rank
         FROM webhook_deliveries
         WHERE status = 'pending' AND (next_attempt_at <= @now OR COALESCE(lease_until, 0) > @now)
           AND subscription_id NOT IN (SELECT value FROM json_each(@paused)))
       WHERE rank <= @per AND (COALESCE(lease_until, 0) <= @now OR lease_owner = @owner)
       ORDER BY next_attempt_at, created_at, id LIMIT @limit`,
    );
    this.selectNext = db.prepare(
      `SELECT MIN(CASE WHEN COALESCE(lease_until, 0) > @now THEN lease_until ELSE next_attempt_at END) AS at FROM webhook_deliveries
       WHERE status = 'pending' AND subscription_id NOT IN (SELECT value FROM json_each(@paused))`,
    );
    this.update = db.prepare(
      `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt,
       last_error = @lastError, delivered_at = @deliveredAt, lease_owner = NULL, lease_until = NULL
       WHERE id = @id AND (@owner IS NULL OR lease_owner = @owner)`,
    );
    this.claim = db.prepare(`UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE id = ?`);
    this.selectOne = db.prepare(`SELECT * FROM webhook_deliveries WHERE id = ?`);
    this.selectAll = db.prepare(`SELECT * FROM webhook_deliveries ORDER BY created_at, id`);
  }

  add(deliveries: NewDelivery[]): void {
    this.db.transaction((items: NewDelivery[]) => {
      for (const d of items) this.insert.run(d);
    })(deliveries);
  }

  due(now: number, limit: number, skip: ReadonlySet<string>, options: DueOptions = {}): Delivery[] {
    const per = options.perSubscription ?? 1_000_000;
    const find = () => {
      const rows = this.selectDue.all({
        now,
        paused: JSON.stringify([...(options.paused ?? [])]),
        per,
        limit: limit + skip.size,
        owner: options.lease?.owner ?? null,
      }) as DeliveryRow[];
      const picked = rows.filter((r) => !skip.has(r.id)).slice(0, limit);
      if (options.lease) for (const r of picked) this.claim.run(options.lease.owner, options.lease.until, r.id);
      return picked.map(deliveryFromRow);
    };
    // find and claim in one write transaction: two processes never claim the same delivery
    return options.lease ? this.db.transaction(find).immediate() : find();
  }

  nextDue(paused: ReadonlySet<number> = new Set(), now = Date.now()): number | null {
    return (this.selectNext.get({ now, paused: JSON.stringify([...paused]) }) as { at: number | null }).at;
  }

  delivered(id: string, attempts: number, at: number, owner?: string): boolean {
    return this.update.run({ id, status: 'delivered', attempts, nextAttemptAt: at, lastError: '', deliveredAt: at, owner: owner ?? null }).changes === 1;
  }

  retryLater(id: string, attempts: number, nextAttemptAt: number, error: string, owner?: string): boolean {
    return this.update.run({ id, status: 'pending', attempts, nextAttemptAt, lastError: error, deliveredAt: null, owner: owner ?? null }).changes === 1;
  }

  giveUp(id: string, attempts: number, error: string, owner?: string): boolean {
    return this.update.run({ id, status: 'failed', attempts, nextAttemptAt: 0, lastError: error, deliveredAt: null, owner: owner ?? null }).changes === 1;
  }

  pruneDelivered(before: number): number {
    return this.db.prepare(`DELETE FROM webhook_deliveries WHERE status = 'delivered' AND delivered_at < ?`).run(before).changes;
  }

  release(id: string, owner: string): void {
    this.db.prepare(`UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`).run(id, owner);
  }

  get(id: string): Delivery | undefined {
    const row = this.selectOne.get(id) as DeliveryRow | undefined;
    return row && deliveryFromRow(row);
  }

  list(): Delivery[] {
    return (this.selectAll.all() as DeliveryRow[]).map(deliveryFromRow);
  }

  countPending(): number {
    // counted on the (status, next_attempt_at) index
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'`).get() as { n: number }).n;
  }
}
