/**
 * A stop status written while a re-plan runs wins (operations.md "Re-planning a day"), with real
 * processes on both stores: an API process that runs no work (`serve --jobs off`) takes the
 * re-plan and the driver's status; a `worker` process computes the re-plan (a 3 s budget, so the
 * status lands while it solves) and commits it, fenced on the stops it read. The commit sees the
 * status, the worker computes again from the fresh day, and the stop keeps its new status, first
 * on its route as a fixed stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { BACKENDS, makeBackend, seedBackend, type Backend } from './backends.js';
import { client, sleep, startServe, startWorker, until, type Served, type Worker } from './serve.js';

/** A zone where it is between 10:00 and 11:00 now, and today's date there. */
function lateMorning(): { timezone: string; date: string } {
  const offset = 10 - new Date().getUTCHours();
  const o = offset < -12 ? offset + 24 : offset;
  const timezone = o === 0 ? 'UTC' : `Etc/GMT${o > 0 ? '-' : '+'}${Math.abs(o)}`;
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return { timezone, date };
}

for (const { kind, available } of BACKENDS) {
  describe.skipIf(!available)(`a re-plan across processes (${kind})`, () => {
    const cleanup: Array<() => Promise<unknown> | void> = [];
    afterEach(async () => {
      for (const f of cleanup.reverse()) await f();
      cleanup.length = 0;
    });
    const alive = (p: { child: Served['child'] }) => p.child.exitCode === null && p.child.signalCode === null;

    it('a stop status written by the API while the worker re-plans wins; the worker computes again from it', async () => {
      const b: Backend = await makeBackend(kind);
      cleanup.push(() => b.cleanup());
      const s = await seedBackend(b, { vehicles: 2 });
      const { timezone, date } = lateMorning();
      const store = await openStore(b.db);
      try {
        await store.companies.update(s.company.id, { timezone });
      } finally {
        await store.close();
      }
      const api: Served = await startServe(b.db, ['--jobs', 'off']);
      cleanup.push(() => (alive(api) ? api.kill('SIGKILL') : undefined));
      const worker: Worker = await startWorker(b.db, ['--workers', '1', '--job-time-limit', '3']);
      cleanup.push(() => (alive(worker) ? worker.kill('SIGKILL') : undefined));
      const call = client(api.base, s.key);

      const items = Array.from({ length: 6 }, (_, i) => ({
        external_id: `P-${i}`,
        address: `Teststraße ${i}, Berlin`,
        lat: (52.45 + i / 200).toFixed(6),
        lon: (13.37 + (i % 3) / 100).toFixed(6),
        delivery_date: date,
        weight: '4',
        volume: '0.05',
      }));
      expect((await call('POST', '/api/public/v1/orders/bulk/', items)).status).toBe(200);
      const waitJob = (id: number) =>
        until(async () => {
          const j = (await call('GET', `/api/public/v1/planning/jobs/${id}/`)).body;
          return j.status === 'done' || j.status === 'failed' ? j : undefined;
        });
      const planned = await waitJob((await call('POST', '/api/public/v1/planning/jobs/', { external_ids: items.map((o) => o.external_id) })).body.job_id);
      expect(planned.status, planned.error).toBe('done');
      const routeId = planned.result.route_ids[0] as number;
      const before = (await call('GET', `/api/public/v1/routes/${routeId}/`)).body;
      const stop = before.stops.find((x: { stop_type: string }) => x.stop_type === 'order');

      const queued = await call('POST', '/api/internal/v1/planning/replan', { date });
      expect(queued.status).toBe(202);
      const jobId = queued.body.job_id as number;
      // the worker has claimed it and is solving (3 s): the driver reports the stop now
      await until(async () => {
        const [row] = await b.all<{ status: string }>(`SELECT status FROM planning_jobs WHERE id = ${jobId}`);
        return row!.status === 'running' ? true : undefined;
      }, 50);
      await sleep(800);
      expect((await call('POST', `/api/internal/v1/stops/${stop.id}/status`, { status: 'visited' })).status).toBe(200);
      const [during] = await b.all<{ status: string }>(`SELECT status FROM planning_jobs WHERE id = ${jobId}`);
      expect(during!.status).toBe('running');

      const job = await waitJob(jobId);
      expect(job.status, job.error).toBe('done');
      const [row] = await b.all<{ status: string }>(`SELECT status FROM route_stops WHERE id = ${stop.id}`);
      expect(row!.status).toBe('visited');
      const after = (await call('GET', `/api/public/v1/routes/${routeId}/`)).body;
      // computed from the fresh day: the visited stop is fixed, first after the depot, its times kept
      expect(after.stops[1]).toMatchObject({ id: stop.id, status: 'visited' });
      expect(after.status).toBe('active');
      // every order still on a route, each once
      const orderStops = after.stops.filter((x: { stop_type: string }) => x.stop_type === 'order').map((x: { order_id: number }) => x.order_id);
      const [{ n }] = await b.all<{ n: number }>(`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM route_stops WHERE stop_type = 'order'`);
      expect(n).toBe(items.length);
      expect(new Set(orderStops).size).toBe(orderStops.length);
    });
  });
}
