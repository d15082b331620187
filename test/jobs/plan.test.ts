import { afterAll, describe, expect, it } from 'vitest';
import { EventBus, type PlannerEvent } from '../../src/jobs/events.js';
import type { JobResult } from '../../src/jobs/ports.js';
import { SolverPool } from '../../src/pool/pool.js';
import { assertFeasible } from '../helpers/checker.js';
import { COMPANY, DATE, addOrder, addVehicle, checkJob, makeService, makeStore, near, plan } from './world.js';

// The real solver on real worker threads (loaded from source).
const pool = new SolverPool({ threads: 2 });
afterAll(() => pool.destroy());

const resultOf = (view: { result: unknown }) => view.result as JobResult;

describe('orders -> routes through the job service', () => {
  it('plans a day: routes with stops, UTC times, totals, orders in_route, events', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addVehicle(store, 2, { warehouseId: 2, capacityKg: 60 });
    const windows: Array<[string | null, string | null]> = [[null, null], ['09:00:00', '11:00:00'], ['12:00:00', '18:00:00'], ['08:00:00', '12:00:00']];
    for (let id = 1; id <= 12; id++) {
      const [a, b] = windows[id % 4];
      addOrder(store, { id, timeWindowStart: a, timeWindowEnd: b, weightKg: 5 + id, ...near((id % 5) - 2, (id % 7) - 3) });
    }
    const events = new EventBus();
    const seen: PlannerEvent[] = [];
    events.onAny((e) => seen.push(e));
    const service = makeService(store, pool, { events });
    const done = await plan(service, { order_ids: Array.from({ length: 12 }, (_, i) => i + 1) });
    checkJob(store, done);
    const result = resultOf(done);
    expect(result.unassigned).toEqual([]);
    expect(result.route_ids.length).toBeGreaterThan(0);
    const route = store.getRoute(result.route_ids[0])!;
    expect(route.name).toMatch(/^2026-12-01 Van \d$/);
    expect(route.date).toBe(DATE);
    expect(route.stops[0]).toMatchObject({ stopType: 'start_depot', orderId: null, status: 'pending' });

    const changes = seen.filter((e): e is PlannerEvent<'order.status_changed'> => e.event === 'order.status_changed');
    expect(changes.map((e) => e.data.order_id).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    for (const e of changes) {
      expect(e.data).toEqual({ order_id: e.data.order_id, external_id: `EXT-${e.data.order_id}`, status: 'in_route', previous_status: 'new', at: e.data.at });
      expect(e.data.at).toBe(done.updated_at);
    }
    expect(seen.at(-1)!.event).toBe('planning_job.finished');
    expect(seen.at(-1)!.data).toEqual(done);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
  });

  it('time windows are local to the company: New York on its spring-forward day', async () => {
    const store = makeStore('America/New_York');
    addVehicle(store, 1, { shift: '06:00-20:00' });
    addOrder(store, { id: 1, deliveryDate: '2026-03-08', timeWindowStart: '09:00:00', timeWindowEnd: '09:30:00', ...near(3, 1) });
    addOrder(store, { id: 2, deliveryDate: '2026-03-08', timeWindowStart: '15:00:00', timeWindowEnd: '15:10:00', ...near(-2, 2) });
    const done = await plan(makeService(store, pool), { order_ids: [1, 2] });
    checkJob(store, done, 'America/New_York');
    const stops = store.getRoute(resultOf(done).route_ids[0])!.stops;
    const at = (orderId: number) => stops.find((s) => s.orderId === orderId)!.plannedArrivalAt;
    // EDT (UTC-4) from 02:00 that morning
    expect(at(1) >= '2026-03-08T13:00:00Z' && at(1) <= '2026-03-08T13:30:00Z').toBe(true);
    expect(at(2) >= '2026-03-08T19:00:00Z' && at(2) <= '2026-03-08T19:10:00Z').toBe(true);
    expect(stops[0].plannedDepartureAt >= '2026-03-08T10:00:00Z').toBe(true); // shift 06:00 EDT
  });

  it('time windows are local to the company: Berlin on its fall-back day', async () => {
    const store = makeStore('Europe/Berlin');
    addVehicle(store, 1, { shift: '07:00-12:00' });
    addOrder(store, { id: 1, deliveryDate: '2026-10-25', timeWindowStart: '09:00:00', timeWindowEnd: '09:15:00', ...near(2, 2) });
    const done = await plan(makeService(store, pool), { order_ids: [1] });
    checkJob(store, done);
    const stop = store.getRoute(resultOf(done).route_ids[0])!.stops[1];
    // CET (UTC+1) after 03:00 that morning
    expect(stop.plannedArrivalAt >= '2026-10-25T08:00:00Z' && stop.plannedArrivalAt <= '2026-10-25T08:15:00Z').toBe(true);
    expect(Date.parse(stop.plannedDepartureAt) - Date.parse(stop.plannedArrivalAt)).toBe(5 * 60_000);
  });

  it('drops orders without coordinates: neither routed nor unassigned', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addOrder(store, { id: 1 });
    addOrder(store, { id: 2, lat: null, lon: null });
    addOrder(store, { id: 3 });
    const done = await plan(makeService(store, pool), { order_ids: [1, 2, 3] });
    checkJob(store, done);
    expect(done.input.order_ids).toEqual([1, 2, 3]);
    expect(resultOf(done).unassigned).toEqual([]);
    const placed = store.listRoutes(1).flatMap((r) => r.stops.map((s) => s.orderId).filter((x) => x !== null));
    expect(placed.sort()).toEqual([1, 3]);
    expect(store.getOrder(2)!.status).toBe('new');
  });

  it('with seedsPerSolve 2, two seeds solve in parallel and the better plan is kept', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addVehicle(store, 2, { warehouseId: 2 });
    for (let id = 1; id <= 10; id++) addOrder(store, { id });
    let solves = 0;
    const service = makeService(store, pool, { seedsPerSolve: 2, onSolved: ({ problem, result }) => {
      solves++;
      assertFeasible(problem, result);
    } });
    const done = await plan(service, { order_ids: Array.from({ length: 10 }, (_, i) => i + 1) });
    checkJob(store, done);
    expect(solves).toBe(1);
    expect(resultOf(done).unassigned).toEqual([]);
  });

  it('a job whose orders all lack coordinates is done with nothing to place', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addOrder(store, { id: 1, lat: null, lon: null });
    const done = await plan(makeService(store, pool), { order_ids: [1] });
    expect(done.status).toBe('done');
    expect(done.result).toEqual({ route_ids: [], summary: { route_count: 0, unassigned_count: 0 }, unassigned: [] });
    expect(store.getOrder(1)!.status).toBe('new');
  });

  it('plans each delivery date separately, with vehicles free on that date', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addVehicle(store, 2);
    // vehicle 1 already has a route on the second date
    store.addRoute({ jobId: 0, companyId: COMPANY, vehicleId: 1, name: 'earlier', date: '2026-12-02', plannedMileageKm: 0, plannedDurationMin: 0, totalWeightKg: 0, totalVolumeM3: 0, stops: [] });
    for (let id = 1; id <= 4; id++) addOrder(store, { id, deliveryDate: id <= 2 ? '2026-12-01' : '2026-12-02' });
    const done = await plan(makeService(store, pool), { order_ids: [1, 2, 3, 4] });
    checkJob(store, done);
    const routes = resultOf(done).route_ids.map((id) => store.getRoute(id)!);
    for (const r of routes) {
      for (const s of r.stops) if (s.orderId !== null) expect(store.getOrder(s.orderId)!.deliveryDate).toBe(r.date);
      if (r.date === '2026-12-02') expect(r.vehicleId).toBe(2);
    }
    expect(new Set(routes.map((r) => r.date))).toEqual(new Set(['2026-12-01', '2026-12-02']));
  });

  it('one pinned vehicle takes every order; two or more are ignored', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addVehicle(store, 2);
    addVehicle(store, 3, { features: ['fridge'] });
    for (let id = 1; id <= 4; id++) addOrder(store, { id });
    addOrder(store, { id: 5, requiredFeatures: ['fridge'] });
    const service = makeService(store, pool);
    const pinned = await plan(service, { order_ids: [1, 2, 3, 4, 5], vehicle_ids: [2] });
    checkJob(store, pinned);
    expect(resultOf(pinned).route_ids.map((id) => store.getRoute(id)!.vehicleId)).toEqual([2]);
    expect(resultOf(pinned).unassigned).toEqual([{ order_id: 5, reason: 'requirements' }]);

    // two vehicles named: the restriction is ignored, so vehicle 3 (not named) serves order 5
    const store2 = makeStore();
    addVehicle(store2, 1);
    addVehicle(store2, 2);
    addVehicle(store2, 3, { features: ['fridge'] });
    addOrder(store2, { id: 5, requiredFeatures: ['fridge'] });
    const ignored = await plan(makeService(store2, pool), { order_ids: [5], vehicle_ids: [1, 2] });
    checkJob(store2, ignored);
    expect(ignored.input.vehicle_ids).toEqual([1, 2]);
    expect(resultOf(ignored).route_ids.map((id) => store2.getRoute(id)!.vehicleId)).toEqual([3]);
  });

  it('a pinned vehicle that is not free leaves its orders unassigned as no_vehicle', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addVehicle(store, 2);
    store.addRoute({ jobId: 0, companyId: COMPANY, vehicleId: 2, name: 'earlier', date: DATE, plannedMileageKm: 0, plannedDurationMin: 0, totalWeightKg: 0, totalVolumeM3: 0, stops: [] });
    addOrder(store, { id: 1 });
    addOrder(store, { id: 2 });
    const done = await plan(makeService(store, pool), { order_ids: [1, 2], vehicle_ids: [2] });
    checkJob(store, done);
    expect(resultOf(done)).toEqual({
      route_ids: [],
      summary: { route_count: 0, unassigned_count: 2 },
      unassigned: [
        { order_id: 1, reason: 'no_vehicle' },
        { order_id: 2, reason: 'no_vehicle' },
      ],
    });
  });

  it('warehouse_id sets the depot of every vehicle; otherwise each uses its own', async () => {
    const make = () => {
      const store = makeStore();
      addVehicle(store, 1, { warehouseId: 1, maxOrders: 2 });
      addVehicle(store, 2, { warehouseId: 2, maxOrders: 2 });
      for (let id = 1; id <= 4; id++) addOrder(store, { id });
      return store;
    };
    const own = make();
    const a = await plan(makeService(own, pool), { order_ids: [1, 2, 3, 4] });
    checkJob(own, a);
    for (const id of resultOf(a).route_ids) {
      const r = own.getRoute(id)!;
      expect([r.stops[0].warehouseId, r.stops.at(-1)!.warehouseId]).toEqual([r.vehicleId, r.vehicleId]);
    }
    const forced = make();
    const b = await plan(makeService(forced, pool), { order_ids: [1, 2, 3, 4], warehouse_id: 2 });
    checkJob(forced, b);
    expect(resultOf(b).route_ids).toHaveLength(2);
    for (const id of resultOf(b).route_ids) {
      const r = forced.getRoute(id)!;
      expect([r.stops[0].warehouseId, r.stops.at(-1)!.warehouseId]).toEqual([2, 2]);
      expect(r.stops[0]).toMatchObject({ address: 'Spandau depot', lat: forced.getWarehousesByIds(COMPANY, [2])[0].lat });
    }
  });

  it('two jobs racing for the only vehicle: the second plans again and finds none free', async () => {
    const store = makeStore();
    addVehicle(store, 1);
    addOrder(store, { id: 1 });
    addOrder(store, { id: 2 });
    const service = makeService(store, pool, { concurrency: 2 });
    const [a, b] = await Promise.all([service.submit(COMPANY, { order_ids: [1] }), service.submit(COMPANY, { order_ids: [2] })]);
    const [da, db] = [await service.waitFor(COMPANY, a.job_id), await service.waitFor(COMPANY, b.job_id)];
    checkJob(store, da);
    checkJob(store, db);
    const results = [resultOf(da), resultOf(db)];
    expect(results.map((r) => r.route_ids.length).sort()).toEqual([0, 1]);
    expect(results.flatMap((r) => r.unassigned.map((u) => u.reason))).toEqual(['no_vehicle']);
    expect(store.listRoutes(COMPANY)).toHaveLength(1);
  });
});
