/** The `osrm` road-matrix provider under the planning API, against a real local fake OSRM server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld as makeWorldOn, PUBLIC, type World, type WorldOptions } from '../e2e/world.js';
import { BACKENDS } from '../e2e/backends.js';
import { startFakeOsrm, type FakeOsrm } from '../helpers/fake-osrm.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeWorld = (options: WorldOptions = {}) => makeWorldOn({ ...options, kind });

  describe('planning on OSRM road matrices', () => {
    let osrm: FakeOsrm;
    let w: World;

    beforeAll(async () => {
      osrm = await startFakeOsrm();
      w = await makeWorld({ matrix: 'osrm', osrmUrl: osrm.url });
    });
    afterAll(async () => {
      await w?.close();
      await osrm?.close();
    });

    it('plans on the road table; an order no vehicle can reach is unassigned as unroutable', async () => {
      const ids = await w.addOrders([...w.someOrders(4), { external_id: 'ISLAND', address: 'Far north', lat: '81.5', lon: '13.4', delivery_date: '2026-12-01' }]);
      const job = await w.plan({ order_ids: ids });
      expect(job.status).toBe('done');
      expect(osrm.requests.length).toBeGreaterThan(0);
      expect(job.result).toMatchObject({ unassigned: [{ order_id: ids[4], reason: 'unroutable' }], summary: { unassigned_count: 1 } });
      const routeIds = (job.result as { route_ids: number[] }).route_ids;
      let placed = 0;
      for (const id of routeIds) {
        const route = (await w.inject('GET', `${PUBLIC}/routes/${id}/`)).json();
        placed += route.stops.filter((s: { stop_type: string }) => s.stop_type === 'order').length;
        expect(Number(route.planned_mileage_km)).toBeGreaterThan(0);
      }
      expect(placed).toBe(4);
    });

    it('a road service that keeps failing fails the job with a readable error, placing nothing', async () => {
      const ids = await w.addOrders(w.someOrders(2, 'DOWN'));
      osrm.failNext = 100;
      const job = await w.plan({ order_ids: ids });
      osrm.failNext = 0;
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/^The road matrix could not be obtained \(the road-matrix service answered HTTP 5\d\d \(4 tries\)\)\. Nothing was planned\.$/);
      expect(job.error).not.toContain('127.0.0.1');
      for (const id of ids) expect((await w.inject('GET', `${PUBLIC}/orders/${id}/`)).json().status).toBe('new');
    });

    it('one deadline for the whole matrix of a job: a road service that hangs fails the job at the deadline', async () => {
      const slow = await makeWorld({ matrix: 'osrm', osrmUrl: osrm.url, matrixDeadlineMs: 300 });
      try {
        osrm.delayMs = 20_000; // under the 30 s time-out of one request, far over the job's deadline
        const ids = await slow.addOrders(slow.someOrders(2, 'SLOW'));
        const job = await slow.plan({ order_ids: ids });
        expect(job.status).toBe('failed');
        expect(job.error).toBe(
          'The road matrix could not be obtained (the road-matrix service did not answer within the time the job allows). Nothing was planned.',
        );
      } finally {
        osrm.delayMs = 0;
        await slow.close();
      }
    });
  });
});
