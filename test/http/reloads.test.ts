/**
 * A van of 600 kg with three trips through the real HTTP API: 20 orders of about 1,500 kg are
 * planned onto one route with two mid_depot stops at its warehouse. The engine's problem and
 * result (captured from the job service) pass the independent checker; the route the API shows
 * is checked on its own: stop order and types, times, reload minutes, and each trip's load from
 * the weights the orders were created with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemInput, SolveResult } from '../../src/model/input.js';
import { assertFeasible } from '../helpers/checker.js';
import { DATE, INTERNAL, makeWorld as makeWorldOn, near, PUBLIC, type World, type WorldOptions } from '../e2e/world.js';
import { BACKENDS } from '../e2e/backends.js';

interface Stop {
  id: number;
  position: number;
  stop_type: string;
  status: string;
  order_id: number | null;
  order_external_id: string | null;
  lat: string;
  lon: string;
  eta: string;
  planned_arrival_at: string;
  planned_departure_at: string;
}

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeWorld = (options: WorldOptions = {}) => makeWorldOn({ ...options, kind });

  describe('reloads through the API', () => {
    let w: World;
    const solved: Array<{ problem: ProblemInput; result: SolveResult }> = [];
    let vanId: number;
    let routeId: number;
    let stops: Stop[];
    const weightOf = new Map<number, number>();

    beforeAll(async () => {
      w = await makeWorld({ jobTimeLimitSec: 1, onSolved: ({ problem, result }) => solved.push({ problem, result }) });
      const van = await w.port.vehicles.create(
        {
          company_id: w.company.id,
          warehouse_id: w.warehouse.id,
          name: 'City van',
          capacity_kg: 600,
          capacity_m3: 6,
          shift_start: '08:00',
          shift_end: '18:00',
          max_distance_km: null,
          max_duration_min: null,
          max_orders: null,
          features: [],
          max_trips: 3,
          reload_min: 15,
          active: true,
        },
        new Date().toISOString(),
      );
      vanId = van.id;
      const kg = (i: number) => 60 + ((i * 37) % 31); // 60..90 kg
      const items = Array.from({ length: 20 }, (_, i) => ({
        external_id: `HEAVY-${i + 1}`,
        address: `Street ${i + 1}, Berlin`,
        ...near(4 * Math.cos(i * 0.7), 4 * Math.sin(i * 0.7)),
        weight: `${kg(i)}.000`,
        volume: '0.100',
        delivery_date: DATE,
        service_time: 5,
      }));
      const ids = await w.addOrders(items);
      ids.forEach((id, i) => weightOf.set(id, kg(i)));
      const job = await w.plan({ order_ids: ids, vehicle_ids: [vanId] });
      expect(job.status).toBe('done');
      expect(job.result).toMatchObject({ unassigned: [] });
      routeId = (job.result as { route_ids: number[] }).route_ids[0]!;
      stops = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/`)).json().stops;
    });
    afterAll(async () => w?.close());

    it('the engine result behind the route passes the independent checker, with two reloads', () => {
      expect(solved).toHaveLength(1);
      const { problem, result } = solved[0]!;
      expect(problem.vehicles).toEqual([expect.objectContaining({ id: String(vanId), maxTrips: 3, reloadTime: 900 })]);
      assertFeasible(problem, result);
      expect(result.routes).toHaveLength(1);
      expect(result.routes[0]!.reloads).toHaveLength(2);
    });

    it('lists start_depot, three trips split by two mid_depot stops at the warehouse, end_depot', () => {
      expect(stops.map((s) => s.position)).toEqual(stops.map((_, i) => i + 1));
      expect(stops[0]!.stop_type).toBe('start_depot');
      expect(stops.at(-1)!.stop_type).toBe('end_depot');
      const mids = stops.filter((s) => s.stop_type === 'mid_depot');
      expect(mids).toHaveLength(2);
      expect(stops.filter((s) => s.stop_type === 'order')).toHaveLength(20);
      for (const m of mids) {
        expect(m).toMatchObject({ status: 'pending', order_id: null, order_external_id: null, lat: stops[0]!.lat, lon: stops[0]!.lon });
        expect(m.eta).toBe(m.planned_arrival_at);
        expect(Date.parse(m.planned_departure_at) - Date.parse(m.planned_arrival_at)).toBe(15 * 60_000);
      }
      // the engine's reload times, to the second
      const { result } = solved[0]!;
      const sec = (t: string) => Date.parse(t) / 1000;
      result.routes[0]!.reloads!.forEach((x, k) => {
        expect(sec(mids[k]!.planned_departure_at) - sec(mids[k]!.planned_arrival_at)).toBe(x.departure - x.arrival);
      });
    });

    it('each trip carries at most 600 kg, and times run forward through the reloads', () => {
      const trips: number[] = [];
      let load = 0;
      for (const s of stops.slice(1)) {
        if (s.stop_type === 'order') load += weightOf.get(s.order_id!)!;
        else {
          trips.push(load);
          load = 0;
        }
      }
      expect(trips).toHaveLength(3);
      for (const t of trips) {
        expect(t).toBeGreaterThan(0);
        expect(t).toBeLessThanOrEqual(600);
      }
      expect(trips.reduce((a, b) => a + b, 0)).toBe([...weightOf.values()].reduce((a, b) => a + b, 0));
      for (let i = 1; i < stops.length; i++) {
        expect(Date.parse(stops[i]!.planned_arrival_at)).toBeGreaterThanOrEqual(Date.parse(stops[i - 1]!.planned_departure_at));
        expect(Date.parse(stops[i]!.planned_departure_at)).toBeGreaterThanOrEqual(Date.parse(stops[i]!.planned_arrival_at));
      }
    });

    it('tracking counts order stops only; a mid_depot stop takes the statuses of a depot stop', async () => {
      const tracking = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/tracking/`)).json();
      expect(tracking.progress).toEqual({ total: 20, completed: 0, remaining: 20 });
      const mid = stops.find((s) => s.stop_type === 'mid_depot')!;
      const start = stops[0]!;
      const set = (id: number, body: unknown) => w.inject('POST', `${INTERNAL}/stops/${id}/status`, body);
      // confirmed / rejected are for order stops only, on a mid depot as on the start depot
      for (const id of [mid.id, start.id]) {
        const res = await set(id, { status: 'confirmed' });
        expect(res.statusCode).toBe(409);
        expect(res.json().detail).toContain('only order stops can be confirmed or rejected');
      }
      for (const status of ['in_progress', 'visited']) {
        const a = await set(mid.id, { status, at: '2026-12-01T10:00:00Z' });
        const b = await set(start.id, { status, at: '2026-12-01T10:00:00Z' });
        expect([a.statusCode, status]).toEqual([200, status]);
        expect([b.statusCode, status]).toEqual([200, status]);
        expect(a.json().status).toBe(status);
      }
      const after = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/tracking/`)).json();
      expect(after.progress).toEqual({ total: 20, completed: 0, remaining: 20 });
    });
  });
});
