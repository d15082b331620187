/**
 * The webhook outbox on PostgreSQL: the answers and lease rules of the SQLite adapter
 * (src/store/sqlite/outbox.ts), both the OutboxPort of src/store/ports.ts. `due` with a lease finds
 * and claims in ONE statement: per subscription, the rows in flight under a live lease take their
 * places first, then the oldest due rows fill the rest up to `perSubscription`; the picked rows are
 * locked FOR UPDATE SKIP LOCKED with the lease conditions checked again on the locked row, so a row
 * another process claimed a moment ago is never claimed twice. A row this owner holds already is
 * returned again.
 *
 * The look does not grow with the backlog (issue 38, item 2): a recursive walk of the index finds
 * the subscriptions that have pending rows (one seek each; paused ones are dropped before any of
 * their rows is read), and per subscription a LATERAL reads at most `perSubscription` rows on the
 * (subscription_id, next_attempt_at, created_at, id) index of pending rows and the live leases on
 * their own index (migration 120).
 */
import type { OutboxPort } from '../ports.js';
import { byDue, DEFAULT_MAX_PENDING_DELIVERIES, deliveryFromRow as fromRow, type Delivery, type DeliveryRow as Row, type DeliveryStatus, type DueOptions, type NewDelivery, type OutboxQuota } from '../types.js';
import { withinQuota } from '../quota.js';
import type { Conn } from './db.js';

/** `list()` is for operators and tests; deliveries are pruned after 7 days. */
const MAX_LIST = 100_000;
/** Deliveries one `add` may write (one event fans out to a company's few subscriptions). */
const MAX_ADD = 10_000;
/** Pending rows of one subscription a look reads at most (with no `perSubscription` given). */
const MAX_PER_SUBSCRIPTION = 10_000;

/** The subscriptions with a pending delivery, walked on webhook_deliveries_pending (one seek each), minus $2 (paused). */
const SUBSCRIPTIONS = `
  subs(sub) AS (
    SELECT MIN(subscription_id) FROM webhook_deliveries WHERE status = 'pending'
    UNION ALL
    SELECT (SELECT MIN(subscription_id) FROM webhook_deliveries WHERE status = 'pending' AND subscription_id > s.sub)
      FROM subs s WHERE s.sub IS NOT NULL),
  active(sub) AS (SELECT sub FROM subs WHERE sub IS NOT NULL AND NOT (sub = ANY($2::bigint[])))`;

/**
 * The look's statement (without the claim): $1 now, $2 paused, $3 per subscription, $4 owner,
 * $5 skip, $6 limit, $7 rows of one subscription past the skipped ones. Exported for the plan
 * test (test/store/queue-plans.test.ts).
 */
export const OUTBOX_DUE_SQL = `
  WITH RECURSIVE ${SUBSCRIPTIONS},
  ranked AS (
    SELECT c.* FROM active a CROSS JOIN LATERAL (
      SELECT x.* FROM (
        (SELECT id, next_attempt_at, created_at, lease_owner, 0 AS part FROM webhook_deliveries
          WHERE status = 'pending' AND subscription_id = a.sub AND lease_until > $1
          ORDER BY next_attempt_at, created_at, id LIMIT $3)
        UNION ALL
        (SELECT id, next_attempt_at, created_at, lease_owner, 1 AS part FROM webhook_deliveries
          WHERE status = 'pending' AND subscription_id = a.sub AND next_attempt_at <= $1 AND COALESCE(lease_until, 0) <= $1
          ORDER BY subscription_id, next_attempt_at, created_at, id LIMIT $7)
      ) x ORDER BY x.part, x.next_attempt_at, x.created_at, x.id LIMIT $3) c),
  chosen AS (
    SELECT id FROM ranked WHERE (part = 1 OR lease_owner = $4) AND NOT (id = ANY($5::text[]))
     ORDER BY next_attempt_at, created_at, id LIMIT $6)`;

/**
 * When the next try is due: $1 now, $2 paused. (The ORDER BY names subscription_id, fixed by the
 * WHERE, so that the planner reads webhook_deliveries_pending in order; ordered by next_attempt_at
 * alone it took webhook_deliveries_due and filtered every pending row by subscription.)
 */
export const OUTBOX_NEXT_DUE_SQL = `
  WITH RECURSIVE ${SUBSCRIPTIONS}
  SELECT LEAST(MIN(x.lease_end), MIN(x.next_try)) AS at FROM active a CROSS JOIN LATERAL (
    SELECT
      (SELECT MIN(lease_until) FROM webhook_deliveries
        WHERE status = 'pending' AND subscription_id = a.sub AND lease_until > $1) AS lease_end,
      (SELECT next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND subscription_id = a.sub AND COALESCE(lease_until, 0) <= $1
        ORDER BY subscription_id, next_attempt_at, created_at, id LIMIT 1) AS next_try) x`;

export class PgWebhookOutbox implements OutboxPort {
  constructor(
    private readonly db: Conn,
    private readonly quota: OutboxQuota = { maxPending: DEFAULT_MAX_PENDING_DELIVERIES },
  ) {}

  /** One insert (atomic on its own; inside a transaction, part of it), none past a subscription's pending quota. */
  async add(all: NewDelivery[]): Promise<void> {
    if (all.length === 0) return;
    const counts = await this.db.rows<{ subscription_id: number; n: number }>(
      'SELECT subscription_id, n FROM webhook_pending_counts WHERE subscription_id = ANY($1::bigint[])',
      [[...new Set(all.map((d) => d.subscriptionId))]],
    );
    const deliveries = withinQuota(all, new Map(counts.map((c) => [Number(c.subscription_id), Number(c.n)])), this.quota).kept;
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
    const per = Math.min(options.perSubscription ?? MAX_PER_SUBSCRIPTION, MAX_PER_SUBSCRIPTION);
    const paused = [...(options.paused ?? [])];
    const owner = options.lease?.owner ?? null;
    const wanted = Math.min(per, limit + skip.size);
    const args = [now, paused, per, owner, [...skip], limit, wanted];
    if (!options.lease) {
      const rows = await this.db.rows<Row>(`${OUTBOX_DUE_SQL} SELECT d.* FROM webhook_deliveries d JOIN chosen c ON c.id = d.id`, args);
      return rows.sort(byDue).map(fromRow);
    }
    // the conditions on d are read again on the locked row version (READ COMMITTED re-check)
    const rows = await this.db.rows<Row>(
      `${OUTBOX_DUE_SQL},
       pick AS (
         SELECT d.id FROM webhook_deliveries d JOIN chosen c ON c.id = d.id
          WHERE d.status = 'pending' AND (COALESCE(d.lease_until, 0) <= $1 OR d.lease_owner = $4)
          FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries w SET lease_owner = $4, lease_until = $8 FROM pick WHERE w.id = pick.id
       RETURNING w.*`,
      [...args, options.lease.until],
    );
    return rows.sort(byDue).map(fromRow);
  }

  async nextDue(paused: ReadonlySet<number> = new Set(), now = Date.now()): Promise<number | null> {
    const row = await this.db.one<{ at: number | null }>(OUTBOX_NEXT_DUE_SQL, [now, [...paused]]);
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

  /** From the kept counts (migration 123), O(subscriptions). */
  async countPending(): Promise<number> {
    const row = await this.db.one<{ n: string }>(`SELECT COALESCE(SUM(n), 0) AS n FROM webhook_pending_counts`);
    return Number(row?.n ?? 0);
  }

  async countPendingFor(subscriptionId: number): Promise<number> {
    const row = await this.db.one<{ n: string }>('SELECT n FROM webhook_pending_counts WHERE subscription_id = $1', [subscriptionId]);
    return Number(row?.n ?? 0);
  }

  async list(): Promise<Delivery[]> {
    return (await this.db.rows<Row>('SELECT * FROM webhook_deliveries ORDER BY created_at, id LIMIT $1', [MAX_LIST])).map(fromRow);
  }
}
