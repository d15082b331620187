import { prepare, type Db } from './db.js';
import type { GeocodeTask } from '../types.js';

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
export class GeocodeQueueRepository {
  constructor(private readonly db: Db) {}

  /** Queues the order's address, replacing any earlier pending task of the order. */
  enqueue(orderId: number, address: string, now: string): void {
    prepare(this.db, 'DELETE FROM geocode_queue WHERE order_id = ?').run(orderId);
    prepare(this.db, 'INSERT INTO geocode_queue (order_id, address, next_attempt_at, created_at) VALUES (?, ?, ?, ?)')
      .run(orderId, address, now, now);
  }

  cancelForOrder(orderId: number): void {
    prepare(this.db, 'DELETE FROM geocode_queue WHERE order_id = ?').run(orderId);
  }

  /**
   * Tasks due at `now`, companies taking turns: each company's oldest due task, then each one's
   * second, and so on, so one company's 500-order upload cannot hold back another's one order.
   */
  due(now: string, limit: number, lease?: { owner: string; until: string }): GeocodeTask[] {
    const find = () => {
      const tasks = prepare(
        this.db,
        `SELECT id, order_id, address, attempts, next_attempt_at, last_error, created_at FROM (
           SELECT q.*, ROW_NUMBER() OVER (PARTITION BY o.company_id ORDER BY q.next_attempt_at, q.id) AS turn
           FROM geocode_queue q JOIN orders o ON o.id = q.order_id
           WHERE q.next_attempt_at <= ? AND (COALESCE(q.lease_until, '') <= ? OR q.lease_owner = ?))
         ORDER BY turn, next_attempt_at, id LIMIT ?`,
      ).all(now, now, lease?.owner ?? null, limit) as GeocodeTask[];
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
    const row = prepare(
      this.db,
      `SELECT MIN(CASE WHEN COALESCE(lease_until, '') > ? THEN lease_until ELSE next_attempt_at END) AS t FROM geocode_queue`,
    ).get(now) as { t: string | null };
    return row.t ?? undefined;
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
    return prepare(this.db, 'SELECT * FROM geocode_queue WHERE id = ?').get(id) as GeocodeTask | undefined;
  }

  remove(id: number): void {
    prepare(this.db, 'DELETE FROM geocode_queue WHERE id = ?').run(id);
  }

  retryLater(id: number, nextAttemptAt: string, error: string): void {
    prepare(this.db, 'UPDATE geocode_queue SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?')
      .run(nextAttemptAt, error.slice(0, 500), id);
  }

  pending(): GeocodeTask[] {
    return prepare(this.db, 'SELECT * FROM geocode_queue ORDER BY id').all() as GeocodeTask[];
  }

  count(): number {
    return (prepare(this.db, 'SELECT COUNT(*) AS n FROM geocode_queue').get() as { n: number }).n;
  }
}
