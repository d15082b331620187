/**
 * The webhook outbox on PostgreSQL: the answers and lease rules of SqliteWebhookOutbox
 * (src/webhooks/outbox.ts). `due` with a lease finds and claims in ONE statement: the oldest
 * `perSubscription` pending rows of each subscription are ranked (rows in flight under any live
 * lease rank first and take their places), and the picked rows are locked FOR UPDATE SKIP LOCKED
 * with the lease conditions checked again on the locked row, so a row another process claimed a
 * moment ago is never claimed twice. A row this owner holds already is returned again.
 */
import type { OutboxPort } from '../ports.js';
import { deliveryFromRow as fromRow, type Delivery, type DeliveryRow as Row, type DeliveryStatus, type DueOptions, type NewDelivery, } from '../../webhooks/outbox.js';
import type { Conn } from './db.js';

const byDue = (a: Row, b: Row) =>
  a.next_attempt_at - b.next_attempt_at || a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `list()` is for operators and tests; deliveries are pruned after 7 days. */
const MAX_LIST = 100_000;
/** Deliveries one `add` may write (one event fans out to a company's few subscriptions). */
const MAX_ADD = 10_000;

export class PgWebhookOutbox implements OutboxPort {
  constructor(private readonly db: Conn) {}

  /** All in one statement (atomic on its own; inside a transaction, part of it). */
  async add(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    if (deliveries.length > MAX_ADD) throw new RangeError(`outbox add: at most ${MAX_ADD} deliveries at once`);
    await this.db.run(
      `INSERT INTO webhook_deliveries (id, subscription_id, url, secret, event, body, next_attempt_at, created_at)
       SELECT d.id, d.sub, d.url, d.secret, d.event, d.body, d.created, d.created
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
           AS d(id, sub, url, secret, event, body, created)`,
      [
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.subscriptionId),
        deliveries.map((d) => d.url),
        deliveries.map((d) => d.secret),
        deliveries.map((d) => d.event),
        deliveries.map((d) => d.body),
        deliveries.map((d) => d.createdAt),
      ],
    );
  }

  async due(now: number, limit: number, skip: ReadonlySet<string>, options: DueOptions = {}): Promise<Delivery[]> {
    const per = options.perSubscription ?? 1_000_000;
    const paused = [...(options.paused ?? [])];
    const owner = options.lease?.owner ?? null;
    const ranked = `
      SELECT id, ROW_NUMBER() OVER (
          PARTITION BY subscription_id ORDER BY COALESCE(lease_until, 0) > $1 DESC, next_attempt_at, created_at, id) AS rank
        FROM webhook_deliveries
       WHERE status = 'pending' AND (next_attempt_at <= $1 OR COALESCE(lease_until, 0) > $1)
         AND NOT (subscription_id = ANY($2::bigint[]))`;
    // the conditions on d are read again on the locked row version (READ COMMITTED re-check)
    const pickable = `
      r.rank <= $3 AND d.status = 'pending' AND (COALESCE(d.lease_until, 0) <= $1 OR d.lease_owner = $4)
      AND NOT (d.id = ANY($5::text[]))`;
    if (!options.lease) {
      const rows = await this.db.rows<Row>(
        `SELECT d.* FROM webhook_deliveries d JOIN (${ranked}) r ON r.id = d.id
          WHERE ${pickable}
          ORDER BY d.next_attempt_at, d.created_at, d.id LIMIT $6`,
        [now, paused, per, owner, [...skip], limit],
      );
      return rows.sort(byDue).map(fromRow);
    }
    const rows = await this.db.rows<Row>(
      `WITH ranked AS (${ranked}),
       pick AS (
         SELECT d.id FROM webhook_deliveries d JOIN ranked r ON r.id = d.id
          WHERE ${pickable}
          ORDER BY d.next_attempt_at, d.created_at, d.id LIMIT $6
          FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries w SET lease_owner = $4, lease_until = $7 FROM pick WHERE w.id = pick.id
       RETURNING w.*`,
      [now, paused, per, owner, [...skip], limit, options.lease.until],
    );
    return rows.sort(byDue).map(fromRow);
  }

  async nextDue(paused: ReadonlySet<number> = new Set(), now = Date.now()): Promise<number | null> {
    const row = await this.db.one<{ at: number | null }>(
      `SELECT MIN(CASE WHEN COALESCE(lease_until, 0) > $1 THEN lease_until ELSE next_attempt_at END) AS at FROM webhook_deliveries
        WHERE status = 'pending' AND NOT (subscription_id = ANY($2::bigint[]))`,
      [now, [...paused]],
    );
    return row?.at ?? null;
  }

  private async write(id: string, status: DeliveryStatus, attempts: number, nextAttemptAt: number, lastError: string, deliveredAt: number | null, owner?: string) {
    const n = await this.db.run(
      `UPDATE webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4, last_error = $5, delivered_at = $6,
         lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND ($7::text IS NULL OR lease_owner = $7)`,
      [id, status, attempts, nextAttemptAt, lastError, deliveredAt, owner ?? null],
    );
    return n === 1;
  }

  async delivered(id: string, attempts: number, at: number, owner?: string): Promise<boolean> {
    return this.write(id, 'delivered', attempts, at, '', at, owner);
  }

  async retryLater(id: string, attempts: number, nextAttemptAt: number, error: string, owner?: string): Promise<boolean> {
    return this.write(id, 'pending', attempts, nextAttemptAt, error, null, owner);
  }

  async giveUp(id: string, attempts: number, error: string, owner?: string): Promise<boolean> {
    return this.write(id, 'failed', attempts, 0, error, null, owner);
  }

  /** Delivered rows delivered before `before` (epoch ms), removed in batches of `batch` statements. */
  async pruneDelivered(before: number, batch = 5_000): Promise<number> {
    let removed = 0;
    for (;;) {
      const n = await this.db.run(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE status = 'delivered' AND delivered_at < $1 ORDER BY delivered_at LIMIT $2)`,
        [before, batch],
      );
      removed += n;
      if (n < batch) return removed;
    }
  }

  async release(id: string, owner: string): Promise<void> {
    await this.db.run('UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [id, owner]);
  }

  async get(id: string): Promise<Delivery | undefined> {
    const row = await this.db.one<Row>('SELECT * FROM webhook_deliveries WHERE id = $1', [id]);
    return row && fromRow(row);
  }

  async countPending(): Promise<number> {
    const row = await this.db.one<{ n: string }>(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'`);
    return Number(row?.n ?? 0);
  }

  async list(): Promise<Delivery[]> {
    return (await this.db.rows<Row>('SELECT * FROM webhook_deliveries ORDER BY created_at, id LIMIT $1', [MAX_LIST])).map(fromRow);
  }
}
