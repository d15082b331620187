/**
 * An order edited while a planning job runs, with real processes (issue 41, item 3): an API process
 * that runs no work (`serve --jobs off`) takes the PATCH while a `worker` process solves the job, on
 * SQLite and on PostgreSQL. test/http/planning-edit.test.ts lands the edit at a fixed point inside
 * one process; here it lands whenever the job happens to be, and the outcome must not depend on
 * when: the order is planned from its fresh values (5,000 kg on 800 kg vans: it stays `new`,
 * unassigned for capacity), no stop holds its old address, and no route leaves its weight out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, makeBackend, seedBackend } from './backends.js';
import { client, orders, startServe, startWorker, until, type Served, type Worker } from './serve.js';

const PUBLIC = '/api/public/v1';

for (const { kind, available } of BACKENDS) {
  describe.skipIf(!available)(`an edit while a worker process plans (${kind})`, () => {
    const cleanup: Array<() => Promise<unknown> | void> = [];
    afterEach(async () => {
      for (const f of cleanup.reverse()) await f();
      cleanup.length = 0;
    });
    const alive = (p: Served | Worker) => p.child.exitCode === null && p.child.signalCode === null;

    it('the PATCH answers 200 and the job commits nothing stale', async () => {
      const b = await makeBackend(kind);
      cleanup.push(() => b.cleanup());
      const s = await seedBackend(b, { vehicles: 3 });
      const api = await startServe(b.db, ['--jobs', 'off']);
      cleanup.push(() => (alive(api) ? api.kill('SIGKILL') : undefined));
      const call = client(api.base, s.key);

      // enough orders that the solve takes its whole time limit: the edit lands while it runs
      const batch = orders(60, 'EDIT');
      expect((await call('POST', `${PUBLIC}/orders/bulk/`, batch)).status).toBe(200);
      const list = (await call('GET', `${PUBLIC}/orders/?page_size=100`)).body.results as Array<{ id: number; external_id: string }>;
      const target = list.find((o) => o.external_id === 'EDIT-7')!;
      const job = (await call('POST', `${PUBLIC}/planning/jobs/`, { external_ids: batch.map((o) => o.external_id) })).body as { job_id: number };

      const worker = await startWorker(b.db, ['--workers', '1', '--job-time-limit', '4']);
      cleanup.push(() => (alive(worker) ? worker.kill('SIGKILL') : undefined));
      await until(async () => {
        const [row] = await b.all<{ status: string }>(`SELECT status FROM planning_jobs WHERE id = ${job.job_id}`);
        return row!.status === 'running' ? true : undefined;
      }, 20);

      const edited = { address: 'Neue Straße 9, Berlin', lat: '52.501000', lon: '13.402000', weight: '5000' };
      const patch = await call('PATCH', `${PUBLIC}/orders/${target.id}/`, edited);
      expect(patch.status).toBe(200);

      const done = await until(async () => {
        const j = (await call('GET', `${PUBLIC}/planning/jobs/${job.job_id}/`)).body;
        return j.status === 'done' || j.status === 'failed' ? j : undefined;
      });
      expect(done.status).toBe('done');
      expect(done.result.unassigned).toEqual([{ order_id: target.id, reason: 'capacity' }]);

      const order = (await call('GET', `${PUBLIC}/orders/${target.id}/`)).body;
      expect(order).toMatchObject({ status: 'new', address: edited.address, lat: edited.lat, lon: edited.lon, weight: '5000.000' });
      let placed = 0;
      for (const routeId of done.result.route_ids as number[]) {
        const route = (await call('GET', `${PUBLIC}/routes/${routeId}/`)).body;
        const orderStops = route.stops.filter((stop: { order_id: number | null }) => stop.order_id !== null);
        placed += orderStops.length;
        expect(orderStops.some((stop: { order_id: number }) => stop.order_id === target.id)).toBe(false);
        // the route's weight is what its stops weigh (4 kg each), never more than a van takes
        expect(Number(route.total_weight_kg)).toBeCloseTo(4 * orderStops.length, 3);
        expect(Number(route.total_weight_kg)).toBeLessThanOrEqual(800);
      }
      expect(placed).toBe(59);
    });
  });
}
