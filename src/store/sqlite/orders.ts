import { allRows, prepare, type Db } from './db.js';
import { FIELD_COLUMNS, type Order, type OrderFields, type OrderListQuery, type OrderStatus, type OrderStatusEntry } from '../types.js';

/**
 * Orders and their status history. Every method is scoped by company: an order of another
 * company is simply not found. Methods that write several rows run inside a transaction (they
 * join the caller's transaction when there is one: better-sqlite3 nests them as savepoints).
 */
export class OrderRepository {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO orders (company_id, external_id, ${FIELD_COLUMNS.join(', ')}, status, created_at, updated_at)
         VALUES (@company_id, @external_id, ${FIELD_COLUMNS.map((c) => '@' + c).join(', ')}, 'new', @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM orders WHERE company_id = ? AND id = ?'),
      byExternal: db.prepare('SELECT * FROM orders WHERE company_id = ? AND external_id = ? ORDER BY id LIMIT 1'),
      history: db.prepare('SELECT * FROM order_status_history WHERE order_id = ? ORDER BY id'),
      addHistory: db.prepare(
        'INSERT INTO order_status_history (order_id, status, previous_status, at) VALUES (?, ?, ?, ?)',
      ),
      setStatus: db.prepare('UPDATE orders SET status = ?, updated_at = ?, version = version + 1 WHERE company_id = ? AND id = ?'),
    };
    this.insert = db.transaction(this.insert.bind(this));
    this.transition = db.transaction(this.transition.bind(this));
  }

  /** Inserts a new order in status `new` with its first history entry. */
  insert(companyId: number, externalId: string | null, fields: OrderFields, now: string): Order {
    const info = this.stmts.insert.run({ company_id: companyId, external_id: externalId, ...fields, now });
    const id = Number(info.lastInsertRowid);
    this.stmts.addHistory.run(id, 'new', null, now);
    return this.get(companyId, id)!;
  }

  get(companyId: number, id: number): Order | undefined {
    if (!Number.isSafeInteger(id)) return undefined;
    return this.stmts.get.get(companyId, id) as Order | undefined;
  }

  /** The oldest order of the company with this external_id (duplicates may exist). */
  findByExternalId(companyId: number, externalId: string): Order | undefined {
    return this.stmts.byExternal.get(companyId, externalId) as Order | undefined;
  }

  /** The orders among `ids` that belong to the company, in the order of `ids`. */
  findByIds(companyId: number, ids: number[]): Order[] {
    return ids.map((id) => this.get(companyId, id)).filter((o): o is Order => o !== undefined);
  }

  /** For each external id, every order of the company carrying it (oldest first). */
  findByExternalIds(companyId: number, externalIds: string[]): Map<string, Order[]> {
    const stmt = prepare(this.db, 'SELECT * FROM orders WHERE company_id = ? AND external_id = ? ORDER BY id');
    const out = new Map<string, Order[]>();
    for (const ext of externalIds) out.set(ext, stmt.all(companyId, ext) as Order[]);
    return out;
  }

  /** A page of the company's orders, newest first, and the total count of the filtered set. */
  /** Orders of the company in status new or in_route, from order_counts (kept by triggers, migration 101): O(1), and exact, SQLite's writers taking turns. */
  countOpen(companyId: number): number {
    return (
      prepare(this.db, `SELECT COALESCE(SUM(n), 0) AS n FROM order_counts WHERE company_id = ? AND status IN ('new', 'in_route')`).get(companyId) as { n: number }
    ).n;
  }

  list(companyId: number, query: OrderListQuery): { count: number; rows: Order[] } {
    const where = ['company_id = ?'];
    const args: unknown[] = [companyId];
    if (query.status !== undefined) {
      where.push('status = ?');
      args.push(query.status);
    }
    if (query.external_id !== undefined) {
      where.push('external_id = ?');
      args.push(query.external_id);
    }
    const clause = where.join(' AND ');
    // Without an external_id filter the count comes from order_counts (kept by triggers, so
    // writes through any connection count): O(1) instead of a scan of the company's orders.
    const count =
      query.external_id !== undefined
        ? (prepare(this.db, `SELECT COUNT(*) AS n FROM orders WHERE ${clause}`).get(...args) as { n: number }).n
        : query.status !== undefined
          ? ((prepare(this.db, 'SELECT n FROM order_counts WHERE company_id = ? AND status = ?').get(companyId, query.status) as
              | { n: number }
              | undefined)?.n ?? 0)
          : (prepare(this.db, 'SELECT COALESCE(SUM(n), 0) AS n FROM order_counts WHERE company_id = ?').get(companyId) as { n: number }).n;
    const rows = allRows<Order>(this.db, `SELECT * FROM orders WHERE ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, ...args, query.limit, query.offset);
    return { count, rows };
  }

  /** Writes changed client fields; the caller checks the status first (inside its transaction). */
  update(companyId: number, id: number, changes: Partial<OrderFields>, now: string): Order | undefined {
    const columns = FIELD_COLUMNS.filter((c) => c in changes);
    if (columns.length > 0) {
      const sets = columns.map((c) => `${c} = @${c}`).join(', ');
      prepare(this.db, `UPDATE orders SET ${sets}, updated_at = @now, version = version + 1 WHERE company_id = @company_id AND id = @id`)
        .run({ ...changes, now, company_id: companyId, id });
    }
    return this.get(companyId, id);
  }

  /**
   * Moves an order to `to` when its current status is one of `from`, appending a history entry.
   * Returns the updated order and the previous status, or the unchanged order (changed false)
   * when its status did not allow the move, or undefined when the order is not found.
   */
  transition(
    companyId: number,
    id: number,
    from: readonly OrderStatus[],
    to: OrderStatus,
    now: string,
  ): { order: Order; changed: boolean; previous: OrderStatus } | undefined {
    const order = this.get(companyId, id);
    if (!order) return undefined;
    if (!from.includes(order.status)) return { order, changed: false, previous: order.status };
    this.stmts.setStatus.run(to, now, companyId, id);
    this.stmts.addHistory.run(id, to, order.status, now);
    return { order: this.get(companyId, id)!, changed: true, previous: order.status };
  }

  /**
   * Writes geocoded coordinates when the order is still new and still has the address that was
   * geocoded (internal: not company-scoped; the queue holds only ids the service put there).
   */
  applyGeocode(orderId: number, address: string, lat_e6: number, lon_e6: number, now: string): boolean {
    const info = prepare(this.db, 
        `UPDATE orders SET lat_e6 = ?, lon_e6 = ?, updated_at = ?, version = version + 1 WHERE id = ? AND status = 'new' AND address = ?`,
      )
      .run(lat_e6, lon_e6, now, orderId, address);
    return info.changes > 0;
  }

  history(orderId: number): OrderStatusEntry[] {
    return this.stmts.history.all(orderId) as OrderStatusEntry[];
  }
}
