/**
 * Many processes on one database (docs/contract/operations.md, "Scaling out"), on SQLite (one machine) and on
 * PostgreSQL: API processes that run no work (`serve --jobs off`) and two `worker` processes. Work
 * is claimed with leases: a job runs in one worker at a time; a worker killed with SIGKILL in the
 * middle of a job loses it to the other when its lease runs out; the job places each order once
 * and is announced once; webhooks pending while a worker restarts all arrive, each with its id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { BACKENDS, makeBackend, seedBackend, type Backend } from './backends.js';
import { client, orders, startServe, startWorker, until, type Served, type Worker } from './serve.js';

for (const { kind, available } of BACKENDS) {
  describe.skipIf(!available)(`many processes on one database (${kind})`, () => {
    const cleanup: Array<() => Promise<unknown> | void> = [];
    afterEach(async () => {
      for (const f of cleanup.reverse()) await f();
      cleanup.length = 0;
    });
    const alive = (p: { child: Served['child'] }) => p.child.exitCode === null && p.child.signalCode === null;

    async function backend(): Promise<Backend> {
      const b = await makeBackend(kind);
      cleanup.push(() => b.cleanup());
      return b;
    }
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
    async function receiver(plan: Array<number | 'hang'> = []): Promise<WebhookReceiver> {
      const r = await startWebhookReceiver(plan);
      cleanup.push(() => r.close());
      return r;
    }

    it('a worker killed mid-job loses it to the other; every job ends done once, each order placed once, one finished event per job; webhooks pending across a worker restart all arrive', async () => {
      // the receiver fails the first tries: deliveries are still pending when the worker restarts
      const r = await receiver(Array.from({ length: 6 }, () => 500));
      const b = await backend();
      const s = await seedBackend(b, { vehicles: 8, webhookUrl: r.url });
      // two API processes on PostgreSQL (one on SQLite is enough to show the split)
      const apis = [await serve(b.db, ['--jobs', 'off'])];
      if (kind === 'postgres') apis.push(await serve(b.db, ['--jobs', 'off']));
      const calls = apis.map((a) => client(a.base, s.key));
      const call = (i: number) => calls[i % calls.length]!;
      const batches = ['A', 'B', 'C'].map((p) => orders(40, p));
      for (const [i, batch] of batches.entries()) expect((await call(i)('POST', '/api/public/v1/orders/bulk/', batch)).status).toBe(200);

      // the API processes queue the jobs and run none of them
      const jobs: Array<{ job_id: number }> = [];
      for (const [i, batch] of batches.entries()) jobs.push((await call(i)('POST', '/api/public/v1/planning/jobs/', { external_ids: batch.map((o) => o.external_id) })).body);
      await new Promise((res) => setTimeout(res, 1_500));
      for (const job of jobs) expect((await call(0)('GET', `/api/public/v1/planning/jobs/${job.job_id}/`)).body.status).toBe('queued');

      const args = ['--workers', '1', '--job-time-limit', '4', '--lease-seconds', '2', '--webhook-retry-delays', '300,300,300,300,300,300,300,300'];
      const one = await worker(b.db, args);
      const two = await worker(b.db, args);
      // kill -9 the worker holding the first job while it solves
      const holder = await until(async () => {
        const [row] = await b.all<{ status: string; lease_owner: string | null }>(`SELECT status, lease_owner FROM planning_jobs WHERE id = ${jobs[0]!.job_id}`);
        return row!.status === 'running' && row!.lease_owner ? row!.lease_owner : undefined;
      }, 50);
      const victim = [one, two].find((w) => holder.includes(`:${w.pid}:`))!;
      expect(victim).toBeDefined();
      expect(await victim.kill('SIGKILL')).toBe('SIGKILL');
      let survivor = victim === one ? two : one;

      const finished: Array<{ status: string; result: { unassigned: unknown[] } }> = [];
      for (const [i, job] of jobs.entries()) {
        finished.push(
          await until(async () => {
            const j = (await call(i + 1)('GET', `/api/public/v1/planning/jobs/${job.job_id}/`)).body;
            return j.status === 'done' || j.status === 'failed' ? j : undefined;
          }, 200),
        );
      }
      expect(finished.map((j) => j.status)).toEqual(['done', 'done', 'done']);
      const [first] = await b.all<{ attempts: number }>(`SELECT attempts FROM planning_jobs WHERE id = ${jobs[0]!.job_id}`);
      expect(first!.attempts).toBe(2); // taken over once

      // each order placed at most once, in one route; placed plus unassigned is everything
      const stops = await b.all<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM route_stops WHERE order_id IS NOT NULL GROUP BY order_id');
      expect(stops.every((x) => x.n === 1)).toBe(true);
      expect(stops.length + finished.reduce((n, j) => n + j.result.unassigned.length, 0)).toBe(120);
      expect((await call(0)('GET', '/api/public/v1/orders/?status=in_route&page_size=200')).body.count).toBe(stops.length);

      // a worker restart while deliveries wait for their next try: nothing is lost
      expect(await survivor.kill('SIGTERM')).toBe(0);
      survivor = await worker(b.db, args);
      await until(async () => {
        const [pending] = await b.all<{ n: number }>(`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM webhook_deliveries WHERE status <> 'delivered'`);
        return pending!.n === 0 ? true : undefined;
      }, 200);
      const rows = await b.all<{ id: string }>('SELECT id FROM webhook_deliveries');
      const answered = new Set(r.received.filter((x) => x.status === 200).map((x) => String(x.headers['x-planner-delivery-id'])));
      expect(rows.every((row) => answered.has(row.id))).toBe(true); // every delivery reached the receiver with a 2xx

      // one planning_job.finished delivery per job (a retry keeps its delivery id)
      const byJob = new Map<number, Set<string>>();
      for (const e of r.received.filter((x) => x.headers['x-planner-event'] === 'planning_job.finished')) {
        const id = (JSON.parse(e.body) as { data: { job_id: number } }).data.job_id;
        byJob.set(id, (byJob.get(id) ?? new Set()).add(String(e.headers['x-planner-delivery-id'])));
      }
      expect([...byJob.keys()].sort()).toEqual(jobs.map((j) => j.job_id).sort());
      expect([...byJob.values()].every((ids) => ids.size === 1)).toBe(true);
      const statusEvents = r.received.filter((x) => x.headers['x-planner-event'] === 'order.status_changed');
      expect(new Set(statusEvents.map((e) => e.headers['x-planner-delivery-id'])).size).toBe(stops.length);

      expect(await survivor.kill('SIGTERM')).toBe(0);
      for (const a of apis) expect(await a.kill('SIGTERM')).toBe(0);
    });

    it('three processes starting at once on a new database migrate it once and all serve', async () => {
      const b = await backend();
      const started = await Promise.all([0, 1, 2].map(() => serve(b.db, ['--jobs', 'off'])));
      const s = await seedBackend(b);
      for (const api of started) expect((await client(api.base, s.key)('GET', '/api/public/v1/orders/')).status).toBe(200);
      const versions = await b.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(new Set(versions.map((v) => v.version)).size).toBe(versions.length);
    });

    it('kill -9 of an API process while it writes a bulk upload: all there or nothing, never half', async () => {
      const b = await backend();
      const s = await seedBackend(b, { vehicles: 1 });
      const seen = new Set<number>();
      // tripling the delay until a kill comes after the commit (500 orders there); each try
      // starts a server process, so doubling cost twice the tries for the same range
      for (let delayMs = 1; delayMs <= 6_561 && !seen.has(500); delayMs *= 3) {
        const api = await serve(b.db, ['--jobs', 'off', '--geocoder', 'none']);
        const batch = orders(500, `KILL${delayMs}`);
        const answer = client(api.base, s.key)('POST', '/api/public/v1/orders/bulk/', batch).then(
          (res) => res.status,
          () => 'no answer' as const,
        );
        await new Promise((res) => setTimeout(res, delayMs));
        api.child.kill('SIGKILL');
        await api.exited;
        const status = await answer;
        const [row] = await b.all<{ n: number }>(`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM orders WHERE external_id LIKE 'KILL${delayMs}-%'`);
        expect([0, 500]).toContain(row!.n);
        if (status === 200) expect(row!.n).toBe(500); // answered: it was committed
        seen.add(row!.n);
      }
      expect(seen).toEqual(new Set([0, 500])); // killed before the commit, then after it
    }, 180_000); // up to nine server starts: 15-27 s alone, past 60 s at load 17
  });
}
