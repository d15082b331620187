import { prepare, type Db } from './db.js';
import type { GeocodeTask } from './types.js';

/**
 * The persisted geocoding queue: one row per order whose address waits for coordinates. A row
 * leaves the queue only when its result is written (in the same transaction), so a crash or a
 * kill -9 leaves it pending for the next start.
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
  due(now: string, limit: number): GeocodeTask[] {
    return prepare(
      this.db,
      `SELECT id, order_id, address, attempts, next_attempt_at, last_error, created_at FROM (
         SELECT q.*, ROW_NUMBER() OVER (PARTITION BY o.company_id ORDER BY q.next_attempt_at, q.id) AS turn
         FROM geocode_queue q JOIN orders o ON o.id = q.order_id
         WHERE q.next_attempt_at <= ?)
       ORDER BY turn, next_attempt_at, id LIMIT ?`,
    ).all(now, limit) as GeocodeTask[];
  }

  /** When the next task becomes due, or undefined when the queue is empty. */
  nextDueAt(): string | undefined {
    const row = prepare(this.db, 'SELECT MIN(next_attempt_at) AS t FROM geocode_queue').get() as { t: string | null };
    return row.t ?? undefined;
  }

  get(id: number): GeocodeTask | undefined {
    return prepare(this.db, 'SELECT * FROM geocode_queue WHERE id = ?').get(id) as GeocodeTask | undefined;
  }

  remove(id: number): void {
    prepare(this.db, 'DELETE FROM geocode_queue WHERE id = ?').run(id);
  }

  retryLater(id: number, nextAttemptAt: string, error: string): void {
    prepare(this.db, 'UPDATE geocode_queue SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?')
      .run(nextAttemptAt, error.slice(0, 500), id);
  }

  pending(): GeocodeTask[] {
    return prepare(this.db, 'SELECT * FROM geocode_queue ORDER BY id').all() as GeocodeTask[];
  }

  count(): number {
    return (prepare(this.db, 'SELECT COUNT(*) AS n FROM geocode_queue').get() as { n: number }).n;
  }
}
