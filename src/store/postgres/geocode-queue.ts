/**
 * The persisted geocoding queue on PostgreSQL: the answers of src/store/sqlite/geocode-queue.ts. `due`
 * with a lease finds and claims in ONE statement (FOR UPDATE SKIP LOCKED, the lease conditions
 * checked again on the locked row), so two processes never hold one task at once and neither
 * waits for the other's rows.
 */
import type { GeocodeQueuePort } from '../ports.js';
import type { GeocodeTask } from '../types.js';
import type { Conn } from './db.js';
import { safeId } from './util.js';

const TASK_COLUMNS = 'id, order_id, address, attempts, next_attempt_at, last_error, created_at';
/**
 * The look's statement (without the claim), not growing with the queue (issue 38, item 2): the
 * companies with tasks walked on geocode_queue_company_due (one seek each), at most $3 (limit)
 * due tasks of each read from it, numbered (the company's turn), the page taken by turn.
 * $1 now, $2 owner, $3 limit. Exported for the plan test (test/store/queue-plans.test.ts). The
 * ORDER BY names company_id (fixed by the WHERE) so that the planner reads geocode_queue_company_due
 * in order: ordered by next_attempt_at alone it could take geocode_queue_due and filter the whole
 * queue by company (144 ms at 100,000 tasks).
 */
export const GEOCODE_DUE_SQL = `
  WITH RECURSIVE companies(co) AS (
    SELECT MIN(company_id) FROM geocode_queue
    UNION ALL
    SELECT (SELECT MIN(company_id) FROM geocode_queue WHERE company_id > c.co) FROM companies c WHERE c.co IS NOT NULL),
  ranked AS (
    SELECT t.id, t.next_attempt_at, ROW_NUMBER() OVER (PARTITION BY c.co ORDER BY t.next_attempt_at, t.id) AS turn
      FROM companies c CROSS JOIN LATERAL (
        SELECT q.id, q.next_attempt_at FROM geocode_queue q
         WHERE q.company_id = c.co AND q.next_attempt_at <= $1 AND (COALESCE(q.lease_until, '') <= $1 OR q.lease_owner = $2)
         ORDER BY q.company_id, q.next_attempt_at, q.id LIMIT $3) t
     WHERE c.co IS NOT NULL),
  chosen AS (SELECT id, turn FROM ranked ORDER BY turn, next_attempt_at, id LIMIT $3)`;

/** When the next task is due: the earliest live lease end (geocode_queue_leased) or try of a task no live lease holds (geocode_queue_due). $1 now. */
export const GEOCODE_NEXT_DUE_SQL = `
  SELECT LEAST(
    (SELECT MIN(lease_until) FROM geocode_queue WHERE lease_until > $1),
    (SELECT next_attempt_at FROM geocode_queue WHERE COALESCE(lease_until, '') <= $1 ORDER BY next_attempt_at LIMIT 1)) AS t`;

/** `pending()` is for operators and tests: a page, not the whole queue of a busy day. */
const MAX_PENDING = 100_000;

export class PgGeocodeQueueRepository implements GeocodeQueuePort {
  constructor(private readonly db: Conn) {}

  /** Queues the order's address, replacing any earlier pending task of the order. */
  async enqueue(orderId: number, address: string, now: string): Promise<void> {
    // the order's company beside the task: the look walks the queue by company (migration 121)
    await this.db.run(
      `WITH gone AS (DELETE FROM geocode_queue WHERE order_id = $1)
       INSERT INTO geocode_queue (order_id, company_id, address, next_attempt_at, created_at)
       SELECT $1, company_id, $2, $3, $3 FROM orders WHERE id = $1`,
      [orderId, address, now],
    );
  }

  async cancelForOrder(orderId: number): Promise<void> {
    await this.db.run('DELETE FROM geocode_queue WHERE order_id = $1', [orderId]);
  }

  /** Tasks due at `now`, companies taking turns (each company's oldest, then each one's second, ...). */
  async due(now: string, limit: number, lease?: { owner: string; until: string }): Promise<GeocodeTask[]> {
    const byTurn = (a: GeocodeTask & { turn: number }, b: GeocodeTask & { turn: number }) =>
      a.turn - b.turn || (a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : a.id - b.id);
    const strip = ({ turn: _turn, ...task }: GeocodeTask & { turn: number }): GeocodeTask => task;
    const columns = TASK_COLUMNS.split(', ').map((c) => 'q.' + c).join(', ');
    if (!lease) {
      const rows = await this.db.rows<GeocodeTask & { turn: number }>(
        `${GEOCODE_DUE_SQL} SELECT ${columns}, c.turn FROM geocode_queue q JOIN chosen c ON c.id = q.id`,
        [now, null, limit],
      );
      return rows.sort(byTurn).map(strip);
    }
    const rows = await this.db.rows<GeocodeTask & { turn: number }>(
      `${GEOCODE_DUE_SQL},
       pick AS (
         SELECT q.id, c.turn FROM geocode_queue q JOIN chosen c ON c.id = q.id
          WHERE q.next_attempt_at <= $1 AND (COALESCE(q.lease_until, '') <= $1 OR q.lease_owner = $2)
          FOR UPDATE OF q SKIP LOCKED)
       UPDATE geocode_queue q SET lease_owner = $2, lease_until = $4 FROM pick WHERE q.id = pick.id
       RETURNING ${columns}, pick.turn`,
      [now, lease.owner, limit, lease.until],
    );
    return rows.sort(byTurn).map(strip);
  }

  async nextDueAt(now = new Date().toISOString()): Promise<string | undefined> {
    const row = await this.db.one<{ t: string | null }>(GEOCODE_NEXT_DUE_SQL, [now]);
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
    return this.db.one<GeocodeTask>(`SELECT ${TASK_COLUMNS} FROM geocode_queue WHERE id = $1`, [id]);
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
    return this.db.rows<GeocodeTask>(`SELECT ${TASK_COLUMNS} FROM geocode_queue ORDER BY id LIMIT $1`, [MAX_PENDING]);
  }

  async count(): Promise<number> {
    return (await this.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM geocode_queue'))!.n;
  }
}
