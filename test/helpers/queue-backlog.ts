/**
 * Backlogs for the queue looks (issue 38, item 2), written in bulk SQL on either store: the webhook
 * outbox with one dead subscription holding most pending deliveries (older than everyone else's),
 * one paused subscription with a backlog of its own and a few healthy ones; the geocoding queue with
 * one company's bulk uploads and a few companies with one task each. Used by
 * test/store/queue-plans.test.ts (plans and rows read) and bench/queues.ts (times).
 */
import type { StorePort } from '../../src/store/port.js';
import { PgStore } from '../../src/store/postgres/index.js';
import { SqliteStorePort } from '../../src/store/sqlite/port.js';

export interface Backlog {
  /** The subscription whose receiver answers 500: most of the pending rows, the oldest. */
  dead: number;
  /** A paused subscription with a backlog (its deliveries wait). */
  paused: number;
  /** Healthy subscriptions, one due delivery each. */
  healthy: number[];
  /** The company with the bulk geocoding backlog, and the companies with one task each. */
  bulkCompany: number;
  smallCompanies: number[];
}

export const T0 = 1_764_000_000_000;

/** Runs SQL text (one statement) on the store's own connection. */
export async function exec(store: StorePort, sql: string): Promise<void> {
  if (store instanceof PgStore) await store.pool.query(sql);
  else (store as SqliteStorePort).store.db.exec(sql);
}

/** `n` numbers 1..n as a row source `nums(i)`, in the store's dialect. */
function numbers(store: StorePort, n: number): string {
  return store instanceof PgStore
    ? `nums AS (SELECT generate_series(1, ${n}) AS i)`
    : `RECURSIVE nums(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM nums WHERE i < ${n})`;
}

/**
 * `deliveries` pending rows (9/10 on the dead subscription, 1/10 on the paused one, all due in
 * the past) plus one due row per healthy subscription (newer than the backlog), and `tasks`
 * geocoding tasks (all but the small companies' one each on the bulk company), all due.
 */
export async function seedBacklog(store: StorePort, options: { deliveries: number; tasks: number; healthy?: number; small?: number }): Promise<Backlog> {
  const dead = 1_001;
  const paused = 1_002;
  const healthy = Array.from({ length: options.healthy ?? 5 }, (_, i) => 2_001 + i);
  const pick = `CASE WHEN i % 10 = 0 THEN ${paused} ELSE ${dead} END`;
  const concat = (a: string, b: string) => (store instanceof PgStore ? `${a} || ${b}::text` : `${a} || ${b}`);
  await exec(
    store,
    `INSERT INTO webhook_deliveries (id, subscription_id, url, secret, event, body, status, attempts, next_attempt_at, created_at)
     WITH ${numbers(store, options.deliveries)}
     SELECT ${concat("'backlog-'", 'i')}, ${pick}, 'http://127.0.0.1:9/', 's', 'order.status_changed', '{}', 'pending', 3, ${T0} + i, ${T0} + i FROM nums`,
  );
  for (const [k, sub] of healthy.entries()) {
    await store.outbox.add([{ id: `healthy-${sub}`, subscriptionId: sub, url: 'http://127.0.0.1:9/', secret: 's', event: 'order.status_changed', body: '{}', createdAt: T0 + options.deliveries + 1 + k }]);
  }

  const now = new Date(T0).toISOString();
  const bulk = await store.companies.create({ name: 'Bulk', timezone: 'UTC' }, now);
  const small: number[] = [];
  for (let i = 0; i < (options.small ?? 5); i++) small.push((await store.companies.create({ name: `Small ${i}`, timezone: 'UTC' }, now)).id);
  await exec(
    store,
    `INSERT INTO orders (company_id, external_id, address, delivery_date, created_at, updated_at)
     WITH ${numbers(store, options.tasks)}
     SELECT ${bulk.id}, ${concat("'bulk-'", 'i')}, ${concat("'Street '", 'i')}, '2026-12-01', '${now}', '${now}' FROM nums`,
  );
  // (before migration 121 the queue had no company_id: bench/queues.ts runs on older commits too)
  const withCompany = store instanceof PgStore
    ? (await store.pool.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'geocode_queue' AND column_name = 'company_id'`)).rowCount! > 0
    : (store as SqliteStorePort).store.db.prepare(`SELECT 1 FROM pragma_table_info('geocode_queue') WHERE name = 'company_id'`).get() !== undefined;
  await exec(
    store,
    withCompany
      ? `INSERT INTO geocode_queue (order_id, company_id, address, next_attempt_at, created_at)
         SELECT id, company_id, address, created_at, created_at FROM orders WHERE company_id = ${bulk.id}`
      : `INSERT INTO geocode_queue (order_id, address, next_attempt_at, created_at)
         SELECT id, address, created_at, created_at FROM orders WHERE company_id = ${bulk.id}`,
  );
  for (const company of small) {
    const order = await store.orders.insert(company, null, {
      name: '', recipient: '', phone: '', address: `Small street ${company}`, lat_e6: null, lon_e6: null,
      time_window_start: null, time_window_end: null, weight_g: 0, volume_l: 0, service_time: 10, notes: '',
      order_type: 'one_time', delivery_date: '2026-12-01',
    }, new Date(T0 + 1_000).toISOString());
    await store.geocodeQueue.enqueue(order.id, order.address, new Date(T0 + 1_000).toISOString());
  }
  // PostgreSQL's autovacuum would gather statistics of tables this size; SQLite has none unless ANALYZE runs
  if (store instanceof PgStore) await exec(store, 'ANALYZE');
  return { dead, paused, healthy, bulkCompany: bulk.id, smallCompanies: small };
}
