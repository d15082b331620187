/**
 * Queue looks that do not grow with the backlog (issue 38, item 2), on both stores: the statements
 * of the webhook outbox's look (`due`, `nextDue`) and of the geocoding queue's (`due`, `nextDueAt`)
 * run on indexes, never a full scan, over a backlog of a dead subscription (most rows, the oldest),
 * a paused one and one company's bulk upload; and on PostgreSQL the rows they read (EXPLAIN
 * ANALYZE) are a few per subscription or company, not the backlog. Times: bench/queues.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEOCODE_DUE_SQL, GEOCODE_NEXT_DUE_SQL } from '../../src/store/postgres/geocode-queue.js';
import { PgStore } from '../../src/store/postgres/index.js';
import { OUTBOX_DUE_SQL, OUTBOX_NEXT_DUE_SQL } from '../../src/store/postgres/outbox.js';
import { GEOCODE_LOOK_SQL } from '../../src/store/sqlite/geocode-queue.js';
import { OUTBOX_LOOK_SQL } from '../../src/store/sqlite/outbox.js';
import { SqliteStorePort } from '../../src/store/sqlite/port.js';
import { Store } from '../../src/store/sqlite/store.js';
import { createTestDatabase, postgres, type TestDatabase } from '../helpers/postgres.js';
import { seedBacklog, T0, type Backlog } from '../helpers/queue-backlog.js';

const DELIVERIES = 20_000;
const TASKS = 10_000;

describe('queue looks on SQLite: every statement on an index', () => {
  let dir: string;
  let port: SqliteStorePort;
  let backlog: Backlog;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dp-plans-'));
    port = new SqliteStorePort(Store.open(join(dir, 'planner.db')));
    backlog = await seedBacklog(port, { deliveries: DELIVERIES, tasks: TASKS });
  });
  afterAll(async () => {
    await port.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The plan's lines, and whether each reads a table through an index (a SCAN or SEARCH without one reads it all). */
  const plan = (sql: string, args: unknown[]) =>
    (port.store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
  // SEARCH reads a range of an index; SCAN walks a whole table or index (a look may SCAN only in
  // index order up to its LIMIT 1: the geocoding queue's next try)
  const fullScans = (lines: string[]) => lines.filter((l) => /^(SCAN|SEARCH) (webhook_deliveries|geocode_queue)\b/.test(l) && (/^SCAN/.test(l) || !/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/.test(l)));

  const statements = (b: Backlog): Array<[string, string, unknown[], string]> => [
    ['outbox: next subscription', OUTBOX_LOOK_SQL.nextSubscription, [b.dead], 'webhook_deliveries_pending'],
    ['outbox: live leases of a subscription', OUTBOX_LOOK_SQL.leased, [b.dead, T0, 2], 'webhook_deliveries_leased'],
    ['outbox: due rows of a subscription', OUTBOX_LOOK_SQL.free, [b.dead, T0 + DELIVERIES, T0 + DELIVERIES, 2], 'webhook_deliveries_pending'],
    ['outbox: next lease end', OUTBOX_LOOK_SQL.nextLeaseEnd, [b.dead, T0], 'webhook_deliveries_leased'],
    ['outbox: next try', OUTBOX_LOOK_SQL.nextTry, [b.dead, T0], 'webhook_deliveries_pending'],
    ['geocoding: next company', GEOCODE_LOOK_SQL.nextCompany, [0], 'geocode_queue_company_due'],
    ['geocoding: due tasks of a company', GEOCODE_LOOK_SQL.dueOfCompany, [b.bulkCompany, '2030-01-01', '2030-01-01', 'me', 50], 'geocode_queue_company_due'],
    ['geocoding: next lease end', GEOCODE_LOOK_SQL.nextLeaseEnd, ['2030-01-01'], 'geocode_queue_leased'],
    ['geocoding: next try', GEOCODE_LOOK_SQL.nextTry, ['2030-01-01'], 'geocode_queue_due'],
  ];

  for (const stats of ['without statistics', 'after ANALYZE']) {
    it(`each statement of a look uses its index and scans no table (${stats})`, () => {
      if (stats === 'after ANALYZE') port.store.db.exec('ANALYZE');
      for (const [name, sql, args, index] of statements(backlog)) {
        const lines = plan(sql, args);
        if (name === 'geocoding: next try') expect(lines, name).toEqual(['SCAN geocode_queue USING INDEX geocode_queue_due']);
        else expect(fullScans(lines), `${name}: ${lines.join(' | ')}`).toEqual([]);
        expect(lines.join(' | '), name).toContain(index);
        // no sort of what was read: read in index order, up to the LIMIT (the live leases, a few rows in flight, are sorted)
        if (!name.includes('live leases')) expect(lines.join(' | '), name).not.toContain('TEMP B-TREE');
      }
    });
  }

  it('the check catches the look of before (a window over every pending row): it walks every pending row, and sorts them', () => {
    const before = `SELECT * FROM (
         SELECT *, ROW_NUMBER() OVER (
             PARTITION BY subscription_id ORDER BY COALESCE(lease_until, 0) > @now DESC, next_attempt_at, created_at, id) AS rank
         FROM webhook_deliveries
         WHERE status = 'pending' AND (next_attempt_at <= @now OR COALESCE(lease_until, 0) > @now)
           AND subscription_id NOT IN (SELECT value FROM json_each(@paused)))
       WHERE rank <= @per AND (COALESCE(lease_until, 0) <= @now OR lease_owner = @owner)
       ORDER BY next_attempt_at, created_at, id LIMIT @limit`;
    const lines = (port.store.db.prepare(`EXPLAIN QUERY PLAN ${before}`).all({ now: T0, paused: '[]', per: 2, owner: null, limit: 8 }) as Array<{ detail: string }>).map((r) => r.detail);
    const text = lines.join(' | ');
    expect(fullScans(lines).length, text).toBeGreaterThan(0);
    expect(text).toContain('TEMP B-TREE');
  });

  it('the looks answer as before over the backlog: the healthy subscriptions first, the dead one within its cap, the paused one not at all', async () => {
    const now = T0 + DELIVERIES + 100;
    const due = await port.outbox.due(now, 10, new Set(), { perSubscription: 2, paused: new Set([backlog.paused]) });
    expect(due.map((d) => d.subscriptionId).sort()).toEqual([backlog.dead, backlog.dead, ...backlog.healthy].sort());
    expect(await port.outbox.nextDue(new Set([backlog.paused, backlog.dead]), now)).toBe(T0 + DELIVERIES + 1);
    const tasks = await port.geocodeQueue.due(new Date(T0 + 10_000).toISOString(), 8);
    // each small company's one task in the first turn, beside the bulk company's oldest
    expect(tasks.slice(0, 1 + backlog.smallCompanies.length).length).toBe(6);
    expect(new Set((await Promise.all(tasks.slice(0, 6).map((t) => port.store.db.prepare('SELECT company_id FROM orders WHERE id = ?').get(t.order_id) as { company_id: number }))).map((r) => r.company_id)))
      .toEqual(new Set([backlog.bulkCompany, ...backlog.smallCompanies]));
  });
});

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; 'Rows Removed by Filter'?: number; 'Rows Removed by Index Recheck'?: number; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

describe.skipIf(!postgres.available)('queue looks on PostgreSQL: on indexes, reading a few rows per subscription or company', () => {
  let database: TestDatabase;
  let store: PgStore;
  let backlog: Backlog;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await PgStore.open(database.url);
    backlog = await seedBacklog(store, { deliveries: DELIVERIES, tasks: TASKS });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const explain = async (sql: string, args: unknown[]) => {
    const { rows } = await store.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, args);
    return nodes(rows[0]!['QUERY PLAN'][0]!.Plan);
  };
  const now = T0 + DELIVERIES + 100;
  const cases: Array<[string, string, unknown[], string[]]> = [
    ['outbox due', `${OUTBOX_DUE_SQL} SELECT id FROM chosen`, [now, [1_002], 2, 'me', [], 10, 2], ['webhook_deliveries_pending', 'webhook_deliveries_leased']],
    ['outbox nextDue', OUTBOX_NEXT_DUE_SQL, [now, [1_002]], ['webhook_deliveries_pending', 'webhook_deliveries_leased']],
    ['geocoding due', `${GEOCODE_DUE_SQL} SELECT id FROM chosen`, ['2030-01-01', 'me', 50], ['geocode_queue_company_due']],
    ['geocoding nextDueAt', GEOCODE_NEXT_DUE_SQL, ['2030-01-01'], ['geocode_queue_due', 'geocode_queue_leased']],
  ];

  for (const [name, sql, args, indexes] of cases) {
    it(`${name}: no sequential scan of the queue, its indexes used, a few rows read (backlog ${DELIVERIES} deliveries, ${TASKS} tasks)`, async () => {
      const plan = await explain(sql, args);
      const queue = plan.filter((n) => n['Relation Name'] === 'webhook_deliveries' || n['Relation Name'] === 'geocode_queue');
      expect(queue.filter((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Bitmap Heap Scan'), JSON.stringify(queue)).toEqual([]);
      const used = new Set(plan.map((n) => n['Index Name']).filter(Boolean));
      for (const index of indexes) expect([...used], name).toContain(index);
      // rows a scan returned and rows it read and dropped by a filter, over all its loops
      const read = queue.reduce((sum, n) => sum + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * (n['Actual Loops'] ?? 1), 0);
      // a few per subscription (7 with pending rows) or company (6), whatever the backlog
      expect(read, name).toBeLessThan(200);
    });
  }

  it('the check catches the look of before (a window over every pending row): it reads the backlog', async () => {
    const before = `
      SELECT d.id FROM webhook_deliveries d JOIN (
        SELECT id, ROW_NUMBER() OVER (
            PARTITION BY subscription_id ORDER BY COALESCE(lease_until, 0) > $1 DESC, next_attempt_at, created_at, id) AS rank
          FROM webhook_deliveries
         WHERE status = 'pending' AND (next_attempt_at <= $1 OR COALESCE(lease_until, 0) > $1)
           AND NOT (subscription_id = ANY($2::bigint[]))) r ON r.id = d.id
       WHERE r.rank <= $3 AND d.status = 'pending' AND (COALESCE(d.lease_until, 0) <= $1 OR d.lease_owner = $4)
       ORDER BY d.next_attempt_at, d.created_at, d.id LIMIT $5`;
    const plan = await explain(before, [now, [1_002], 2, 'me', 8]);
    const read = plan
      .filter((n) => n['Relation Name'] === 'webhook_deliveries')
      .reduce((sum, n) => sum + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1), 0);
    expect(read).toBeGreaterThan(DELIVERIES / 2);
  });

  it('the looks answer as on SQLite over the backlog', async () => {
    const due = await store.outbox.due(now, 10, new Set(), { perSubscription: 2, paused: new Set([backlog.paused]) });
    expect(due.map((d) => d.subscriptionId).sort()).toEqual([backlog.dead, backlog.dead, ...backlog.healthy].sort());
    expect(await store.outbox.nextDue(new Set([backlog.paused, backlog.dead]), now)).toBe(T0 + DELIVERIES + 1);
    const tasks = await store.geocodeQueue.due(new Date(T0 + 10_000).toISOString(), 8);
    const companies = (await store.pool.query<{ company_id: number }>('SELECT company_id FROM orders WHERE id = ANY($1::bigint[])', [tasks.slice(0, 6).map((t) => t.order_id)])).rows;
    expect(new Set(companies.map((r) => Number(r.company_id)))).toEqual(new Set([backlog.bulkCompany, ...backlog.smallCompanies]));
  });
});
