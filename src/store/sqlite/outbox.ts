/**
 * The webhook outbox on SQLite (the OutboxPort of src/store/ports.ts; PostgreSQL's is
 * src/store/postgres/outbox.ts): every delivery is written here before it is sent, and leaves only
 * as delivered or given up, so none is lost to a restart or a kill -9. At-least-once: a delivery
 * that was in flight when the process died is sent again, with the same delivery id, and the
 * receiver discards the duplicate.
 *
 * Several processes may send from one outbox: a delivery is claimed with a lease (its owner and
 * `lease_until`) in the step that finds it due, so one process at a time has it in flight; the
 * outcome is written only by the lease holder. A process that dies mid-send leaves the lease to run
 * out, and the delivery goes out again from another process, with the same id.
 *
 * The look (`due`, `nextDue`) does not grow with the backlog (issue 38, item 2): it walks the
 * subscriptions that have pending deliveries on the index (one seek each, paused ones skipped
 * without reading their rows), then reads at most `perSubscription` rows of each on the
 * (subscription_id, next_attempt_at, created_at, id) index of pending rows, and the live leases on
 * their own index (migration 120). The table comes from the migrations (src/store/sqlite/migrations.ts).
 */
import { byDue, DEFAULT_MAX_PENDING_DELIVERIES, deliveryFromRow, type Delivery, type DeliveryRow, type DueOptions, type NewDelivery, type OutboxQuota } from '../types.js';
import { withinQuota } from '../quota.js';
import { prepare, type Db } from './db.js';

type Leased = DeliveryRow & { lease_owner: string | null; lease_until: number | null };

/** Pending rows of one subscription a look reads at most (with no `perSubscription` given). */
const MAX_PER_SUBSCRIPTION = 10_000;

/**
 * The statements of a look, each one index range, named with INDEXED BY: without statistics SQLite's
 * planner prefers webhook_deliveries_due (status = 'pending': every pending row) and sorts; INDEXED BY
 * makes the statement fail to prepare rather than scan. test/store/queue-plans.test.ts checks their plans.
 */
export const OUTBOX_LOOK_SQL = {
  /** The next subscription (by id) with a pending delivery: one seek on webhook_deliveries_pending. */
  nextSubscription: `SELECT subscription_id AS id FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
     WHERE status = 'pending' AND subscription_id > ? ORDER BY subscription_id LIMIT 1`,
  /** Deliveries of the subscription in flight under a live lease (webhook_deliveries_leased). */
  leased: `SELECT * FROM webhook_deliveries INDEXED BY webhook_deliveries_leased
     WHERE status = 'pending' AND subscription_id = ? AND lease_until > ?
     ORDER BY next_attempt_at, created_at, id LIMIT ?`,
  /** Due deliveries of the subscription no live lease holds, oldest first (webhook_deliveries_pending). */
  free: `SELECT * FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
     WHERE status = 'pending' AND subscription_id = ? AND next_attempt_at <= ? AND COALESCE(lease_until, 0) <= ?
     ORDER BY next_attempt_at, created_at, id LIMIT ?`,
  /** When the subscription's next try is due: its earliest live lease end ... */
  nextLeaseEnd: `SELECT MIN(lease_until) AS at FROM webhook_deliveries INDEXED BY webhook_deliveries_leased
     WHERE status = 'pending' AND subscription_id = ? AND lease_until > ?`,
  /** ... or its earliest try of a row no live lease holds. */
  nextTry: `SELECT next_attempt_at AS at FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
     WHERE status = 'pending' AND subscription_id = ? AND COALESCE(lease_until, 0) <= ?
     ORDER BY next_attempt_at LIMIT 1`,
} as const;

export class SqliteWebhookOutbox {
  constructor(
    private readonly db: Db,
    private readonly quota: OutboxQuota = { maxPending: DEFAULT_MAX_PENDING_DELIVERIES },
  ) {}

  /** Queues the deliveries, but none past a subscription's pending quota (dropped and reported). */
  add(all: NewDelivery[]): void {
    if (all.length === 0) return;
    const count = prepare(this.db, 'SELECT n FROM webhook_pending_counts WHERE subscription_id = ?');
    const pending = new Map<number, number>();
    for (const id of new Set(all.map((d) => d.subscriptionId))) pending.set(id, (count.get(id) as { n: number } | undefined)?.n ?? 0);
    const deliveries = withinQuota(all, pending, this.quota).kept;
    if (deliveries.length === 0) return;
    const insert = prepare(
      this.db,
      `INSERT INTO webhook_deliveries (id, subscription_id, url, secret, event, body, next_attempt_at, created_at)
       VALUES (@id, @subscriptionId, @url, @secret, @event, @body, @createdAt, @createdAt)`,
    );
    this.db.transaction((items: NewDelivery[]) => {
      for (const d of items) insert.run(d);
    })(deliveries);
  }

  /** The subscriptions with pending deliveries, by id, minus `paused`: one index seek each. */
  private subscriptionsWithPending(paused: ReadonlySet<number>): number[] {
    const next = prepare(this.db, OUTBOX_LOOK_SQL.nextSubscription);
    const out: number[] = [];
    for (let row = next.get(-1) as { id: number } | undefined; row; row = next.get(row.id) as { id: number } | undefined) {
      if (!paused.has(row.id)) out.push(row.id);
    }
    return out;
  }

  /**
   * Pending deliveries due at `now`, oldest first: at most `perSubscription` of one subscription
   * (in flight ones, under any live lease, take their places and are left out; a row this owner
   * holds is returned again), none of the `paused` subscriptions, none of `skip`.
   */
  due(now: number, limit: number, skip: ReadonlySet<string>, options: DueOptions = {}): Delivery[] {
    const per = Math.min(options.perSubscription ?? MAX_PER_SUBSCRIPTION, MAX_PER_SUBSCRIPTION);
    const owner = options.lease?.owner ?? null;
    const find = () => {
      const leased = prepare(this.db, OUTBOX_LOOK_SQL.leased);
      const free = prepare(this.db, OUTBOX_LOOK_SQL.free);
      // a subscription gives at most `limit` rows past the skipped ones to the page
      const wanted = Math.min(per, limit + skip.size);
      const picked: Leased[] = [];
      for (const sub of this.subscriptionsWithPending(options.paused ?? new Set())) {
        const held = leased.all(sub, now, per) as Leased[];
        const places = per - held.length;
        const open = places > 0 ? (free.all(sub, now, now, Math.min(places, wanted)) as Leased[]) : [];
        for (const r of held) if (r.lease_owner === owner && owner !== null) picked.push(r);
        picked.push(...open);
      }
      const page = picked.filter((r) => !skip.has(r.id)).sort(byDue).slice(0, limit);
      if (options.lease) {
        const claim = prepare(this.db, 'UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE id = ?');
        for (const r of page) claim.run(options.lease.owner, options.lease.until, r.id);
      }
      return page.map(deliveryFromRow);
    };
    // find and claim in one write transaction: two processes never claim the same delivery
    return options.lease ? this.db.transaction(find).immediate() : find();
  }

  /** Epoch ms of the earliest pending try (a live lease's end for one in flight), not of the `paused` subscriptions, or null. */
  nextDue(paused: ReadonlySet<number> = new Set(), now = Date.now()): number | null {
    const leaseEnd = prepare(this.db, OUTBOX_LOOK_SQL.nextLeaseEnd);
    const nextTry = prepare(this.db, OUTBOX_LOOK_SQL.nextTry);
    let at: number | null = null;
    for (const sub of this.subscriptionsWithPending(paused)) {
      for (const row of [leaseEnd.get(sub, now), nextTry.get(sub, now)] as Array<{ at: number | null } | undefined>) {
        if (row?.at != null && (at === null || row.at < at)) at = row.at;
      }
    }
    return at;
  }

  private write(id: string, status: DeliveryRow['status'], attempts: number, nextAttemptAt: number, lastError: string, deliveredAt: number | null, owner?: string): boolean {
    return (
      prepare(
        this.db,
        `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt,
         last_error = @lastError, delivered_at = @deliveredAt, lease_owner = NULL, lease_until = NULL
         WHERE id = @id AND (@owner IS NULL OR lease_owner = @owner)`,
      ).run({ id, status, attempts, nextAttemptAt, lastError, deliveredAt, owner: owner ?? null }).changes === 1
    );
  }

  /** The outcome writes end the lease; with `owner`, only the lease holder's write lands (false
   *  when another process holds the delivery now). */
  delivered(id: string, attempts: number, at: number, owner?: string): boolean {
    return this.write(id, 'delivered', attempts, at, '', at, owner);
  }

  retryLater(id: string, attempts: number, nextAttemptAt: number, error: string, owner?: string): boolean {
    return this.write(id, 'pending', attempts, nextAttemptAt, error, null, owner);
  }

  giveUp(id: string, attempts: number, error: string, owner?: string): boolean {
    return this.write(id, 'failed', attempts, 0, error, null, owner);
  }

  /** Removes delivered rows delivered before `before` (epoch ms); how many. */
  pruneDelivered(before: number): number {
    return prepare(this.db, `DELETE FROM webhook_deliveries WHERE status = 'delivered' AND delivered_at < ?`).run(before).changes;
  }

  /** Hands a claimed delivery back untouched (its try was stopped by a shutdown). */
  release(id: string, owner: string): void {
    prepare(this.db, `UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`).run(id, owner);
  }

  get(id: string): Delivery | undefined {
    const row = prepare(this.db, `SELECT * FROM webhook_deliveries WHERE id = ?`).get(id) as DeliveryRow | undefined;
    return row && deliveryFromRow(row);
  }

  list(): Delivery[] {
    return (prepare(this.db, `SELECT * FROM webhook_deliveries ORDER BY created_at, id`).all() as DeliveryRow[]).map(deliveryFromRow);
  }

  /** Pending deliveries, paused subscriptions' included (the backlog metric): the kept counts (migration 123), O(subscriptions). */
  countPending(): number {
    return (prepare(this.db, `SELECT COALESCE(SUM(n), 0) AS n FROM webhook_pending_counts`).get() as { n: number }).n;
  }

  countPendingFor(subscriptionId: number): number {
    return (prepare(this.db, 'SELECT n FROM webhook_pending_counts WHERE subscription_id = ?').get(subscriptionId) as { n: number } | undefined)?.n ?? 0;
  }
}
