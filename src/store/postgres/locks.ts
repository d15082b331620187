/**
 * Transaction-scoped advisory locks (pg_advisory_xact_lock): held until the transaction ends, so
 * a check and the write that depends on it cannot interleave with another process's. The key is a
 * name space and a value, hashed in SQL (hashtextextended) to the lock's bigint; a collision of two
 * keys only makes one wait for the other. Several keys are taken in the order of their hashes, so
 * two transactions taking overlapping sets cannot deadlock.
 *
 * Outside a transaction a transaction-scoped lock would end with its own statement, so the callers
 * take these only on a Conn bound to a transaction. A key the transaction holds already is not
 * asked for again (one statement less per order of a bulk).
 */
import type { Conn } from './db.js';

export const lockKey = {
  /** Creating an order by external_id (OrderRepository.findByExternalId(s) and insert, in a transaction). */
  orderExternalId: (companyId: number, externalId: string) => `order-external-id:${companyId}:${externalId}`,
  /** The per-company cap of unfinished planning jobs and its Idempotency-Keys (createJob). */
  planningJobs: (companyId: number) => `planning-jobs:${companyId}`,
  /** A vehicle's routes on a date: commitPlan's busy check and the dispatch API's assignment check. */
  companyRoutes: (companyId: number) => `company-routes:${companyId}`,
};

/** Takes the transaction-scoped advisory locks of `keys` (no-op outside a transaction). */
export async function lockAll(tx: Conn, keys: readonly string[]): Promise<void> {
  if (!tx.inTransaction) return;
  const held = tx.heldLocks;
  const wanted = held ? [...new Set(keys)].filter((k) => !held.has(k)) : [...new Set(keys)];
  if (wanted.length === 0) return;
  if (wanted.length === 1) {
    await tx.run('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [wanted[0]]);
  } else {
    await tx.run(
      `SELECT pg_advisory_xact_lock(h) FROM (
         SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY h) AS keys`,
      [wanted],
    );
  }
  for (const k of wanted) held?.add(k);
}
