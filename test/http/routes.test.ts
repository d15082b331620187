import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE, INTERNAL, makeWorld as makeWorldOn, PUBLIC, type World, type WorldOptions } from '../e2e/world.js';
import { BACKENDS } from '../e2e/backends.js';

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeWorld = (options: WorldOptions = {}) => makeWorldOn({ ...options, kind });

  describe('routes and tracking', () => {
    let w: World;
    let orderIds: number[];
    let routeIds: number[];

    beforeAll(async () => {
      w = await makeWorld();
      orderIds = await w.addOrders(w.someOrders(8));
      const job = await w.plan({ order_ids: orderIds });
      expect(job.status).toBe('done');
      routeIds = (job.result as { route_ids: number[] }).route_ids;
      // one more route on another date, for the filters
      const [later] = await w.addOrders([{ ...w.someOrders(1, 'LATER')[0], delivery_date: '2026-12-02' }]);
      const second = await w.plan({ order_ids: [later!] });
      routeIds.push(...(second.result as { route_ids: number[] }).route_ids);
    });
    afterAll(async () => w?.close());

    it('lists routes newest first with every list field of 2.3 in the decided types', async () => {
      const res = await w.inject('GET', `${PUBLIC}/routes/`);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page).toMatchObject({ count: routeIds.length, next: null, previous: null });
      expect(page.results.map((r: { id: number }) => r.id)).toEqual([...routeIds].sort((a, b) => b - a));
      for (const r of page.results) {
        expect(Object.keys(r).sort()).toEqual(
          ['actual_end_at', 'actual_start_at', 'date', 'has_vehicle', 'id', 'name', 'planned_duration_min', 'planned_mileage_km', 'status', 'total_volume_m3', 'total_weight_kg'].sort(),
        );
        expect(r).toMatchObject({ status: 'planned', has_vehicle: false, actual_start_at: null, actual_end_at: null });
        expect(r.planned_mileage_km).toMatch(/^\d+\.\d{2}$/);
        expect(r.total_weight_kg).toMatch(/^\d+\.\d{3}$/);
        expect(r.total_volume_m3).toMatch(/^\d+\.\d{3}$/);
        expect(Number.isInteger(r.planned_duration_min)).toBe(true);
        expect(r.date).toMatch(/^\d{4}-\d\d-\d\d$/);
        expect(typeof r.name).toBe('string');
      }
    });

    it('filters by status and date, paginates like the orders list', async () => {
      const byDate = (await w.inject('GET', `${PUBLIC}/routes/?date=2026-12-02`)).json();
      expect(byDate.count).toBe(1);
      expect(byDate.results[0].date).toBe('2026-12-02');
      expect((await w.inject('GET', `${PUBLIC}/routes/?status=active`)).json()).toMatchObject({ count: 0, results: [] });
      expect((await w.inject('GET', `${PUBLIC}/routes/?status=planned&date=${DATE}`)).json().count).toBe(routeIds.length - 1);

      const first = (await w.inject('GET', `${PUBLIC}/routes/?page_size=1`)).json();
      expect(first.results).toHaveLength(1);
      expect(first.previous).toBeNull();
      expect(first.next).toContain('page=2');
      const second = (await w.inject('GET', `${PUBLIC}/routes/?page_size=1&page=2`)).json();
      expect(second.previous).toContain('page=1');
      expect(second.results[0].id).toBeLessThan(first.results[0].id);
      const capped = (await w.inject('GET', `${PUBLIC}/routes/?page_size=5000`)).json();
      expect(capped.results).toHaveLength(routeIds.length);
      const beyond = await w.inject('GET', `${PUBLIC}/routes/?page=99`);
      expect(beyond.statusCode).toBe(404);
      expect(beyond.json()).toEqual({ detail: 'Invalid page.' });
    });

    it('refuses bad filters and unknown parameters with 400 naming the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['status=done', 'status'],
        ['date=2026-13-01', 'date'],
        ['date=01.12.2026', 'date'],
        ['page=0', 'page'],
        ['page_size=abc', 'page_size'],
        ['vehicle=3', 'vehicle'],
        ['status=planned&status=active', 'status'],
      ];
      for (const [query, field] of cases) {
        const res = await w.inject('GET', `${PUBLIC}/routes/?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json()[field], query).toEqual([expect.any(String)]);
      }
    });

    it('shows a route with its stops: every field of 2.4, positions from 1, depots first and last, eta = planned_arrival_at', async () => {
      const res = await w.inject('GET', `${PUBLIC}/routes/${routeIds[0]}/`);
      expect(res.statusCode).toBe(200);
      const route = res.json();
      expect(route.id).toBe(routeIds[0]);
      const stops = route.stops as Array<Record<string, unknown>>;
      expect(stops.map((s) => s.position)).toEqual(stops.map((_, i) => i + 1));
      expect(stops[0]!.stop_type).toBe('start_depot');
      expect(stops.at(-1)!.stop_type).toBe('end_depot');
      for (const s of stops) {
        expect(Object.keys(s).sort()).toEqual(
          ['actual_arrival_at', 'actual_departure_at', 'address', 'eta', 'id', 'lat', 'lon', 'order_external_id', 'order_id', 'planned_arrival_at', 'planned_departure_at', 'position', 'status', 'stop_type'].sort(),
        );
        expect(s.status).toBe('pending');
        expect(s.lat).toMatch(/^-?\d+\.\d{6}$/);
        expect(s.lon).toMatch(/^-?\d+\.\d{6}$/);
        expect(s.eta).toBe(s.planned_arrival_at);
        expect(s.planned_arrival_at).toMatch(TS);
        expect(s.planned_departure_at).toMatch(TS);
        expect(s.actual_arrival_at).toBeNull();
        expect(s.actual_departure_at).toBeNull();
        if (s.stop_type === 'order') {
          expect(orderIds).toContain(s.order_id);
          expect(s.order_external_id).toMatch(/^DOC-\d+$/);
        } else {
          expect(s.order_id).toBeNull();
          expect(s.order_external_id).toBeNull();
          expect(s.lat).toBe('52.470000');
        }
      }
      // the stop's coordinates are the order's, to six decimals
      const orderStop = stops.find((s) => s.stop_type === 'order')!;
      const order = (await w.inject('GET', `${PUBLIC}/orders/${orderStop.order_id}/`)).json();
      expect([orderStop.lat, orderStop.lon]).toEqual([order.lat, order.lon]);
      // totals: 10.5 kg and 0.125 m3 per order
      const orderStops = stops.filter((s) => s.stop_type === 'order').length;
      expect(route.total_weight_kg).toBe((10.5 * orderStops).toFixed(3));
      expect(route.total_volume_m3).toBe((0.125 * orderStops).toFixed(3));
    });

    it("another company's route, a missing one and a malformed id are 404 Not found.", async () => {
      for (const [url, key] of [
        [`${PUBLIC}/routes/${routeIds[0]}/`, w.otherKey],
        [`${PUBLIC}/routes/${routeIds[0]}/tracking/`, w.otherKey],
        [`${PUBLIC}/routes/424242/`, w.key],
        [`${PUBLIC}/routes/x1/`, w.key],
      ] as const) {
        const res = await w.inject('GET', url, undefined, key);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
      expect((await w.inject('GET', `${PUBLIC}/routes/`, undefined, w.otherKey)).json().count).toBe(0);
    });

    it('routes are read-only: 405 on writes', async () => {
      for (const [method, url] of [
        ['POST', `${PUBLIC}/routes/`],
        ['PUT', `${PUBLIC}/routes/${routeIds[0]}/`],
        ['PATCH', `${PUBLIC}/routes/${routeIds[0]}/`],
        ['DELETE', `${PUBLIC}/routes/${routeIds[0]}/`],
        ['POST', `${PUBLIC}/routes/${routeIds[0]}/tracking/`],
      ] as const) {
        expect((await w.inject(method, url, method === 'DELETE' ? undefined : {})).statusCode, `${method} ${url}`).toBe(405);
      }
    });

    it('scopes: routes:read for routes, tracking:read for tracking', async () => {
      const trackingOnly = await w.keyWith(['tracking:read']);
      const routesOnly = await w.keyWith(['routes:read']);
      expect((await w.inject('GET', `${PUBLIC}/routes/`, undefined, trackingOnly)).statusCode).toBe(403);
      expect((await w.inject('GET', `${PUBLIC}/routes/${routeIds[0]}/`, undefined, trackingOnly)).statusCode).toBe(403);
      expect((await w.inject('GET', `${PUBLIC}/routes/${routeIds[0]}/tracking/`, undefined, routesOnly)).statusCode).toBe(403);
      expect((await w.inject('GET', `${PUBLIC}/routes/${routeIds[0]}/tracking/`, undefined, trackingOnly)).statusCode).toBe(200);
      expect((await w.inject('GET', `${PUBLIC}/routes/`, undefined, null)).statusCode).toBe(401);
    });

    it('tracking: progress counts order stops only; last_position null until the assigned vehicle sends one; plain numbers', async () => {
      const routeId = routeIds[0]!;
      const detail = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/`)).json();
      const orderStops = detail.stops.filter((s: { stop_type: string }) => s.stop_type === 'order');
      const snapshot = async () => (await w.inject('GET', `${PUBLIC}/routes/${routeId}/tracking/`)).json();

      expect(await snapshot()).toEqual({
        route_id: routeId,
        status: 'planned',
        progress: { total: orderStops.length, completed: 0, remaining: orderStops.length },
        last_position: null,
      });
      // the vehicle the route was planned for (the API does not show it)
      const vehicleId = (await w.port.routes.get(w.company.id, routeId))!.vehicle_id!;
      const assign = await w.inject('POST', `${INTERNAL}/routes/${routeId}/vehicle`, { vehicle_id: vehicleId });
      expect(assign.statusCode).toBe(200);
      expect((await snapshot()).last_position).toBeNull(); // assigned, nothing sent yet
      // another vehicle's position is not this route's
      const otherVan = w.vehicles.find((v) => v.id !== vehicleId)!.id;
      const ago = (min: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - min * 60_000).toISOString();
      await w.inject('POST', `${INTERNAL}/vehicles/${otherVan}/positions`, { lat: 52.5, lon: 13.4, timestamp: ago(1), speed_kmh: 0, heading_deg: 0 });
      expect((await snapshot()).last_position).toBeNull();
      await w.inject('POST', `${INTERNAL}/vehicles/${vehicleId}/positions`, { lat: 52.501234, lon: 13.398765, timestamp: ago(2), speed_kmh: 31.5, heading_deg: 270 });
      await w.inject('POST', `${INTERNAL}/vehicles/${vehicleId}/positions`, { lat: '52.4', lon: '13.3', timestamp: ago(6), speed_kmh: 10, heading_deg: 90 });
      const tracked = await snapshot();
      expect(tracked.last_position).toEqual({ lat: 52.501234, lon: 13.398765, timestamp: ago(2), speed_kmh: 31.5, heading_deg: 270 });

      await w.inject('POST', `${INTERNAL}/stops/${orderStops[0].id}/status`, { status: 'confirmed' });
      await w.inject('POST', `${INTERNAL}/stops/${orderStops[1].id}/status`, { status: 'visited' });
      await w.inject('POST', `${INTERNAL}/stops/${detail.stops[0].id}/status`, { status: 'visited' });
      expect((await snapshot()).progress).toEqual({ total: orderStops.length, completed: 1, remaining: orderStops.length - 1 });
      expect((await snapshot()).status).toBe('active');
    });
  });

  describe('OpenAPI', () => {
    it('describes the planning, routes and tracking endpoints', async () => {
      const w = await makeWorld();
      try {
        const doc = (await w.inject('GET', `${PUBLIC}/openapi.json`, undefined, null)).json();
        for (const path of ['/planning/jobs/', '/planning/jobs/{id}/', '/routes/', '/routes/{id}/', '/routes/{id}/tracking/', '/orders/']) {
          expect(doc.paths[PUBLIC + path], path).toBeDefined();
        }
      } finally {
        await w.close();
      }
    });
  });
});
