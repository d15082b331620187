import { prepare, type Db } from './db.js';
import type { GeocodeTask } from '../types.js';

const TASK_COLUMNS = 'id, order_id, address, attempts, next_attempt_at, last_error, created_at';

/**
 * The persisted geocoding queue: one row per order whose address waits for coordinates. A row
 * leaves the queue only when its result is written (in the same transaction), so a crash or a
 * kill -9 leaves it pending for the next start.
 *
 * Several processes may work the queue: `due` with a lease claims the tasks it returns for one
 * owner (lease_owner, lease_until) in the same write transaction, so no two look up one task at
 * once; a process that dies leaves its leases to run out, and the tasks are due again. Tasks the
 * owner holds already (claimed, not yet looked up) are due to it again, claimed anew.
 */
/** The statements of a look, each one index range named with INDEXED BY (see sqlite/outbox.ts; test/store/queue-plans.test.ts checks their plans). */
export const GEOCODE_LOOK_SQL = {
  /** The next company (by id) with a queued task: one seek on geocode_queue_company_due. */
  nextCompany: 'SELECT company_id AS id FROM geocode_queue INDEXED BY geocode_queue_company_due WHERE company_id > ? ORDER BY company_id LIMIT 1',
  /** The company's due tasks no other owner holds, oldest first (geocode_queue_company_due). */
  dueOfCompany: `SELECT ${TASK_COLUMNS} FROM geocode_queue INDEXED BY geocode_queue_company_due
     WHERE company_id = ? AND next_attempt_at <= ? AND (COALESCE(lease_until, '') <= ? OR lease_owner = ?)
     ORDER BY next_attempt_at, id LIMIT ?`,
  /** The earliest end of a live lease (geocode_queue_leased) ... */
  nextLeaseEnd: 'SELECT MIN(lease_until) AS t FROM geocode_queue INDEXED BY geocode_queue_leased WHERE lease_until > ?',
  /** ... and the earliest try of a task no live lease holds (geocode_queue_due). */
  nextTry: `SELECT next_attempt_at AS t FROM geocode_queue INDEXED BY geocode_queue_due WHERE COALESCE(lease_until, '') <= ? ORDER BY next_attempt_at LIMIT 1`,
} as const;

export class GeocodeQueueRepository {
  constructor(private readonly db: Db) {}

  /** Queues the order's address, replacing any earlier pending task of the order. */
  enqueue(orderId: number, address: string, now: string): void {
    prepare(this.db, 'DELETE FROM geocode_queue WHERE order_id = ?').run(orderId);
    // the order's company beside the task: the look walks the queue by company (migration 121)
    prepare(
      this.db,
      'INSERT INTO geocode_queue (order_id, company_id, address, next_attempt_at, created_at) SELECT ?, company_id, ?, ?, ? FROM orders WHERE id = ?',
    ).run(orderId, address, now, now, orderId);
  }

  cancelForOrder(orderId: number): void {
    prepare(this.db, 'DELETE FROM geocode_queue WHERE order_id = ?').run(orderId);
  }

  /**
   * Tasks due at `now`, companies taking turns: each company's oldest due task, then each one's
   * second, and so on, so one company's 500-order upload cannot hold back another's one order.
   * The look does not grow with the queue (issue 38, item 2): the companies with tasks are walked
   * on the (company_id, next_attempt_at, id) index, one seek each, and at most `limit` tasks of
   * each are read from it.
   */
  due(now: string, limit: number, lease?: { owner: string; until: string }): GeocodeTask[] {
    const find = () => {
      const next = prepare(this.db, GEOCODE_LOOK_SQL.nextCompany);
      const ofCompany = prepare(this.db, GEOCODE_LOOK_SQL.dueOfCompany);
      const ranked: Array<{ task: GeocodeTask; turn: number }> = [];
      for (let c = next.get(-1) as { id: number } | undefined; c; c = next.get(c.id) as { id: number } | undefined) {
        const tasks = ofCompany.all(c.id, now, now, lease?.owner ?? null, limit) as GeocodeTask[];
        tasks.forEach((task, turn) => ranked.push({ task, turn }));
      }
      ranked.sort((a, b) => a.turn - b.turn || (a.task.next_attempt_at < b.task.next_attempt_at ? -1 : a.task.next_attempt_at > b.task.next_attempt_at ? 1 : a.task.id - b.task.id));
      const tasks = ranked.slice(0, limit).map((r) => r.task);
      if (lease) {
        const claim = prepare(this.db, 'UPDATE geocode_queue SET lease_owner = ?, lease_until = ? WHERE id = ?');
        for (const t of tasks) claim.run(lease.owner, lease.until, t.id);
      }
      return tasks;
    };
    return lease ? this.db.transaction(find).immediate() : find();
  }

  /** When the next task becomes due (or a lease on one runs out), or undefined when the queue is empty. */
  nextDueAt(now = new Date().toISOString()): string | undefined {
    const leaseEnd = (prepare(this.db, GEOCODE_LOOK_SQL.nextLeaseEnd).get(now) as { t: string | null }).t;
    const nextTry = (prepare(this.db, GEOCODE_LOOK_SQL.nextTry).get(now) as { t: string } | undefined)?.t ?? null;
    if (leaseEnd === null) return nextTry ?? undefined;
    return nextTry === null || leaseEnd < nextTry ? leaseEnd : nextTry;
  }

  /** The owner holding the task's lease, or null. */
  leaseOwner(id: number): string | null {
    const row = prepare(this.db, 'SELECT lease_owner FROM geocode_queue WHERE id = ?').get(id) as { lease_owner: string | null } | undefined;
    return row?.lease_owner ?? null;
  }

  /** Hands back every task leased to `owner` (its lookups were stopped). */
  releaseAll(owner: string): void {
    prepare(this.db, 'UPDATE geocode_queue SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?').run(owner);
  }

  get(id: number): GeocodeTask | undefined {
    return prepare(this.db, `SELECT ${TASK_COLUMNS} FROM geocode_queue WHERE id = ?`).get(id) as GeocodeTask | undefined;
  }

  remove(id: number): void {
    prepare(this.db, 'DELETE FROM geocode_queue WHERE id = ?').run(id);
  }

  retryLater(id: number, nextAttemptAt: string, error: string): void {
    prepare(this.db, 'UPDATE geocode_queue SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?')
      .run(nextAttemptAt, error.slice(0, 500), id);
  }

  pending(): GeocodeTask[] {
    return prepare(this.db, `SELECT ${TASK_COLUMNS} FROM geocode_queue ORDER BY id`).all() as GeocodeTask[];
  }

  count(): number {
    return (prepare(this.db, 'SELECT COUNT(*) AS n FROM geocode_queue').get() as { n: number }).n;
  }
}
