import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL, makeWorld as makeWorldOn, PUBLIC, type World, type WorldOptions } from '../e2e/world.js';
import { BACKENDS } from '../e2e/backends.js';

interface Stop {
  id: number;
  stop_type: string;
  status: string;
  order_id: number | null;
  actual_arrival_at: string | null;
  actual_departure_at: string | null;
}

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeWorld = (options: WorldOptions = {}) => makeWorldOn({ ...options, kind });

  describe('dispatch API', () => {
    let w: World;

    beforeAll(async () => {
      w = await makeWorld({ vehicles: 3 });
    });
    afterAll(async () => w?.close());

    /** Plans `n` fresh orders pinned to one vehicle (one route) and returns the route with stops. */
    async function freshRoute(n: number, prefix: string, vehicleIndex: number, date = '2026-12-01') {
      const ids = await w.addOrders(w.someOrders(n, prefix).map((o) => ({ ...o, delivery_date: date })));
      const job = await w.plan({ order_ids: ids, vehicle_ids: [w.vehicles[vehicleIndex]!.id] });
      expect(job.status).toBe('done');
      const routeId = (job.result as { route_ids: number[] }).route_ids[0]!;
      const route = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/`)).json();
      const orderStops = (route.stops as Stop[]).filter((s) => s.stop_type === 'order');
      return { routeId, route, orderStops, stops: route.stops as Stop[], ids };
    }
    const setStatus = (stopId: number, body: unknown, key?: string) => w.inject('POST', `${INTERNAL}/stops/${stopId}/status`, body, key);

    it('assigns a vehicle (has_vehicle true), refusing busy, inactive and foreign vehicles', async () => {
      const a = await freshRoute(2, 'ASSIGN-A', 0);
      const b = await freshRoute(2, 'ASSIGN-B', 1);
      const url = `${INTERNAL}/routes/${a.routeId}/vehicle`;
      const ok = await w.inject('POST', url, { vehicle_id: w.vehicles[0]!.id });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ id: a.routeId, has_vehicle: true, status: 'planned' });
      expect(ok.json().stops).toHaveLength(a.stops.length);

      // the van planned for route b (not assigned yet) can be taken: b gets a's planned van instead
      const swap = await w.inject('POST', url, { vehicle_id: w.vehicles[1]!.id });
      expect(swap.statusCode).toBe(200);
      expect((await w.port.routes.get(w.company.id, a.routeId))!.vehicle_id).toBe(w.vehicles[1]!.id);
      expect((await w.port.routes.get(w.company.id, b.routeId))!.vehicle_id).toBe(w.vehicles[0]!.id);
      expect((await w.inject('GET', `${PUBLIC}/routes/${b.routeId}/`)).json().has_vehicle).toBe(false);
      // once b has its van assigned, that van is refused for a
      expect((await w.inject('POST', `${INTERNAL}/routes/${b.routeId}/vehicle`, { vehicle_id: w.vehicles[0]!.id })).statusCode).toBe(200);
      const busy = await w.inject('POST', url, { vehicle_id: w.vehicles[0]!.id });
      expect(busy.statusCode).toBe(409);
      expect(busy.json()).toEqual({ detail: `Vehicle ${w.vehicles[0]!.id} is already assigned to route ${b.routeId} on 2026-12-01.` });
      const inactive = await w.inject('POST', url, { vehicle_id: w.inactive.id });
      expect(inactive.statusCode).toBe(409);
      expect(inactive.json()).toEqual({ detail: `Vehicle ${w.inactive.id} is inactive.` });
      // a free van can take the route over; the van it had is free again on that date
      const free = await w.inject('POST', url, { vehicle_id: w.vehicles[2]!.id });
      expect(free.statusCode).toBe(200);
      expect((await w.port.routes.get(w.company.id, a.routeId))!.vehicle_id).toBe(w.vehicles[2]!.id);
      expect(await w.port.routes.routeHoldingVehicle(w.company.id, w.vehicles[1]!.id, '2026-12-01', 0)).toBeUndefined();

      for (const [path, body, key] of [
        [url, { vehicle_id: w.otherVehicle.id }, w.key],
        [url, { vehicle_id: 999999 }, w.key],
        [url, { vehicle_id: w.otherVehicle.id }, w.otherKey],
        [`${INTERNAL}/routes/999999/vehicle`, { vehicle_id: w.vehicles[0]!.id }, w.key],
      ] as const) {
        const res = await w.inject('POST', path, body, key);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
      for (const body of [{}, { vehicle_id: '3' }, { vehicle_id: 3, driver: 'x' }, [], 'null']) {
        const res = await w.inject('POST', url, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(typeof res.json().detail).toBe('string');
      }
    });

    it('starts a route: active with actual_start_at; a second start is 409', async () => {
      const r = await freshRoute(1, 'START', 0, '2026-12-03');
      const res = await w.inject('POST', `${INTERNAL}/routes/${r.routeId}/start`);
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('active');
      expect(res.json().actual_start_at).toMatch(/Z$/);
      const again = await w.inject('POST', `${INTERNAL}/routes/${r.routeId}/start`);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: `Route ${r.routeId} is already active.` });
      const r2 = await freshRoute(1, 'START2', 1, '2026-12-03');
      const at = await w.inject('POST', `${INTERNAL}/routes/${r2.routeId}/start`, { at: '2026-12-03T07:55:00+01:00' });
      expect(at.json().actual_start_at).toBe('2026-12-03T06:55:00.000Z');
      const bad = await w.inject('POST', `${INTERNAL}/routes/${r2.routeId}/start`, { at: 'yesterday' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().at).toEqual([expect.stringContaining('ISO 8601')]);
    });

    it('a delivery outcome moves stop and order, appends history, fires order.status_changed; the route completes when every order stop is final', async () => {
      const r = await freshRoute(3, 'OUTCOME', 0, '2026-12-04');
      const [s1, s2, s3] = r.orderStops as [Stop, Stop, Stop];
      const seen = w.statusEvents.length;

      const progress = await setStatus(s1.id, { status: 'in_progress', at: '2026-12-04T09:00:00Z' });
      expect(progress.statusCode).toBe(200);
      expect(progress.json()).toMatchObject({ id: s1.id, status: 'in_progress', actual_arrival_at: '2026-12-04T09:00:00.000Z', route_id: r.routeId, route_status: 'active' });
      expect((await w.inject('GET', `${PUBLIC}/orders/${s1.order_id}/`)).json().status).toBe('in_route');
      expect(w.statusEvents.length).toBe(seen); // in_progress does not change the order

      const confirmed = await setStatus(s1.id, { status: 'confirmed', at: '2026-12-04T09:07:00Z' });
      expect(confirmed.json()).toMatchObject({ status: 'confirmed', actual_arrival_at: '2026-12-04T09:00:00.000Z', actual_departure_at: '2026-12-04T09:07:00.000Z', route_status: 'active' });
      const history = (await w.inject('GET', `${PUBLIC}/orders/${s1.order_id}/events/`)).json();
      expect(history.current_status).toBe('confirmed');
      expect(history.events.map((e: { status: string; previous_status: string | null }) => [e.previous_status, e.status])).toEqual([
        [null, 'new'],
        ['new', 'in_route'],
        ['in_route', 'confirmed'],
      ]);
      expect(history.events.at(-1).at).toBe('2026-12-04T09:07:00.000Z');
      expect(w.statusEvents.slice(seen)).toEqual([
        { company_id: w.company.id, order_id: s1.order_id, external_id: expect.stringMatching(/^OUTCOME-/), status: 'confirmed', previous_status: 'in_route', at: '2026-12-04T09:07:00.000Z' },
      ]);

      // the same status again changes nothing (a retrying app)
      const repeat = await setStatus(s1.id, { status: 'confirmed' });
      expect(repeat.statusCode).toBe(200);
      expect((await w.inject('GET', `${PUBLIC}/orders/${s1.order_id}/events/`)).json().events).toHaveLength(3);

      // impossible transitions
      const back = await setStatus(s1.id, { status: 'visited' });
      expect(back.statusCode).toBe(409);
      expect(back.json()).toEqual({ detail: `Stop ${s1.id} is already confirmed, a final status; it can no longer change.` });
      expect((await setStatus(s2.id, { status: 'visited' })).json()).toMatchObject({ status: 'visited' });
      expect((await w.inject('GET', `${PUBLIC}/orders/${s2.order_id}/`)).json().status).toBe('visited');
      const backwards = await setStatus(s2.id, { status: 'in_progress' });
      expect(backwards.statusCode).toBe(409);
      expect(backwards.json()).toEqual({ detail: `Stop ${s2.id} cannot go back from visited to in_progress.` });
      const depot = await setStatus(r.stops[0]!.id, { status: 'confirmed' });
      expect(depot.statusCode).toBe(409);
      expect(depot.json().detail).toContain('only order stops can be confirmed or rejected');
      expect((await setStatus(r.stops[0]!.id, { status: 'visited' })).statusCode).toBe(200);

      expect((await setStatus(s2.id, { status: 'rejected' })).json()).toMatchObject({ status: 'rejected', route_status: 'active' });
      const last = await setStatus(s3.id, { status: 'skipped', at: '2026-12-04T11:00:00Z' });
      expect(last.json()).toMatchObject({ status: 'skipped', actual_arrival_at: null, actual_departure_at: '2026-12-04T11:00:00.000Z', route_status: 'completed' });
      const route = (await w.inject('GET', `${PUBLIC}/routes/${r.routeId}/`)).json();
      expect(route).toMatchObject({ status: 'completed', actual_end_at: '2026-12-04T11:00:00.000Z' });
      expect(route.actual_start_at).toBe('2026-12-04T09:00:00.000Z'); // started by the first report
      const statuses = await Promise.all(r.ids.map(async (id) => (await w.inject('GET', `${PUBLIC}/orders/${id}/`)).json().status));
      expect(statuses.sort()).toEqual(['confirmed', 'rejected', 'skipped']);
      expect(w.statusEvents.slice(seen).map((e) => `${e.previous_status}>${e.status}`)).toEqual([
        'in_route>confirmed',
        'in_route>visited',
        'visited>rejected',
        'in_route>skipped',
      ]);

      // a completed route is closed
      const closed = await setStatus(r.stops.at(-1)!.id, { status: 'visited' });
      expect(closed.statusCode).toBe(409);
      expect(closed.json()).toEqual({ detail: `Route ${r.routeId} is completed; its stops can no longer change.` });
      expect((await w.inject('POST', `${INTERNAL}/routes/${r.routeId}/start`)).statusCode).toBe(409);
      expect((await w.inject('POST', `${INTERNAL}/routes/${r.routeId}/vehicle`, { vehicle_id: w.vehicles[0]!.id })).statusCode).toBe(409);
    });

    it('refuses bad stop status bodies with 400 and unknown or foreign stops with 404', async () => {
      const r = await freshRoute(1, 'BADSTOP', 0, '2026-12-05');
      const stop = r.orderStops[0]!;
      for (const [body, field] of [
        [{}, 'status'],
        [{ status: 'pending' }, 'status'],
        [{ status: 'delivered' }, 'status'],
        [{ status: 1 }, 'status'],
        [{ status: 'confirmed', at: '2026-12-05 10:00' }, 'at'],
        [{ status: 'confirmed', note: 'x' }, 'note'],
      ] as const) {
        const res = await setStatus(stop.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()[field], JSON.stringify(body)).toEqual([expect.any(String)]);
      }
      expect((await setStatus(999999, { status: 'confirmed' })).statusCode).toBe(404);
      const foreign = await setStatus(stop.id, { status: 'confirmed' }, w.otherKey);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ detail: 'Not found.' });
      expect((await w.inject('GET', `${PUBLIC}/orders/${stop.order_id}/`)).json().status).toBe('in_route');
    });

    it('records positions (one or a list), validating them; 404 for a foreign vehicle', async () => {
      const url = `${INTERNAL}/vehicles/${w.vehicles[0]!.id}/positions`;
      const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
      const one = await w.inject('POST', url, { lat: 52.5, lon: 13.4, timestamp: ago(60), speed_kmh: 12, heading_deg: 45 });
      expect(one.statusCode).toBe(201);
      expect(one.json()).toEqual({ vehicle_id: w.vehicles[0]!.id, accepted: 1 });
      const many = await w.inject('POST', url, [{ lat: 52.5, lon: 13.4 }, { lat: 52.51, lon: 13.41, timestamp: ago(50) }]);
      expect(many.json()).toEqual({ vehicle_id: w.vehicles[0]!.id, accepted: 2 });
      const asText = await w.inject('POST', url, { lat: ' 52.5 ', lon: '-3.70', timestamp: ago(40) });
      expect(asText.statusCode).toBe(201);
      // a little ahead (clock skew under 5 minutes) is taken
      expect((await w.inject('POST', url, { lat: 52.5, lon: 13.4, timestamp: ago(-60) })).statusCode).toBe(201);
      const future = await w.inject('POST', url, { lat: 52.5, lon: 13.4, timestamp: ago(-600) });
      expect(future.json().timestamp).toEqual(['Timestamp is more than 5 minutes ahead of the server clock; check the device clock.']);
      for (const [body, field] of [
        [{ lon: 13.4 }, 'lat'],
        [{ lat: 91, lon: 13.4 }, 'lat'],
        [{ lat: 52, lon: 'east' }, 'lon'],
        // 40,000 digits then a letter: refused by length before any regex sees it
        [{ lat: `${'1'.repeat(40_000)}x`, lon: 13 }, 'lat'],
        [{ lat: '5'.repeat(40), lon: 13 }, 'lat'],
        [{ lat: 52, lon: 13, speed_kmh: -1 }, 'speed_kmh'],
        [{ lat: 52, lon: 13, heading_deg: 400 }, 'heading_deg'],
        [{ lat: 52, lon: 13, timestamp: 'now' }, 'timestamp'],
        // a clock more than 5 minutes ahead of the server's
        [{ lat: 52, lon: 13, timestamp: ago(-6 * 60) }, 'timestamp'],
        [[{ lat: 52, lon: 13 }, { lat: 52, lon: 13, timestamp: '2099-01-01T00:00:00Z' }], '[1].timestamp'],
        [{ lat: 52, lon: 13, altitude: 3 }, 'altitude'],
        [[{ lat: 52, lon: 13 }, { lat: 'x', lon: 13 }], '[1].lat'],
      ] as const) {
        const res = await w.inject('POST', url, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()[field], JSON.stringify(body)).toEqual([expect.any(String)]);
      }
      expect((await w.inject('POST', url, [])).statusCode).toBe(400);
      expect((await w.inject('POST', url, '7')).statusCode).toBe(400);
      const foreign = await w.inject('POST', `${INTERNAL}/vehicles/${w.otherVehicle.id}/positions`, { lat: 1, lon: 1 });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ detail: 'Not found.' });
    });

    it('needs dispatch:write; 401 without a key; 405 on other methods', async () => {
      const readOnly = await w.keyWith(['routes:read', 'tracking:read', 'orders:write']);
      for (const path of ['/routes/1/vehicle', '/routes/1/start', '/stops/1/status', '/vehicles/1/positions']) {
        const denied = await w.inject('POST', `${INTERNAL}${path}`, {}, readOnly);
        expect(denied.statusCode, path).toBe(403);
        expect(denied.json().detail).toContain('dispatch:write');
        expect((await w.inject('POST', `${INTERNAL}${path}`, {}, null)).statusCode).toBe(401);
        expect((await w.inject('GET', `${INTERNAL}${path}`)).statusCode).toBe(405);
      }
    });

    it('positions are kept for the retention period (by arrival), then pruned in batches; a future stamp from before the rule cannot pin last_position', async () => {
      const v = w.vehicles[2]!.id;
      const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
      const p = { lat: 52.5, lon: 13.4, speed_kmh: 0, heading_deg: 0 };
      await w.port.routes.addPositions(w.company.id, v, Array.from({ length: 12 }, () => ({ ...p, timestamp: days(40) })), days(40));
      const kept = days(29);
      await w.port.routes.addPositions(w.company.id, v, [{ ...p, timestamp: kept }], kept);
      // stored by an older version: stamped a year ahead
      await w.port.routes.addPositions(w.company.id, v, [{ ...p, lat: 1, timestamp: new Date(Date.now() + 365 * 86_400_000).toISOString() }], days(1));
      const latest = (await w.port.routes.lastPosition(w.company.id, v, '', new Date(Date.now() + 300_000).toISOString()))!;
      expect(latest).toMatchObject({ lat: 52.5, timestamp: kept });
      expect((await w.port.routes.lastPosition(w.company.id, v))!.lat).toBe(1); // what it was without the bound
      expect(await w.port.routes.prunePositions(days(30), 5)).toBe(5); // one batch
      await w.runtime.housekeep();
      expect(await w.countRows('vehicle_positions', `vehicle_id = ${v}`)).toBe(2);
    });
  });
});
