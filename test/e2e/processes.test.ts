/**
 * Many processes on one database (operations.md, "Scaling out"): an API process that runs no work
 * (`serve --jobs off`) and two `worker` processes on one SQLite file. Work is claimed with leases:
 * a job runs in one worker at a time, a worker killed with SIGKILL in the middle of a job loses it
 * to the other when its lease runs out, the job places each order once and is announced once.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { client, orders, readDb, seedDb, startServe, startWorker, until, type Served, type Worker } from './serve.js';

describe('serve --jobs off and two workers on one SQLite file', () => {
  const cleanup: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f();
    cleanup.length = 0;
  });
  const alive = (p: { child: Served['child'] }) => p.child.exitCode === null && p.child.signalCode === null;

  async function serve(db: string, args: string[]): Promise<Served> {
    const s = await startServe(db, args);
    cleanup.push(() => (alive(s) ? s.kill('SIGKILL') : undefined));
    return s;
  }
  async function worker(db: string, args: string[]): Promise<Worker> {
    const w = await startWorker(db, args);
    cleanup.push(() => (alive(w) ? w.kill('SIGKILL') : undefined));
    return w;
  }
  async function receiver(): Promise<WebhookReceiver> {
    const r = await startWebhookReceiver();
    cleanup.push(() => r.close());
    return r;
  }

  it('a worker killed mid-job loses it to the other; every job ends done once, each order placed once, one finished event per job', async () => {
    const r = await receiver();
    const s = seedDb({ vehicles: 8, webhookUrl: r.url });
    cleanup.push(() => rmSync(s.dir, { recursive: true, force: true }));
    const api = await serve(s.db, ['--jobs', 'off']);
    const call = client(api.base, s.key);
    const batches = ['A', 'B', 'C'].map((p) => orders(40, p));
    for (const batch of batches) expect((await call('POST', '/api/public/v1/orders/bulk/', batch)).status).toBe(200);

    // the API process queues the jobs and runs none of them
    const jobs: Array<{ job_id: number }> = [];
    for (const batch of batches) jobs.push((await call('POST', '/api/public/v1/planning/jobs/', { external_ids: batch.map((o) => o.external_id) })).body);
    await new Promise((res) => setTimeout(res, 1_500));
    for (const job of jobs) expect((await call('GET', `/api/public/v1/planning/jobs/${job.job_id}/`)).body.status).toBe('queued');

    const args = ['--workers', '1', '--job-time-limit', '4', '--lease-seconds', '2', '--webhook-retry-delays', '200,200,200'];
    const one = await worker(s.db, args);
    const two = await worker(s.db, args);
    // kill -9 the worker holding the first job while it solves
    const holder = await until(async () => {
      const row = readDb(s.db, (db) => db.prepare('SELECT status, lease_owner FROM planning_jobs WHERE id = ?').get(jobs[0].job_id)) as {
        status: string;
        lease_owner: string | null;
      };
      return row.status === 'running' && row.lease_owner ? row.lease_owner : undefined;
    }, 50);
    const victim = [one, two].find((w) => holder.includes(`:${w.pid}:`))!;
    expect(victim).toBeDefined();
    expect(await victim.kill('SIGKILL')).toBe('SIGKILL');

    const finished: Array<{ status: string; result: { unassigned: unknown[] } }> = [];
    for (const job of jobs) {
      finished.push(
        await until(async () => {
          const j = (await call('GET', `/api/public/v1/planning/jobs/${job.job_id}/`)).body;
          return j.status === 'done' || j.status === 'failed' ? j : undefined;
        }, 200),
      );
    }
    expect(finished.map((j) => j.status)).toEqual(['done', 'done', 'done']);
    const attempts = readDb(s.db, (db) => db.prepare('SELECT id, attempts FROM planning_jobs ORDER BY id').all()) as Array<{ id: number; attempts: number }>;
    expect(attempts.find((a) => a.id === jobs[0].job_id)!.attempts).toBe(2); // taken over once

    // each order placed at most once, in one route; placed plus unassigned is everything
    const stops = readDb(s.db, (db) => db.prepare('SELECT order_id, COUNT(*) AS n FROM route_stops WHERE order_id IS NOT NULL GROUP BY order_id').all()) as Array<{
      n: number;
    }>;
    expect(stops.every((x) => x.n === 1)).toBe(true);
    expect(stops.length + finished.reduce((n, j) => n + j.result.unassigned.length, 0)).toBe(120);
    expect((await call('GET', '/api/public/v1/orders/?status=in_route&page_size=200')).body.count).toBe(stops.length);

    // one planning_job.finished delivery per job, each delivered (a retry keeps its delivery id)
    const survivor = victim === one ? two : one;
    await until(async () => {
      const pending = readDb(s.db, (db) => db.prepare(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status != 'delivered'`).get()) as { n: number };
      return pending.n === 0 ? true : undefined;
    }, 200);
    const finishedEvents = r.received.filter((x) => x.headers['x-planner-event'] === 'planning_job.finished');
    const byJob = new Map<number, Set<string>>();
    for (const e of finishedEvents) {
      const id = (JSON.parse(e.body) as { data: { job_id: number } }).data.job_id;
      byJob.set(id, (byJob.get(id) ?? new Set()).add(String(e.headers['x-planner-delivery-id'])));
    }
    expect([...byJob.keys()].sort()).toEqual(jobs.map((j) => j.job_id).sort());
    expect([...byJob.values()].every((ids) => ids.size === 1)).toBe(true);
    const statusEvents = r.received.filter((x) => x.headers['x-planner-event'] === 'order.status_changed');
    expect(new Set(statusEvents.map((e) => e.headers['x-planner-delivery-id'])).size).toBe(stops.length);

    expect(await survivor.kill('SIGTERM')).toBe(0);
    expect(await api.kill('SIGTERM')).toBe(0);
  });
});

describe('kill -9 of an API process while it writes a bulk upload (SQLite)', () => {
  it('the upload is all there or not there at all, never half', async () => {
    const s = seedDb({ vehicles: 1 });
    try {
      const seen = new Set<number>();
      // kill at growing delays after the request left: before, during and after the write
      // doubling the delay until a kill comes after the commit (500 orders there)
      for (let delayMs = 1; delayMs <= 4_096 && !seen.has(500); delayMs *= 2) {
        const api = await startServe(s.db, ['--jobs', 'off', '--geocoder', 'none']);
        const call = client(api.base, s.key);
        const batch = orders(500, `KILL${delayMs}`);
        const answer = call('POST', '/api/public/v1/orders/bulk/', batch).then(
          (r) => r.status,
          () => 'no answer' as const,
        );
        await new Promise((r) => setTimeout(r, delayMs));
        api.child.kill('SIGKILL');
        await api.exited;
        const status = await answer;
        const n = (readDb(s.db, (db) => db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE external_id LIKE ?`).get(`KILL${delayMs}-%`)) as { n: number }).n;
        expect([0, 500]).toContain(n);
        if (status === 200) expect(n).toBe(500); // answered: it was committed
        seen.add(n);
      }
      expect(seen).toEqual(new Set([0, 500])); // killed before the commit, then after it
    } finally {
      rmSync(s.dir, { recursive: true, force: true });
    }
  });
});
