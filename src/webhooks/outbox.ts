/**
 * The webhook outbox: every delivery is written here before it is sent, and leaves only as
 * delivered or given up, so none is lost to a restart or a kill -9. At-least-once: a delivery
 * that was in flight when the process died is sent again, with the same delivery id, and the
 * receiver discards the duplicate.
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
  nextDue(paused?: ReadonlySet<number>): number | null;
  delivered(id: string, attempts: number, at: number): void;
  retryLater(id: string, attempts: number, nextAttemptAt: number, error: string): void;
  giveUp(id: string, attempts: number, error: string): void;
  get(id: string): Delivery | undefined;
  list(): Delivery[];
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

interface Row {
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

const fromRow = (r: Row): Delivery => ({
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

  constructor(private readonly db: Database.Database) {
    db.exec(webhookOutboxSchema);
    this.insert = db.prepare(
      `INSERT INTO webhook_deliveries (id, subscription_id, url, secret, event, body, next_attempt_at, created_at)
       VALUES (@id, @subscriptionId, @url, @secret, @event, @body, @createdAt, @createdAt)`,
    );
    // the oldest `perSubscription` due rows of each subscription, so one dead receiver's
    // backlog cannot fill the page and starve the others
    this.selectDue = db.prepare(
      `SELECT * FROM (
         SELECT *, ROW_NUMBER() OVER (PARTITION BY subscription_id ORDER BY next_attempt_at, created_at, id) AS rank
         FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= ?
           AND subscription_id NOT IN (SELECT value FROM json_each(?)))
       WHERE rank <= ? ORDER BY next_attempt_at, created_at, id LIMIT ?`,
    );
    this.selectNext = db.prepare(
      `SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries
       WHERE status = 'pending' AND subscription_id NOT IN (SELECT value FROM json_each(?))`,
    );
    this.update = db.prepare(
      `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt,
       last_error = @lastError, delivered_at = @deliveredAt WHERE id = @id`,
    );
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
    const rows = this.selectDue.all(now, JSON.stringify([...(options.paused ?? [])]), per, limit + skip.size) as Row[];
    return rows.filter((r) => !skip.has(r.id)).slice(0, limit).map(fromRow);
  }

  nextDue(paused: ReadonlySet<number> = new Set()): number | null {
    return (this.selectNext.get(JSON.stringify([...paused])) as { at: number | null }).at;
  }

  delivered(id: string, attempts: number, at: number): void {
    this.update.run({ id, status: 'delivered', attempts, nextAttemptAt: at, lastError: '', deliveredAt: at });
  }

  retryLater(id: string, attempts: number, nextAttemptAt: number, error: string): void {
    this.update.run({ id, status: 'pending', attempts, nextAttemptAt, lastError: error, deliveredAt: null });
  }

  giveUp(id: string, attempts: number, error: string): void {
    this.update.run({ id, status: 'failed', attempts, nextAttemptAt: 0, lastError: error, deliveredAt: null });
  }

  get(id: string): Delivery | undefined {
    const row = this.selectOne.get(id) as Row | undefined;
    return row && fromRow(row);
  }

  list(): Delivery[] {
    return (this.selectAll.all() as Row[]).map(fromRow);
  }
}
