/**
 * The pending-deliveries quota of a webhook subscription (issue 38, item 3; docs/operations.md), on
 * both stores: a subscription holding `maxPending` pending deliveries takes no more (they are
 * dropped and reported, the rest of the batch and other subscriptions are queued); a delivered or
 * given-up one frees its place; the kept count follows every status move and rolls back with its
 * transaction; the backlog metric reads it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, parseWorkerArgs } from '../../src/cli/options.js';
import { PlannerMetrics } from '../../src/service/metrics.js';
import { pendingDeliveriesQuota } from '../../src/service/quota.js';
import type { StorePort } from '../../src/store/port.js';
import { PgStore } from '../../src/store/postgres/index.js';
import { portOf } from '../../src/store/sqlite/port.js';
import { Store } from '../../src/store/sqlite/store.js';
import type { NewDelivery, Order, OutboxQuota } from '../../src/store/types.js';
import { publishIn } from '../../src/webhooks/publish.js';
import { BACKENDS } from '../e2e/backends.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let pgDatabase: Promise<TestDatabase> | undefined;
const dirs: string[] = [];
afterAll(async () => {
  if (pgDatabase) await (await pgDatabase).drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function open(kind: 'sqlite' | 'postgres', outboxQuota: OutboxQuota): Promise<StorePort> {
  if (kind === 'postgres') {
    pgDatabase ??= createTestDatabase();
    const database = await pgDatabase;
    await database.reset();
    return PgStore.open(database.url, { outboxQuota });
  }
  const dir = mkdtempSync(join(tmpdir(), 'dp-outbox-quota-'));
  dirs.push(dir);
  return portOf(Store.open(join(dir, 'planner.db'), { outboxQuota }));
}

const T = 1_764_000_000_000;
const d = (id: string, sub: number, event = 'order.status_changed'): NewDelivery => ({ id, subscriptionId: sub, url: 'http://127.0.0.1:9/', secret: 's', event, body: '{}', createdAt: T });

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`pending-deliveries quota on ${kind}`, () => {
  it('a subscription at its quota takes no more deliveries (dropped, reported); a delivered or given-up one frees a place', async () => {
    const dropped: Array<[number, string]> = [];
    const s = await open(kind, { maxPending: 3, onDropped: (sub, event) => void dropped.push([sub, event]) });
    try {
      await s.outbox.add([d('a1', 1), d('a2', 1), d('b1', 2), d('a3', 1), d('a4', 1, 'planning_job.finished'), d('a5', 1)]);
      expect((await s.outbox.list()).map((x) => x.id)).toEqual(['a1', 'a2', 'a3', 'b1']);
      expect(dropped).toEqual([[1, 'planning_job.finished'], [1, 'order.status_changed']]);
      expect([await s.outbox.countPendingFor(1), await s.outbox.countPendingFor(2), await s.outbox.countPending()]).toEqual([3, 1, 4]);

      await s.outbox.add([d('a6', 1)]);
      expect(await s.outbox.get('a6')).toBeUndefined();
      // a retry keeps its place; a delivery and a give-up each free one
      expect(await s.outbox.retryLater('a1', 1, T + 5_000, 'HTTP 500')).toBe(true);
      expect(await s.outbox.countPendingFor(1)).toBe(3);
      await s.outbox.delivered('a1', 2, T + 6_000);
      await s.outbox.giveUp('a2', 11, 'gone');
      expect(await s.outbox.countPendingFor(1)).toBe(1);
      await s.outbox.add([d('a7', 1), d('a8', 1), d('a9', 1)]);
      expect((await s.outbox.list()).filter((x) => x.status === 'pending' && x.subscriptionId === 1).map((x) => x.id)).toEqual(['a3', 'a7', 'a8']);
      expect(dropped).toHaveLength(4);
      // delivered rows pruned: the count of pending ones does not move
      await s.outbox.pruneDelivered(T + 10_000);
      expect([await s.outbox.countPendingFor(1), await s.outbox.countPending()]).toEqual([3, 4]);
    } finally {
      await s.close();
    }
  });

  it('the kept counts equal the rows after concurrent adds, outcomes and transactions (PostgreSQL: many connections at once)', async () => {
    const s = await open(kind, { maxPending: 1_000_000 });
    try {
      const now = new Date(T).toISOString();
      const company = await s.companies.create({ name: 'A', timezone: 'UTC' }, now);
      const orders: Order[] = [];
      for (let i = 0; i < 20; i++) orders.push(await s.orders.insert(company.id, null, { name: '', recipient: '', phone: '', address: `a ${i}`, lat_e6: null, lon_e6: null, time_window_start: null, time_window_end: null, weight_g: 0, volume_l: 0, service_time: 10, notes: '', order_type: 'one_time', delivery_date: '2026-12-01' }, now));
      await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => s.outbox.add(Array.from({ length: 20 }, (_, j) => d(`c${i}-${j}`, 1 + (j % 3))))),
        ...Array.from({ length: 10 }, (_, i) =>
          s.transaction(async (tx) => {
            await tx.outbox.add([d(`t${i}`, 1), d(`u${i}`, 2)]);
            await tx.orders.transition(company.id, orders[i]!.id, ['new'], 'archived', now);
            if (i % 3 === 0) throw new Error('rolled back');
          }).catch(() => {}),
        ),
      ]);
      const ids = (await s.outbox.list()).map((x) => x.id);
      await Promise.all(ids.filter((_, k) => k % 2 === 0).map((id, k) => (k % 3 ? s.outbox.delivered(id, 1, T + 1) : s.outbox.giveUp(id, 1, 'x'))));
      const rows = await s.outbox.list();
      for (const sub of [1, 2, 3]) {
        expect(await s.outbox.countPendingFor(sub), `subscription ${sub}`).toBe(rows.filter((x) => x.subscriptionId === sub && x.status === 'pending').length);
      }
      expect(await s.outbox.countPending()).toBe(rows.filter((x) => x.status === 'pending').length);
      // the open-orders count through the same transactions: 4 rolled back (i = 0, 3, 6, 9), 6 archived
      expect(await s.orders.countOpen(company.id)).toBe(14);
    } finally {
      await s.close();
    }
  });

  it('two transactions closing orders of one company, one waiting for a row the other holds, both commit (the counts are written at commit: no lock-order cycle)', async () => {
    const s = await open(kind, { maxPending: 10 });
    try {
      const now = new Date(T).toISOString();
      const company = await s.companies.create({ name: 'A', timezone: 'UTC' }, now);
      const fields = { name: '', recipient: '', phone: '', address: 'a', lat_e6: null, lon_e6: null, time_window_start: null, time_window_end: null, weight_g: 0, volume_l: 0, service_time: 10, notes: '', order_type: 'one_time' as const, delivery_date: '2026-12-01' };
      const [o1, o2, o3] = [await s.orders.insert(company.id, null, fields, now), await s.orders.insert(company.id, null, fields, now), await s.orders.insert(company.id, null, fields, now)];
      let bHolds!: () => void;
      const held = new Promise<void>((r) => (bHolds = r));
      // B closes o2 and o3; A closes o1, then o2 (B's), waiting for B; on SQLite they simply take turns
      const b = s.transaction(async (tx) => {
        await tx.orders.transition(company.id, o2.id, ['new'], 'archived', now);
        bHolds();
        await new Promise((r) => setTimeout(r, 100));
        await tx.orders.transition(company.id, o3.id, ['new'], 'archived', now);
        await publishIn(tx, company.id, 'order.status_changed', {});
      });
      const a = (kind === 'postgres' ? held : b).then(() =>
        s.transaction(async (tx) => {
          await tx.orders.transition(company.id, o1.id, ['new'], 'archived', now);
          await tx.orders.transition(company.id, o2.id, ['new', 'archived'], 'confirmed', now);
        }),
      );
      await Promise.all([a, b]);
      expect(await s.orders.countOpen(company.id)).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('the count rolls back with the change that queued the deliveries; the change is not refused at the quota', async () => {
    const s = await open(kind, { maxPending: 2 });
    try {
      const now = new Date(T).toISOString();
      const company = await s.companies.create({ name: 'A', timezone: 'UTC' }, now);
      const sub = await s.webhooks.create({ company_id: company.id, url: 'http://127.0.0.1:9/', events: ['order.status_changed'] }, now);
      await s.transaction(async (tx) => {
        await publishIn(tx, company.id, 'order.status_changed', { n: 1 });
        throw new Error('the change failed');
      }).catch(() => {});
      expect(await s.outbox.countPendingFor(sub.id)).toBe(0);
      for (let n = 0; n < 4; n++) {
        // each change commits; past the quota its delivery is not queued
        await s.transaction(async (tx) => {
          await tx.companies.update(company.id, { name: `A${n}` });
          await publishIn(tx, company.id, 'order.status_changed', { n });
        });
      }
      expect((await s.companies.get(company.id))!.name).toBe('A3');
      expect(await s.outbox.countPendingFor(sub.id)).toBe(2);
      // (two deliveries made in one millisecond are listed by their random ids: compare as a set)
      expect((await s.outbox.list()).map((x) => JSON.parse(x.body).data.n).sort()).toEqual([0, 1]);
    } finally {
      await s.close();
    }
  });
});

describe('the quota in a process', () => {
  it('--max-pending-deliveries on serve and worker (default 100,000), refused when not a whole number from 1', () => {
    const serve = (argv: string[]) => parseServeArgs(argv) as Exclude<ReturnType<typeof parseServeArgs>, 'help'>;
    expect(serve([]).flow?.maxPendingDeliveries).toBeUndefined();
    expect(serve(['--max-pending-deliveries', '5000']).flow?.maxPendingDeliveries).toBe(5_000);
    expect((parseWorkerArgs(['--db', 'x.db', '--max-pending-deliveries', '7']) as { flow: { maxPendingDeliveries?: number } }).flow.maxPendingDeliveries).toBe(7);
    expect(() => parseServeArgs(['--max-pending-deliveries', '0'])).toThrow(/^--max-pending-deliveries: expected a whole number from 1/);
  });

  it('a dropped delivery counts in planner_webhook_deliveries_dropped_total and is logged once a minute per subscription', async () => {
    const metrics = new PlannerMetrics();
    const warned: object[] = [];
    let now = 0;
    const quota = pendingDeliveriesQuota(10, { metrics, warn: (o) => void warned.push(o), now: () => now });
    quota.onDropped!(1, 'order.status_changed', 1);
    quota.onDropped!(1, 'order.status_changed', 1);
    quota.onDropped!(2, 'planning_job.finished', 1);
    now = 61_000;
    quota.onDropped!(1, 'order.status_changed', 1);
    expect(warned).toEqual([
      { subscription_id: 1, event: 'order.status_changed', max_pending_deliveries: 10 },
      { subscription_id: 2, event: 'planning_job.finished', max_pending_deliveries: 10 },
      { subscription_id: 1, event: 'order.status_changed', max_pending_deliveries: 10 },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('planner_webhook_deliveries_dropped_total{event="order.status_changed"} 3');
    expect(text).toContain('planner_webhook_deliveries_dropped_total{event="planning_job.finished"} 1');
  });
});
