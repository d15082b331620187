/**
 * The persisted geocoding queue on PostgreSQL: the answers of src/store/geocode-queue.ts. `due`
 * with a lease finds and claims in ONE statement (FOR UPDATE SKIP LOCKED, the lease conditions
 * checked again on the locked row), so two processes never hold one task at once and neither
 * waits for the other's rows.
 */
import type { GeocodeQueuePort } from '../ports.js';
import type { GeocodeTask } from '../types.js';
import type { Conn } from './db.js';
import { safeId } from './util.js';

const TASK_COLUMNS = 'id, order_id, address, attempts, next_attempt_at, last_error, created_at';
/** `pending()` is for operators and tests: a page, not the whole queue of a busy day. */
const MAX_PENDING = 100_000;

export class PgGeocodeQueueRepository implements GeocodeQueuePort {
  constructor(private readonly db: Conn) {}

  /** Queues the order's address, replacing any earlier pending task of the order. */
  async enqueue(orderId: number, address: string, now: string): Promise<void> {
    await this.db.run(
      `WITH gone AS (DELETE FROM geocode_queue WHERE order_id = $1)
       INSERT INTO geocode_queue (order_id, address, next_attempt_at, created_at) VALUES ($1, $2, $3, $3)`,
      [orderId, address, now],
    );
  }

  async cancelForOrder(orderId: number): Promise<void> {
    await this.db.run('DELETE FROM geocode_queue WHERE order_id = $1', [orderId]);
  }

  /** Tasks due at `now`, companies taking turns (each company's oldest, then each one's second, ...). */
  async due(now: string, limit: number, lease?: { owner: string; until: string }): Promise<GeocodeTask[]> {
    const ranked = `
      SELECT q.id, q.next_attempt_at, ROW_NUMBER() OVER (PARTITION BY o.company_id ORDER BY q.next_attempt_at, q.id) AS turn
      FROM geocode_queue q JOIN orders o ON o.id = q.order_id
      WHERE q.next_attempt_at <= $1 AND (COALESCE(q.lease_until, '') <= $1 OR q.lease_owner = $2)`;
    const byTurn = (a: GeocodeTask & { turn: number }, b: GeocodeTask & { turn: number }) =>
      a.turn - b.turn || (a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : a.id - b.id);
    const strip = ({ turn: _turn, ...task }: GeocodeTask & { turn: number }): GeocodeTask => task;
    if (!lease) {
      const rows = await this.db.rows<GeocodeTask & { turn: number }>(
        `SELECT ${TASK_COLUMNS.split(', ').map((c) => 'q.' + c).join(', ')}, r.turn
           FROM geocode_queue q JOIN (${ranked}) r ON r.id = q.id
          ORDER BY r.turn, q.next_attempt_at, q.id LIMIT $3`,
        [now, null, limit],
      );
      return rows.sort(byTurn).map(strip);
    }
    const rows = await this.db.rows<GeocodeTask & { turn: number }>(
      `WITH ranked AS (${ranked}),
       pick AS (
         SELECT q.id, r.turn FROM geocode_queue q JOIN ranked r ON r.id = q.id
          WHERE q.next_attempt_at <= $1 AND (COALESCE(q.lease_until, '') <= $1 OR q.lease_owner = $2)
          ORDER BY r.turn, r.next_attempt_at, r.id LIMIT $3
          FOR UPDATE OF q SKIP LOCKED)
       UPDATE geocode_queue q SET lease_owner = $2, lease_until = $4 FROM pick WHERE q.id = pick.id
       RETURNING ${TASK_COLUMNS.split(', ').map((c) => 'q.' + c).join(', ')}, pick.turn`,
      [now, lease.owner, limit, lease.until],
    );
    return rows.sort(byTurn).map(strip);
  }

  async nextDueAt(now = new Date().toISOString()): Promise<string | undefined> {
    const row = await this.db.one<{ t: string | null }>(
      `SELECT MIN(CASE WHEN COALESCE(lease_until, '') > $1 THEN lease_until ELSE next_attempt_at END) AS t FROM geocode_queue`,
      [now],
    );
    return row?.t ?? undefined;
  }

  async leaseOwner(id: number): Promise<string | null> {
    if (!safeId(id)) return null;
    const row = await this.db.one<{ lease_owner: string | null }>('SELECT lease_owner FROM geocode_queue WHERE id = $1', [id]);
    return row?.lease_owner ?? null;
  }

  async releaseAll(owner: string): Promise<void> {
    await this.db.run('UPDATE geocode_queue SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1', [owner]);
  }

  async get(id: number): Promise<GeocodeTask | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.one<GeocodeTask>('SELECT * FROM geocode_queue WHERE id = $1', [id]);
  }

  async remove(id: number): Promise<void> {
    if (!safeId(id)) return;
    await this.db.run('DELETE FROM geocode_queue WHERE id = $1', [id]);
  }

  async retryLater(id: number, nextAttemptAt: string, error: string): Promise<void> {
    if (!safeId(id)) return;
    await this.db.run(
      'UPDATE geocode_queue SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, lease_owner = NULL, lease_until = NULL WHERE id = $3',
      [nextAttemptAt, error.slice(0, 500), id],
    );
  }

  async pending(): Promise<GeocodeTask[]> {
    return this.db.rows<GeocodeTask>('SELECT * FROM geocode_queue ORDER BY id LIMIT $1', [MAX_PENDING]);
  }

  async count(): Promise<number> {
    return (await this.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM geocode_queue'))!.n;
  }
}
