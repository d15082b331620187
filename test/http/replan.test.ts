/**
 * The dispatcher's day (operations.md "Re-planning a day", "Breaks"), on both stores, in-process:
 * POST /planning/replan, /vehicles/{id}/unavailable, /planning/quote, `route.updated`, breaks in
 * the route detail. The company's time zone is chosen so that it is late morning there now, and
 * the orders are for today: a re-plan then meets routes in progress as a dispatcher would.
 */
import turfDistance from '@turf/distance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { DEPOT, INTERNAL, makeWorld, near, PUBLIC, type World } from '../e2e/world.js';
import type { JobView } from '../../src/jobs/view.js';

/** A zone where it is between 10:00 and 11:00 now, and today's date there. */
function lateMorning(): { timezone: string; date: string; offsetH: number } {
  const offset = 10 - new Date().getUTCHours(); // UTC+offset: -13..10
  const o = offset < -12 ? offset + 24 : offset;
  const timezone = o === 0 ? 'UTC' : `Etc/GMT${o > 0 ? '-' : '+'}${Math.abs(o)}`;
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return { timezone, date, offsetH: o };
}

interface Stop {
  id: number;
  position: number;
  stop_type: string;
  status: string;
  order_id: number | null;
  lat: string;
  lon: string;
  planned_arrival_at: string;
  planned_departure_at: string;
}
interface Route {
  id: number;
  status: string;
  total_weight_kg: string;
  stops: Stop[];
  breaks?: Array<{ start: string; end: string }>;
}

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const { timezone, date, offsetH } = lateMorning();
  let w: World;
  beforeAll(async () => {
    w = await makeWorld({ kind, timezone, vehicles: 6 });
  });
  afterAll(async () => w?.close());

  const route = async (id: number): Promise<Route> => (await w.inject('GET', `${PUBLIC}/routes/${id}/`)).json();
  const orderStatus = async (id: number): Promise<string> => (await w.inject('GET', `${PUBLIC}/orders/${id}/`)).json().status;
  /** Light orders of today around the depot, no time window. */
  const orders = (n: number, prefix: string, weight = '10.000') =>
    Array.from({ length: n }, (_, i) => ({ external_id: `${prefix}-${i + 1}`, address: `${prefix} Street ${i + 1}`, ...near(2 + (i % 4), -2 + i), weight, volume: '0.010', delivery_date: date }));
  const planOn = async (ids: number[], vehicle: number) => {
    const job = await w.plan({ order_ids: ids, vehicle_ids: [vehicle] });
    expect(job.status).toBe('done');
    return (job.result as { route_ids: number[] }).route_ids[0]!;
  };
  const replan = async (body: Record<string, unknown>): Promise<JobView> => {
    const res = await w.inject('POST', `${INTERNAL}/planning/replan`, body);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().status).toBe('queued');
    return w.runtime.jobs.waitFor(w.company.id, res.json().job_id);
  };
  /** Every route of the date as the API shows it. */
  const routesOfDay = async (): Promise<Route[]> => {
    const list = (await w.inject('GET', `${PUBLIC}/routes/?date=${date}&page_size=200`)).json().results as Array<{ id: number }>;
    return Promise.all(list.map((r) => route(r.id)));
  };

  it('re-plans a day in progress: fixed stops stay with their times, kept stops keep their ids, new orders are placed, nothing before now', async () => {
    await w.port.webhooks.create({ company_id: w.company.id, url: 'http://127.0.0.1:9/hook', events: ['route.updated'] }, new Date().toISOString());
    const van1 = w.vehicles[0]!.id;
    const van2 = w.vehicles[1]!.id;
    const first = await w.addOrders(orders(5, 'A'));
    const second = await w.addOrders(orders(4, 'B'));
    const r1 = await planOn(first, van1);
    const r2 = await planOn(second, van2);
    // van 1 is out: its first stop is done
    expect((await w.inject('POST', `${INTERNAL}/routes/${r1}/start`, {})).statusCode).toBe(200);
    const before1 = await route(r1);
    const done = before1.stops.find((s) => s.stop_type === 'order')!;
    expect((await w.inject('POST', `${INTERNAL}/stops/${done.id}/status`, { status: 'confirmed' })).statusCode).toBe(200);
    const before2 = await route(r2);
    // (read after the confirmation: the done stop is not pending any more)
    const pendingBefore = new Map([...(await route(r1)).stops, ...before2.stops].filter((s) => s.stop_type === 'order' && s.status === 'pending').map((s) => [s.order_id!, s.id]));
    expect(pendingBefore.size).toBe(8);
    const fresh = await w.addOrders(orders(3, 'C'));

    const started = Date.now();
    const job = await replan({ date });
    expect(job.status, job.error).toBe('done');
    const result = job.result as { route_ids: number[]; unassigned: unknown[] };
    expect(result.unassigned).toEqual([]);
    const day = await routesOfDay();
    const open = day.filter((r) => r.status === 'planned' || r.status === 'active');
    // Van 1's pending stops may all go to other vans (the search decides, and what it finds in its
    // budget depends on the machine's load); its route then holds only the done stop and is
    // `completed`, still in the job's routes. Either way every kept stop is on an open route.
    // the confirmed stop: same id, same route, same times, first after the depot
    const after1 = await route(r1);
    expect(after1.stops[1]).toMatchObject({ id: done.id, status: 'confirmed', planned_arrival_at: done.planned_arrival_at, planned_departure_at: done.planned_departure_at });
    // every pending stop is still planned, under its id; the new orders are placed and in_route
    const stopsAfter = open.flatMap((r) => r.stops.filter((s) => s.stop_type === 'order'));
    for (const [orderId, stopId] of pendingBefore) expect(stopsAfter.find((s) => s.order_id === orderId)?.id).toBe(stopId);
    for (const id of fresh) {
      expect(stopsAfter.some((s) => s.order_id === id)).toBe(true);
      expect(await orderStatus(id)).toBe('in_route');
    }
    for (const r of open) {
      expect(r.stops.map((s) => s.position)).toEqual(r.stops.map((_, i) => i + 1));
      for (const s of r.stops.filter((x) => x.stop_type === 'order' && x.status === 'pending')) {
        // never planned before the re-plan ran
        expect(Date.parse(s.planned_arrival_at)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 - 1000);
      }
    }
    expect(result.route_ids.sort()).toEqual(day.filter((r) => r.status !== 'cancelled').map((r) => r.id).sort());
    expect(day.every((r) => open.includes(r) || (r.status === 'completed' && r.id === r1) || r.status === 'cancelled')).toBe(true);
    // a route.updated row for each route whose stops changed (both got new orders or moved ones)
    expect(await w.countRows('webhook_deliveries', `event = 'route.updated'`)).toBeGreaterThanOrEqual(1);
  });

  it('a stop status written while the re-plan computes wins: the job computes again from it', async () => {
    const van = w.vehicles[2]!.id;
    const ids = await w.addOrders(orders(4, 'D'));
    const r = await planOn(ids, van);
    const stop = (await route(r)).stops.find((s) => s.stop_type === 'order')!;
    // the status lands right after the job has read the day (its next read: the vans' positions)
    const planning = w.port.planning;
    const lastPositions = planning.lastPositions.bind(planning);
    let written: number | undefined;
    planning.lastPositions = async (companyId: number, vehicleIds: number[], notAfter: string) => {
      if (written === undefined) written = (await w.inject('POST', `${INTERNAL}/stops/${stop.id}/status`, { status: 'visited' })).statusCode;
      return lastPositions(companyId, vehicleIds, notAfter);
    };
    try {
      const job = await replan({ date });
      expect(written).toBe(200);
      expect(job.status, job.error).toBe('done');
    } finally {
      planning.lastPositions = lastPositions;
    }
    const after = await route(r);
    const same = after.stops.find((s) => s.id === stop.id)!;
    expect(same.status).toBe('visited');
    expect(await orderStatus(stop.order_id!)).toBe('visited');
    // computed from the fresh day: the visited stop is fixed, first after the depot
    expect(after.stops[1]!.id).toBe(stop.id);
  });

  it('a van out of service: its pending stops move, an order that fits nowhere goes back to new with history', async () => {
    // tomorrow: van 4 carries 3 x 100 kg, van 5 a 700 kg order and a 50 kg one; van 5 goes out
    const tomorrow = new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const x = w;
    const [a, b] = [x.vehicles[3]!.id, x.vehicles[4]!.id];
    const mk = (n: number, prefix: string, weight: string) =>
      Array.from({ length: n }, (_, i) => ({ external_id: `${prefix}-${i}`, address: `${prefix} ${i}`, ...near(1 + i, 1), weight, volume: '0.010', delivery_date: tomorrow }));
    const light = await x.addOrders(mk(3, 'L', '100.000'));
    const heavy = await x.addOrders(mk(1, 'H', '700.000'));
    const other = await x.addOrders(mk(1, 'M', '50.000'));
    const jobA = await x.plan({ order_ids: light, vehicle_ids: [a] });
    const jobB = await x.plan({ order_ids: [...heavy, ...other], vehicle_ids: [b] });
    const routeB = (jobB.result as { route_ids: number[] }).route_ids[0]!;
    const routeA = (jobA.result as { route_ids: number[] }).route_ids[0]!;
    // from 06:00 tomorrow, local (before the shift): every stop of its route moves
    const from = new Date(Date.parse(`${tomorrow}T06:00:00Z`) - offsetH * 3_600_000).toISOString();
    const res = await x.inject('POST', `${INTERNAL}/vehicles/${b}/unavailable`, { from });
    expect(res.statusCode, res.body).toBe(202);
    const job = await x.runtime.jobs.waitFor(x.company.id, res.json().job_id);
    expect(job.status, job.error).toBe('done');
    expect(job.result).toMatchObject({ unassigned: [{ order_id: heavy[0], reason: 'capacity' }] });
    // the heavy order is new again, with a history entry and its event; the 50 kg one moved to van 4's route
    const h = (await x.inject('GET', `${PUBLIC}/orders/${heavy[0]}/events/`)).json();
    expect(h.current_status).toBe('new');
    expect(h.events.at(-1)).toMatchObject({ status: 'new', previous_status: 'in_route' });
    expect(x.statusEvents.some((e) => e.order_id === heavy[0] && e.status === 'new')).toBe(true);
    const ra = (await x.inject('GET', `${PUBLIC}/routes/${routeA}/`)).json() as Route;
    expect(ra.stops.filter((s) => s.stop_type === 'order').map((s) => s.order_id).sort()).toEqual([...light, ...other].sort());
    expect(ra.total_weight_kg).toBe('350.000');
    const rb = (await x.inject('GET', `${PUBLIC}/routes/${routeB}/`)).json() as Route;
    expect(rb.status).toBe('cancelled');
    // no route left that day: 409; another company's van: 404; a bad `from`: 400
    expect((await x.inject('POST', `${INTERNAL}/vehicles/${b}/unavailable`, { from })).statusCode).toBe(409);
    expect((await x.inject('POST', `${INTERNAL}/vehicles/${x.otherVehicle.id}/unavailable`, {})).statusCode).toBe(404);
    expect((await x.inject('POST', `${INTERNAL}/vehicles/${a}/unavailable`, { from: 'noon' })).json()).toMatchObject({ from: [expect.any(String)] });
  });

  it('quotes one more order at its cheapest feasible place, checked against every position; or says why not', async () => {
    const lat = DEPOT.lat + 3 / 111.2;
    const lon = DEPOT.lon;
    const res = await w.inject('POST', `${INTERNAL}/planning/quote`, { date, lat, lon: String(lon), weight: 5 });
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json();
    expect(q).toMatchObject({ feasible: true, route_id: expect.any(Number), position: expect.any(Number) });
    expect(Date.parse(q.eta)).toBeGreaterThan(Date.now() - 60_000);
    // independently: the added kilometres of every position of every open route (great circle x 1.3)
    const km = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => (turfDistance([a.lon, a.lat], [b.lon, b.lat], { units: 'meters' }) * 1.3) / 1000;
    const open = (await routesOfDay()).filter((r) => r.status === 'planned' || r.status === 'active');
    let best = Infinity;
    let bestAt = { route: 0, position: 0 };
    for (const r of open) {
      const pts = r.stops.map((s) => ({ lat: Number(s.lat), lon: Number(s.lon), fixed: s.status !== 'pending' && s.stop_type === 'order' }));
      // after the last fixed stop only
      const firstFree = Math.max(1, ...pts.map((p, i) => (p.fixed ? i + 1 : 1)));
      for (let i = firstFree; i < pts.length; i++) {
        const added = km(pts[i - 1]!, { lat, lon }) + km({ lat, lon }, pts[i]!) - km(pts[i - 1]!, pts[i]!);
        if (added < best - 1e-9) [best, bestAt] = [added, { route: r.id, position: i + 1 }];
      }
    }
    expect(q.added_km).toBeCloseTo(best, 1);
    expect(q.route_id).toBe(bestAt.route);
    expect(q.position).toBe(bestAt.position);
    // nothing changed
    expect((await routesOfDay()).map((r) => r.stops.length)).toEqual((await routesOfDay()).map((r) => r.stops.length));
    // too heavy for every van: capacity; a date without routes: no_vehicle; a bad body: 400
    expect((await w.inject('POST', `${INTERNAL}/planning/quote`, { date, lat, lon, weight: 5000 })).json()).toEqual({ feasible: false, reason: 'capacity' });
    expect((await w.inject('POST', `${INTERNAL}/planning/quote`, { date: '2030-01-01', lat, lon })).json()).toEqual({ feasible: false, reason: 'no_vehicle' });
    const bad = await w.inject('POST', `${INTERNAL}/planning/quote`, { date, lat: 91, lon, extra: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ lat: [expect.any(String)], extra: ['Unknown field.'] });
  });

  it('refuses a bad re-plan body and unknown references with the contract texts', async () => {
    const bad = await w.inject('POST', `${INTERNAL}/planning/replan`, { date: '2026-02-30' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().date).toEqual(['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.']);
    const missing = await w.inject('POST', `${INTERNAL}/planning/replan`, { date, order_ids: [999999] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ detail: 'Orders not found for this tenant: [999999].' });
    const foreign = await w.inject('POST', `${INTERNAL}/planning/replan`, { date, vehicle_ids: [w.otherVehicle.id] });
    expect(foreign.json()).toEqual({ detail: `Vehicles not found or inactive for this tenant: [${w.otherVehicle.id}].` });
  });

  it('plans a driver break inside its window and shows it in the route detail', async () => {
    const van = w.vehicles[5]!;
    await w.port.vehicles.update(w.company.id, van.id, { breaks: [{ start: '11:00', end: '12:00', minutes: 30 }] });
    const day = '2026-12-01';
    const ids = await w.addOrders(
      Array.from({ length: 12 }, (_, i) => ({ address: `S ${i}`, ...near(3 * Math.cos(i), 3 * Math.sin(i)), weight: '1.000', delivery_date: day, service_time: 25 })),
    );
    const job = await w.plan({ order_ids: ids, vehicle_ids: [van.id] });
    expect(job.status, job.error).toBe('done');
    const r = (await w.inject('GET', `${PUBLIC}/routes/${(job.result as { route_ids: number[] }).route_ids[0]}/`)).json() as Route;
    expect(r.breaks).toHaveLength(1);
    const b = r.breaks![0]!;
    // 11:00-12:00 local
    const local = (t: string) => new Date(t).toLocaleTimeString('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit' });
    expect(local(b.start) >= '11:00' && local(b.start) <= '12:00').toBe(true);
    expect(Date.parse(b.end) - Date.parse(b.start)).toBe(30 * 60_000);
    // no stop is served during the break
    for (const s of r.stops) {
      if (s.stop_type !== 'order') continue;
      const [a, d] = [Date.parse(s.planned_arrival_at), Date.parse(s.planned_departure_at)];
      expect(d <= Date.parse(b.start) || a >= Date.parse(b.end)).toBe(true);
    }
  });
  it('the rest of a route under way starts where the van last reported itself, when that is newer than its last stop', async () => {
    const van = w.vehicles[3]!.id;
    const ids = await w.addOrders(orders(3, 'POS'));
    const r = await planOn(ids, van);
    expect((await w.inject('POST', `${INTERNAL}/routes/${r}/start`, {})).statusCode).toBe(200);
    const first = (await route(r)).stops.find((s) => s.stop_type === 'order')!;
    expect((await w.inject('POST', `${INTERNAL}/stops/${first.id}/status`, { status: 'confirmed' })).statusCode).toBe(200);
    // the van is now 30 km north of the depot (a detour, a wrong turn)
    const far = { lat: DEPOT.lat + 30 / 111.2, lon: DEPOT.lon, timestamp: new Date().toISOString() };
    expect((await w.inject('POST', `${INTERNAL}/vehicles/${van}/positions`, far)).statusCode).toBe(201);
    const started = Date.now();
    const job = await replan({ date, order_ids: [] });
    expect(job.status, job.error).toBe('done');
    // from 30 km away, whatever the van does next (its stops, or back to the depot when the others
    // took them) is at least 25 km off: even at 100 km/h, 15 minutes from now
    const after = await route(r);
    const next = after.stops.filter((s) => (s.stop_type === 'order' && s.status === 'pending') || s.stop_type === 'end_depot');
    const soonest = Math.min(...next.map((s) => Date.parse(s.planned_arrival_at)));
    expect(soonest).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 + 15 * 60_000);
    // and the orders are all still planned
    const open = (await routesOfDay()).filter((x) => x.status === 'planned' || x.status === 'active').flatMap((x) => x.stops.map((s) => s.order_id));
    for (const id of ids.filter((x) => x !== first.order_id)) expect(open).toContain(id);
  });
});
