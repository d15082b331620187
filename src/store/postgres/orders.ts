/**
 * Orders and their status history on PostgreSQL: the answers of src/store/sqlite/orders.ts.
 *
 * Creation by external_id, across processes: the service looks the external_id up
 * (`findByExternalId`) and inserts when it is not there, both inside one `transaction`. In a
 * transaction, `findByExternalId`, `findByExternalIds` and `insert` (with an external_id) first
 * take the transaction-scoped advisory lock of (company, external_id), so a second transaction
 * creating the same external_id waits at its lookup until the first commits, and then (READ
 * COMMITTED: the next statement sees what committed) finds the order and creates none. No
 * unique index: duplicates made by other means stay possible, as on SQLite. A bulk create should
 * call `findByExternalIds` with all its external ids first: that takes every lock at once in one
 * global order, so two overlapping bulks cannot deadlock (taken one by one in request order they
 * could; PostgreSQL then aborts one of them with SQLSTATE 40P01 and nothing of it is written).
 */
import type { OrdersPort } from '../ports.js';
import { FIELD_COLUMNS, type Order, type OrderFields, type OrderListQuery, type OrderStatus, type OrderStatusEntry } from '../types.js';
import type { Conn } from './db.js';
import { lockAll, lockKey } from './locks.js';
import { safeId, safeIds } from './util.js';


/** Column names come from FIELD_COLUMNS only; values are parameters. */
const INSERT_SQL = `
  WITH o AS (
    INSERT INTO orders (company_id, external_id, ${FIELD_COLUMNS.join(', ')}, status, created_at, updated_at)
    VALUES ($1, $2, ${FIELD_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')}, 'new', $${FIELD_COLUMNS.length + 3}, $${FIELD_COLUMNS.length + 3})
    RETURNING *),
  h AS (
    INSERT INTO order_status_history (order_id, status, previous_status, at)
    SELECT id, 'new', NULL, $${FIELD_COLUMNS.length + 3} FROM o)
  SELECT * FROM o`;

/** external ids one findByExternalIds call may ask for (a bulk request carries at most 500). */
const MAX_EXTERNAL_IDS = 10_000;
/** History entries of one order: a handful of status changes in its life. */
const MAX_HISTORY = 1_000;

export class PgOrderRepository implements OrdersPort {
  constructor(private readonly db: Conn) {}

  /** Inserts a new order in status `new` with its first history entry (one statement). */
  async insert(companyId: number, externalId: string | null, fields: OrderFields, now: string): Promise<Order> {
    if (externalId !== null) await lockAll(this.db, [lockKey.orderExternalId(companyId, externalId)]);
    const row = await this.db.one<Order>(INSERT_SQL, [companyId, externalId, ...FIELD_COLUMNS.map((c) => fields[c]), now]);
    return row!;
  }

  async get(companyId: number, id: number): Promise<Order | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.one<Order>('SELECT * FROM orders WHERE company_id = $1 AND id = $2', [companyId, id]);
  }

  /** The oldest order of the company with this external_id (duplicates may exist). */
  async findByExternalId(companyId: number, externalId: string): Promise<Order | undefined> {
    await lockAll(this.db, [lockKey.orderExternalId(companyId, externalId)]);
    return this.db.one<Order>('SELECT * FROM orders WHERE company_id = $1 AND external_id = $2 ORDER BY id LIMIT 1', [companyId, externalId]);
  }

  /** The orders among `ids` that belong to the company, in the order of `ids`. */
  async findByIds(companyId: number, ids: number[]): Promise<Order[]> {
    const wanted = safeIds(ids);
    if (wanted.length === 0) return [];
    const rows = await this.db.rows<Order>('SELECT * FROM orders WHERE company_id = $1 AND id = ANY($2::bigint[])', [companyId, wanted]);
    const byId = new Map(rows.map((o) => [o.id, o]));
    return wanted.map((id) => byId.get(id)).filter((o): o is Order => o !== undefined);
  }

  /** For each external id, every order of the company carrying it (oldest first). */
  async findByExternalIds(companyId: number, externalIds: string[]): Promise<Map<string, Order[]>> {
    if (externalIds.length > MAX_EXTERNAL_IDS) throw new RangeError(`findByExternalIds: at most ${MAX_EXTERNAL_IDS} external ids at once`);
    const out = new Map<string, Order[]>();
    for (const ext of externalIds) out.set(ext, []);
    if (externalIds.length === 0) return out;
    await lockAll(this.db, [...out.keys()].map((ext) => lockKey.orderExternalId(companyId, ext)));
    const rows = await this.db.rows<Order>('SELECT * FROM orders WHERE company_id = $1 AND external_id = ANY($2::text[]) ORDER BY id', [
      companyId,
      [...out.keys()],
    ]);
    for (const row of rows) out.get(row.external_id!)!.push(row);
    return out;
  }

  /** A page of the company's orders, newest first, and the total count of the filtered set. */
  /**
   * The company's open orders from open_order_counts (migration 122: kept by a trigger deferred to
   * commit), O(1). The row is locked FOR UPDATE: in a transaction, another create of the company
   * waits here until this one commits, then reads the count with its orders in it.
   */
  async countOpen(companyId: number): Promise<number> {
    await this.db.run('INSERT INTO open_order_counts (company_id, n) VALUES ($1, 0) ON CONFLICT (company_id) DO NOTHING', [companyId]);
    const row = await this.db.one<{ n: number }>('SELECT n FROM open_order_counts WHERE company_id = $1 FOR UPDATE', [companyId]);
    return Number(row?.n ?? 0);
  }

  async list(companyId: number, query: OrderListQuery): Promise<{ count: number; rows: Order[] }> {
    const where = ['company_id = $1'];
    const args: unknown[] = [companyId];
    if (query.status !== undefined) {
      args.push(query.status);
      where.push(`status = $${args.length}`);
    }
    if (query.external_id !== undefined) {
      args.push(query.external_id);
      where.push(`external_id = $${args.length}`);
    }
    const clause = where.join(' AND ');
    const count = (await this.db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM orders WHERE ${clause}`, args))!.n;
    const rows = await this.db.rows<Order>(
      `SELECT * FROM orders WHERE ${clause} ORDER BY id DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, query.limit, query.offset],
    );
    return { count, rows };
  }

  /** Writes changed client fields; the caller checks the status first (inside its transaction). */
  async update(companyId: number, id: number, changes: Partial<OrderFields>, now: string): Promise<Order | undefined> {
    if (!safeId(id)) return undefined;
    const columns = FIELD_COLUMNS.filter((c) => c in changes);
    if (columns.length > 0) {
      const sets = columns.map((c, i) => `${c} = $${i + 1}`).join(', ');
      const n = columns.length;
      await this.db.run(`UPDATE orders SET ${sets}, updated_at = $${n + 1}, version = version + 1 WHERE company_id = $${n + 2} AND id = $${n + 3}`, [
        ...columns.map((c) => changes[c]),
        now,
        companyId,
        id,
      ]);
    }
    return this.get(companyId, id);
  }

  /**
   * Moves an order to `to` when its current status is one of `from`, appending a history entry;
   * the order's row is locked (FOR UPDATE) from the check to the write.
   */
  async transition(
    companyId: number,
    id: number,
    from: readonly OrderStatus[],
    to: OrderStatus,
    now: string,
  ): Promise<{ order: Order; changed: boolean; previous: OrderStatus } | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.atomic(async (tx) => {
      const order = await tx.one<Order>('SELECT * FROM orders WHERE company_id = $1 AND id = $2 FOR UPDATE', [companyId, id]);
      if (!order) return undefined;
      if (!from.includes(order.status)) return { order, changed: false, previous: order.status };
      const updated = await tx.one<Order>('UPDATE orders SET status = $1, updated_at = $2, version = version + 1 WHERE company_id = $3 AND id = $4 RETURNING *', [
        to,
        now,
        companyId,
        id,
      ]);
      await tx.run('INSERT INTO order_status_history (order_id, status, previous_status, at) VALUES ($1, $2, $3, $4)', [id, to, order.status, now]);
      return { order: updated!, changed: true, previous: order.status };
    });
  }

  /** Writes geocoded coordinates when the order is still new and still has the geocoded address. */
  async applyGeocode(orderId: number, address: string, lat_e6: number, lon_e6: number, now: string): Promise<boolean> {
    if (!safeId(orderId)) return false;
    const n = await this.db.run(`UPDATE orders SET lat_e6 = $1, lon_e6 = $2, updated_at = $3, version = version + 1 WHERE id = $4 AND status = 'new' AND address = $5`, [
      lat_e6,
      lon_e6,
      now,
      orderId,
      address,
    ]);
    return n > 0;
  }

  async history(orderId: number): Promise<OrderStatusEntry[]> {
    if (!safeId(orderId)) return [];
    return this.db.rows<OrderStatusEntry>('SELECT * FROM order_status_history WHERE order_id = $1 ORDER BY id LIMIT $2', [orderId, MAX_HISTORY]);
  }
}
