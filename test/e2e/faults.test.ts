/**
 * Fault tests against the real server process: kill -9 in the middle of a planning job, a webhook
 * receiver that fails once, one that never answers, and undelivered webhooks across a restart.
 */
import { Database } from '../../src/store/sqlite/driver.js';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { client, orders, readDb, seedDb, startServe, until, type Served } from './serve.js';

describe('faults against the real server', () => {
  const cleanup: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f();
    cleanup.length = 0;
  });

  async function serve(db: string, args: string[]): Promise<Served> {
    const s = await startServe(db, args);
    cleanup.push(() => (s.child.exitCode === null && s.child.signalCode === null ? s.kill('SIGKILL') : undefined));
    return s;
  }
  async function receiver(plan: Array<number | 'hang'>): Promise<WebhookReceiver> {
    const r = await startWebhookReceiver(plan);
    cleanup.push(() => r.close());
    return r;
  }
  function seed(options: Parameters<typeof seedDb>[0]) {
    const s = seedDb(options);
    cleanup.push(() => rmSync(s.dir, { recursive: true, force: true }));
    return s;
  }

  it('kill -9 while a planning job runs: after a restart the job completes, placing each order once', async () => {
    const s = seed({ vehicles: 6 });
    // a short lease: the restarted server takes the job over once the dead one's lease runs out
    const first = await serve(s.db, ['--job-time-limit', '30', '--workers', '1', '--lease-seconds', '3']);
    const call = client(first.base, s.key);
    const bulk = await call('POST', '/api/public/v1/orders/bulk/', orders(120));
    expect(bulk.body.summary.created).toBe(120);
    const job = await call('POST', '/api/public/v1/planning/jobs/', { external_ids: orders(120).map((o) => o.external_id) });
    expect(job.status).toBe(202);
    const jobId = job.body.job_id;
    await until(async () => ((await call('GET', `/api/public/v1/planning/jobs/${jobId}/`)).body.status === 'running' ? true : undefined), 50);

    expect(await first.kill('SIGKILL')).toBe('SIGKILL');
    const left = readDb(s.db, (db) => db.prepare('SELECT status FROM planning_jobs WHERE id = ?').get(jobId) as { status: string });
    expect(left.status).toBe('running');
    expect(readDb(s.db, (db) => (db.prepare('SELECT COUNT(*) AS n FROM routes').get() as { n: number }).n)).toBe(0);

    const second = await serve(s.db, ['--job-time-limit', '1', '--workers', '1']);
    const again = client(second.base, s.key);
    const done = await until(async () => {
      const j = (await again('GET', `/api/public/v1/planning/jobs/${jobId}/`)).body;
      return j.status === 'done' || j.status === 'failed' ? j : undefined;
    });
    expect(done.status).toBe('done');
    expect(done.result.summary.route_count).toBeGreaterThan(0);
    const stopsPerOrder = readDb(s.db, (db) =>
      db.prepare(`SELECT order_id, COUNT(*) AS n FROM route_stops WHERE order_id IS NOT NULL GROUP BY order_id`).all() as Array<{ n: number }>,
    );
    expect(stopsPerOrder.every((r) => r.n === 1)).toBe(true);
    expect(stopsPerOrder.length + done.result.unassigned.length).toBe(120);
    const inRoute = await again('GET', '/api/public/v1/orders/?status=in_route&page_size=200');
    expect(inRoute.body.count).toBe(stopsPerOrder.length);
    expect(await second.kill('SIGTERM')).toBe(0);
  });

  it('SIGTERM while a long job runs: exits 0 after a short drain, the job is handed back (still running, its lease ended, the attempt not counted) and completes after the restart', async () => {
    const s = seed({ vehicles: 4 });
    const first = await serve(s.db, ['--job-time-limit', '60', '--workers', '1']);
    const call = client(first.base, s.key);
    await call('POST', '/api/public/v1/orders/bulk/', orders(60, 'T'));
    const job = await call('POST', '/api/public/v1/planning/jobs/', { external_ids: orders(60, 'T').map((o) => o.external_id) });
    await until(async () => ((await call('GET', `/api/public/v1/planning/jobs/${job.body.job_id}/`)).body.status === 'running' ? true : undefined), 50);
    expect(await first.kill('SIGTERM')).toBe(0);
    expect(readDb(s.db, (db) => db.prepare('SELECT status, lease_owner, attempts FROM planning_jobs WHERE id = ?').get(job.body.job_id))).toEqual({
      status: 'running',
      lease_owner: null,
      attempts: 0,
    });

    const second = await serve(s.db, ['--job-time-limit', '1', '--workers', '1']);
    const again = client(second.base, s.key);
    const done = await until(async () => {
      const j = (await again('GET', `/api/public/v1/planning/jobs/${job.body.job_id}/`)).body;
      return j.status === 'done' || j.status === 'failed' ? j : undefined;
    });
    expect(done.status, JSON.stringify(done)).toBe('done');
    expect((await again('GET', '/api/public/v1/orders/?status=in_route&page_size=200')).body.count).toBe(60 - done.result.unassigned.length);
  });

  it('a receiver answering 500 then 200 gets the event twice with one delivery id; it ends delivered', async () => {
    const r = await receiver([500, 200]);
    const s = seed({ webhookUrl: r.url });
    const server = await serve(s.db, ['--webhook-retry-delays', '300,600', '--workers', '1']);
    const call = client(server.base, s.key);
    const created = await call('POST', '/api/public/v1/orders/', { external_id: 'X-1', address: 'Alexanderplatz 1, 10178 Berlin' });
    expect((await call('POST', `/api/public/v1/orders/${created.body.id}/cancel/`)).status).toBe(200);

    const [a, b] = await r.waitFor(2);
    expect([a!.status, b!.status]).toEqual([500, 200]);
    expect(a!.headers['x-planner-delivery-id']).toBe(b!.headers['x-planner-delivery-id']);
    expect(a!.body).toBe(b!.body);
    const body = JSON.parse(b!.body);
    expect(body).toMatchObject({ id: a!.headers['x-planner-delivery-id'], event: 'order.status_changed', data: { order_id: created.body.id, status: 'archived', previous_status: 'new' } });
    const stored = await until(async () => {
      const row = readDb(s.db, (db) => db.prepare('SELECT status, attempts FROM webhook_deliveries WHERE id = ?').get(body.id) as { status: string; attempts: number });
      return row.status === 'delivered' ? row : undefined;
    }, 50);
    expect(stored).toEqual({ status: 'delivered', attempts: 2 });
    expect(readDb(s.db, (db) => (db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get() as { n: number }).n)).toBe(1);
  });

  it('a receiver that never answers: the API stays responsive, planning finishes, SIGTERM still exits 0', async () => {
    const r = await receiver(Array.from({ length: 200 }, () => 'hang' as const));
    const s = seed({ webhookUrl: r.url, vehicles: 3 });
    const server = await serve(s.db, ['--webhook-timeout', '60000', '--webhook-retry-delays', '100', '--job-time-limit', '1', '--workers', '1']);
    const call = client(server.base, s.key);
    const bulk = await call('POST', '/api/public/v1/orders/bulk/', orders(40, 'H'));
    const ids = bulk.body.results.map((x: { id: number }) => x.id) as number[];
    // 20 cancellations: 20 deliveries to one subscription, all hanging: it holds 2 slots at most
    for (const id of ids.slice(20)) expect((await call('POST', `/api/public/v1/orders/${id}/cancel/`)).status).toBe(200);
    await r.waitFor(2);

    const job = await call('POST', '/api/public/v1/planning/jobs/', { order_ids: ids.slice(0, 20) });
    expect(job.status).toBe(202);
    for (let i = 0; i < 40; i++) {
      const page = await call('GET', '/api/public/v1/orders/?page_size=50');
      expect(page.status).toBe(200);
    }
    const done = await until(async () => {
      const j = (await call('GET', `/api/public/v1/planning/jobs/${job.body.job_id}/`)).body;
      return j.status === 'done' || j.status === 'failed' ? j : undefined;
    });
    expect(done.status).toBe('done');
    const pending = readDb(s.db, (db) => (db.prepare(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'`).get() as { n: number }).n);
    expect(pending).toBeGreaterThan(0);
    // the two hanging tries are all this subscription got, while the API and the planner ran on
    expect(r.received).toHaveLength(2);
    expect(await server.kill('SIGTERM')).toBe(0);
  });

  it('undelivered webhooks survive a restart and go out with the same delivery id', async () => {
    const r = await receiver([503, 503, 503, 503, 503]);
    const s = seed({ webhookUrl: r.url });
    const first = await serve(s.db, ['--webhook-retry-delays', '60000', '--workers', '1']);
    const call = client(first.base, s.key);
    const created = await call('POST', '/api/public/v1/orders/', { external_id: 'R-1', address: 'Alexanderplatz 1, 10178 Berlin' });
    await call('POST', `/api/public/v1/orders/${created.body.id}/cancel/`);
    const [failed] = await r.waitFor(1);
    expect(failed!.status).toBe(503);
    expect(await first.kill('SIGTERM')).toBe(0);
    const row = readDb(s.db, (db) => db.prepare('SELECT id, status, attempts FROM webhook_deliveries').get() as { id: string; status: string; attempts: number });
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });

    // the next start must not wait the 60 s of the old schedule: the row is due when its time comes;
    // make it due now, as if the process had been down that long
    const db = new Database(s.db);
    db.prepare('UPDATE webhook_deliveries SET next_attempt_at = 0').run();
    db.close();
    r.plan.length = 0;
    await serve(s.db, ['--webhook-retry-delays', '60000', '--workers', '1']);
    const [, again] = await r.waitFor(2);
    expect(again!.status).toBe(200);
    expect(again!.headers['x-planner-delivery-id']).toBe(row.id);
    await until(async () => (readDb(s.db, (d) => (d.prepare('SELECT status FROM webhook_deliveries').get() as { status: string }).status) === 'delivered' ? true : undefined), 50);
  });
});
