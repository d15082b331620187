/**
 * The behaviour every PlanningStore must show, as a reusable suite: the in-memory store runs it
 * here (store.test.ts); the SQLite store of the service runs the same suite with its own fixture.
 */
import { describe, expect, it } from 'vitest';
import { commitPlan, commitReplan } from '../../src/jobs/commit.js';
import {
  IdempotencyKeyReusedError,
  IdempotentReplayError,
  LeaseLostError,
  OrdersChangedError,
  OrdersNotNewError,
  StopsChangedError,
  TooManyJobsError,
  VehicleBusyError,
  type Company,
  type NewRoute,
  type OrderStatus,
  type OrderStatusChange,
  type PlanningOrder,
  type PlanningStore,
  type PlanningVehicle,
  type Warehouse,
} from '../../src/jobs/ports.js';

type Maybe<T> = T | Promise<T>;

/** How the suite seeds and inspects a store (ids are the store's). */
export interface StoreFixture {
  store: PlanningStore;
  addCompany(timezone: string): Maybe<Company>;
  addWarehouse(fields: Omit<Warehouse, 'id'>): Maybe<Warehouse>;
  addVehicle(fields: Omit<PlanningVehicle, 'id'>): Maybe<PlanningVehicle>;
  addOrder(fields: Omit<PlanningOrder, 'id'>): Maybe<PlanningOrder>;
  /** A route on `date` for the vehicle, made outside planning. */
  addRoute(companyId: number, vehicleId: number, date: string): Maybe<void>;
  orderStatus(orderId: number): Maybe<OrderStatus>;
  orderHistory(orderId: number): Maybe<Array<Omit<OrderStatusChange, 'order_id' | 'external_id'>>>;
  /** The route as stored (status planned, stops with status pending), or undefined. */
  readRoute(routeId: number): Maybe<(Omit<NewRoute, 'stops'> & { status: string; stops: Array<NewRoute['stops'][number] & { status: string }> }) | undefined>;
  countRoutes(companyId: number): Maybe<number>;
  /** Changes an order's address as a client's edit does, through the adapter's order repository. */
  editOrder(companyId: number, orderId: number, address: string): Maybe<void>;
}

const T0 = '2026-11-30T08:00:00.000Z';
const T1 = '2026-11-30T08:00:05.000Z';
const T2 = '2026-11-30T08:00:09.000Z';

export function describePlanningStoreContract(name: string, makeFixture: () => Maybe<StoreFixture>): void {
  async function seeded() {
    const f = await makeFixture();
    const company = await f.addCompany('Europe/Berlin');
    const other = await f.addCompany('UTC');
    const warehouse = await f.addWarehouse({ companyId: company.id, name: 'Mitte', address: 'A 1', lat: 52.52, lon: 13.405 });
    const vehicle = (fields: Partial<PlanningVehicle> = {}) =>
      f.addVehicle({ companyId: company.id, name: 'Van', active: true, warehouseId: warehouse.id, capacityKg: 800, capacityM3: 6, shift: '08:00-18:00', maxDistanceKm: 150, maxDurationMin: 480, maxOrders: 30, features: ['fridge'], ...fields });
    const order = (fields: Partial<PlanningOrder> = {}) =>
      f.addOrder({ companyId: company.id, externalId: 'E-1', status: 'new', address: 'B 2', lat: 52.5, lon: 13.4, weightKg: 12.5, volumeM3: 0.25, serviceTimeMin: 10, timeWindowStart: '09:00:00', timeWindowEnd: '11:00:00', deliveryDate: '2026-12-01', ...fields });
    return { f, s: f.store, company, other, warehouse, vehicle, order };
  }

  function route(companyId: number, jobId: number, vehicleId: number, warehouseId: number, orders: PlanningOrder[]): NewRoute {
    const depot = (position: number, stopType: 'start_depot' | 'end_depot', at: string) => ({ position, stopType, orderId: null, orderExternalId: null, warehouseId, address: 'A 1', lat: 52.52, lon: 13.405, plannedArrivalAt: at, plannedDepartureAt: at });
    return {
      jobId,
      companyId,
      vehicleId,
      name: '2026-12-01 Van',
      date: '2026-12-01',
      plannedMileageKm: 12.34,
      plannedDurationMin: 95,
      totalWeightKg: orders.reduce((s, o) => s + o.weightKg, 0),
      totalVolumeM3: orders.reduce((s, o) => s + o.volumeM3, 0),
      stops: [
        depot(1, 'start_depot', '2026-12-01T07:30:00Z'),
        ...orders.map((o, i) => ({ position: i + 2, stopType: 'order' as const, orderId: o.id, orderExternalId: o.externalId, warehouseId: null, address: o.address, lat: o.lat!, lon: o.lon!, plannedArrivalAt: '2026-12-01T08:00:00Z', plannedDepartureAt: '2026-12-01T08:10:00Z' })),
        depot(orders.length + 2, 'end_depot', '2026-12-01T09:05:00Z'),
      ],
    };
  }

  /** The versions of the orders as a job reads them. */
  async function versionsOf(s: PlanningStore, companyId: number, orders: PlanningOrder[]): Promise<Record<number, number>> {
    return Object.fromEntries((await s.getOrdersByIds(companyId, orders.map((o) => o.id))).map((o) => [o.id, o.version ?? 0]));
  }

  describe(`${name}: the PlanningStore contract`, () => {
    it('jobs: create queued, ids ascend, company scoping, updates, unfinished in FIFO order', async () => {
      const { s, company, other } = await seeded();
      const a = await s.createJob(company.id, { order_ids: [1, 2], vehicle_ids: [], warehouse_id: null }, T0);
      const b = await s.createJob(other.id, { order_ids: [3], vehicle_ids: [4], warehouse_id: 5 }, T1);
      const c = await s.createJob(company.id, { order_ids: [6], vehicle_ids: [], warehouse_id: null }, T1);
      expect(b.id).toBeGreaterThan(a.id);
      expect(c.id).toBeGreaterThan(b.id);
      expect(a).toEqual({ id: a.id, companyId: company.id, status: 'queued', input: { order_ids: [1, 2], vehicle_ids: [], warehouse_id: null }, result: null, error: '', createdAt: T0, updatedAt: T0, attempts: 0 });
      expect(await s.getJob(company.id, a.id)).toEqual(a);
      expect(await s.getJob(other.id, a.id)).toBeUndefined();
      expect(await s.getJob(company.id, 999_999)).toBeUndefined();
      expect((await s.getJob(other.id, b.id))!.input).toEqual({ order_ids: [3], vehicle_ids: [4], warehouse_id: 5 });

      const running = await s.updateJob(a.id, { status: 'running' }, T1);
      expect(running).toMatchObject({ status: 'running', error: '', result: null, createdAt: T0, updatedAt: T1 });
      const failed = await s.updateJob(c.id, { status: 'failed', error: 'It broke.' }, T2);
      expect(failed).toMatchObject({ status: 'failed', error: 'It broke.', result: null, updatedAt: T2 });
      expect(await s.getJob(company.id, c.id)).toEqual(failed);
      expect((await s.listUnfinishedJobs()).map((j) => [j.id, j.status])).toEqual([
        [a.id, 'running'],
        [b.id, 'queued'],
      ]);
    });

    it('jobs: the cap of unfinished jobs and Idempotency-Keys are checked in the same step as the insert', async () => {
      const { s, company, other } = await seeded();
      const input = { order_ids: [1], vehicle_ids: [], warehouse_id: null };
      await s.createJob(company.id, input, T0, 2);
      await s.createJob(company.id, input, T0, 2);
      await expect(Promise.resolve().then(() => s.createJob(company.id, input, T0, 2))).rejects.toThrow(TooManyJobsError);
      expect(await s.createJob(other.id, input, T0, 2)).toMatchObject({ status: 'queued' });

      const key = { key: 'k-1', fingerprint: 'f1' };
      const first = await s.createJob(other.id, input, T0, undefined, key);
      await expect(Promise.resolve().then(() => s.createJob(other.id, input, T1, undefined, key))).rejects.toEqual(new IdempotentReplayError(first.id));
      await expect(Promise.resolve().then(() => s.createJob(other.id, input, T1, undefined, { key: 'k-1', fingerprint: 'f2' }))).rejects.toThrow(IdempotencyKeyReusedError);
      expect(await s.findIdempotent(other.id, 'k-1', T0)).toEqual({ jobId: first.id, fingerprint: 'f1' });
      expect(await s.findIdempotent(other.id, 'k-1', T1)).toBeUndefined(); // used before the window
      expect(await s.findIdempotent(company.id, 'k-1', T0)).toBeUndefined(); // per company
      // 24 h later the key stands for a new job
      const dayLater = new Date(Date.parse(T0) + 24 * 3_600_000 + 1).toISOString();
      const second = await s.createJob(other.id, input, dayLater, undefined, key);
      expect(second.id).not.toBe(first.id);
      expect(await s.findIdempotent(other.id, 'k-1', T1)).toEqual({ jobId: second.id, fingerprint: 'f1' });
    });

    it('leases: a claim takes one job for one owner; taken-over jobs first, then companies in turn, then FIFO', async () => {
      const { s, company, other } = await seeded();
      const input = { order_ids: [1], vehicle_ids: [], warehouse_id: null };
      const a1 = await s.createJob(company.id, input, T0);
      const a2 = await s.createJob(company.id, input, T0);
      const b1 = await s.createJob(other.id, input, T0);
      const until = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

      const first = (await s.claimJob('p1', T0, until(T0, 30_000)))!;
      expect(first).toMatchObject({ id: a1.id, status: 'running', attempts: 1, updatedAt: T0 });
      // the other company has not had a turn: its job goes before a2, though younger
      expect((await s.claimJob('p2', T0, until(T0, 30_000)))!.id).toBe(b1.id);
      expect((await s.claimJob('p2', T0, until(T0, 30_000)))!.id).toBe(a2.id);
      expect(await s.claimJob('p3', T1, until(T1, 30_000))).toBeUndefined(); // every lease still runs

      // p1 renews; p2's lease on a2 runs out and p3 takes a2 over (before any queued job)
      expect(await s.renewLease(a1.id, 'p1', until(T2, 30_000))).toBe(true);
      expect(await s.renewLease(a1.id, 'p2', until(T2, 30_000))).toBe(false);
      const later = until(T0, 31_000);
      const c1 = await s.createJob(company.id, input, later);
      const taken = (await s.claimJob('p3', later, until(later, 30_000)))!;
      expect(taken).toMatchObject({ id: b1.id, attempts: 2 }); // b1's lease (p2, T0 + 30 s) ran out too
      expect((await s.claimJob('p3', later, until(later, 30_000)))!).toMatchObject({ id: a2.id, attempts: 2 });
      expect((await s.claimJob('p3', later, until(later, 30_000)))!.id).toBe(c1.id);

      // the stale holder writes nothing: no failure, no renewal, no commit
      await expect(Promise.resolve().then(() => s.updateJob(a2.id, { status: 'failed', error: 'stale' }, later, 'p2'))).rejects.toEqual(new LeaseLostError(a2.id));
      expect(await s.renewLease(a2.id, 'p2', until(later, 30_000))).toBe(false);
      await expect(Promise.resolve().then(() => commitPlan(s, { jobId: a2.id, companyId: company.id, at: later, routes: [], unassigned: [], owner: 'p2', versions: {} }))).rejects.toEqual(
        new LeaseLostError(a2.id),
      );
      expect((await s.getJob(company.id, a2.id))!.status).toBe('running');

      // the holder's failure lands and ends the lease; a finished job is never claimed or committed again
      expect(await s.updateJob(a2.id, { status: 'failed', error: 'It broke.' }, later, 'p3')).toMatchObject({ status: 'failed', error: 'It broke.' });
      expect(await s.renewLease(a2.id, 'p3', until(later, 30_000))).toBe(false);
      await expect(Promise.resolve().then(() => commitPlan(s, { jobId: a2.id, companyId: company.id, at: later, routes: [], unassigned: [], versions: {} }))).rejects.toEqual(
        new LeaseLostError(a2.id),
      );
      // handed back: still running (never back to queued for a client), the attempt not counted,
      // claimable at once
      expect(await s.releaseJob(c1.id, 'p1', later)).toBe(false);
      expect(await s.releaseJob(c1.id, 'p3', later)).toBe(true);
      expect((await s.getJob(company.id, c1.id))!).toMatchObject({ status: 'running', attempts: 0 });
      expect(await s.renewLease(c1.id, 'p3', until(later, 30_000))).toBe(false);
      expect((await s.claimJob('p4', later, until(later, 30_000)))!).toMatchObject({ id: c1.id, attempts: 1 });
      const done = await commitPlan(s, { jobId: c1.id, companyId: company.id, at: later, routes: [], unassigned: [], owner: 'p4', versions: {} });
      expect(done.job).toMatchObject({ status: 'done', attempts: 1 });
      expect((await s.listUnfinishedJobs()).map((j) => j.id).sort()).toEqual([a1.id, b1.id].sort());
    });

    it('orders: by ids and by external ids, any status, only the company\'s', async () => {
      const { s, company, other, order, f } = await seeded();
      const o1 = await order({ externalId: 'X' });
      const o2 = await order({ externalId: 'X', status: 'archived', requiredFeatures: ['fridge'] });
      const o3 = await order({ externalId: null, lat: null, lon: null, timeWindowStart: null, timeWindowEnd: null });
      const theirs = await f.addOrder({ ...o1, companyId: other.id, externalId: 'X' } as Omit<PlanningOrder, 'id'>);
      const byIds = await s.getOrdersByIds(company.id, [o1.id, o2.id, o3.id, theirs.id, 999_999]);
      expect(byIds.map((o) => o.id).sort((a, b) => a - b)).toEqual([o1.id, o2.id, o3.id]);
      const first = byIds.find((o) => o.id === o1.id)!;
      expect(first).toMatchObject({ companyId: company.id, externalId: 'X', status: 'new', address: 'B 2', lat: 52.5, lon: 13.4, weightKg: 12.5, volumeM3: 0.25, serviceTimeMin: 10, timeWindowStart: '09:00:00', timeWindowEnd: '11:00:00', deliveryDate: '2026-12-01' });
      expect(byIds.find((o) => o.id === o2.id)!.requiredFeatures).toEqual(['fridge']);
      expect(byIds.find((o) => o.id === o3.id)).toMatchObject({ externalId: null, lat: null, lon: null, timeWindowStart: null });
      const byExternal = await s.getOrdersByExternalIds(company.id, ['X', 'nope']);
      expect(byExternal.map((o) => o.id).sort((a, b) => a - b)).toEqual([o1.id, o2.id]);
    });

    it('vehicles, warehouses and the vehicles busy on a date', async () => {
      const { s, company, other, vehicle, warehouse, f } = await seeded();
      const v1 = await vehicle();
      const v2 = await vehicle({ active: false, shift: null, maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [] });
      const theirs = await f.addVehicle({ ...v1, companyId: other.id } as Omit<PlanningVehicle, 'id'>);
      expect((await s.getVehiclesByIds(company.id, [v1.id, v2.id, theirs.id])).map((v) => v.id).sort((a, b) => a - b)).toEqual([v1.id, v2.id]);
      const [got] = await s.getVehiclesByIds(company.id, [v1.id]);
      expect(got).toMatchObject({ name: 'Van', active: true, warehouseId: warehouse.id, capacityKg: 800, capacityM3: 6, shift: '08:00-18:00', maxDistanceKm: 150, maxDurationMin: 480, maxOrders: 30, features: ['fridge'] });
      expect((await s.getVehiclesByIds(company.id, [v2.id]))[0]).toMatchObject({ active: false, shift: null, maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [] });
      expect((await s.listActiveVehicles(company.id)).map((v) => v.id)).toEqual([v1.id]);
      // trips: stored and read back (a vehicle stored without them makes one trip)
      const v3 = await vehicle({ active: false, maxTrips: 3, reloadMin: 20 });
      expect((await s.getVehiclesByIds(company.id, [v3.id]))[0]).toMatchObject({ maxTrips: 3, reloadMin: 20 });
      expect([undefined, 1]).toContain((await s.getVehiclesByIds(company.id, [v1.id]))[0]!.maxTrips);
      expect(await s.getWarehousesByIds(company.id, [warehouse.id, 999_999])).toEqual([warehouse]);
      expect(await s.getWarehousesByIds(other.id, [warehouse.id])).toEqual([]);
      expect(await s.vehicleIdsWithRouteOn(company.id, '2026-12-01')).toEqual([]);
      await f.addRoute(company.id, v1.id, '2026-12-01');
      expect(await s.vehicleIdsWithRouteOn(company.id, '2026-12-01')).toEqual([v1.id]);
      expect(await s.vehicleIdsWithRouteOn(company.id, '2026-12-02')).toEqual([]);
      expect(await s.vehicleIdsWithRouteOn(other.id, '2026-12-01')).toEqual([]);
    });

    it('commitPlan writes routes, stops, in_route orders with history and the done job at once', async () => {
      const { s, f, company, vehicle, order, warehouse } = await seeded();
      const v = await vehicle();
      const o1 = await order({ externalId: 'A' });
      const o2 = await order({ externalId: 'B' });
      const o3 = await order({ externalId: 'C' });
      const job = await s.createJob(company.id, { order_ids: [o1.id, o2.id, o3.id], vehicle_ids: [], warehouse_id: null }, T0);
      await s.updateJob(job.id, { status: 'running' }, T1);
      const planned = route(company.id, job.id, v.id, warehouse.id, [o2, o1]);
      const { job: done, changes } = await commitPlan(s, { jobId: job.id, companyId: company.id, at: T2, routes: [planned], unassigned: [{ order_id: o3.id, reason: 'time_window' }], versions: await versionsOf(s, company.id, [o1, o2, o3]) });
      expect(done).toMatchObject({ id: job.id, status: 'done', error: '', updatedAt: T2 });
      expect(done.result!.summary).toEqual({ route_count: 1, unassigned_count: 1 });
      expect(done.result!.unassigned).toEqual([{ order_id: o3.id, reason: 'time_window' }]);
      expect(await s.getJob(company.id, job.id)).toEqual(done);
      expect(changes).toEqual([
        { order_id: o2.id, external_id: 'B', status: 'in_route', previous_status: 'new', at: T2 },
        { order_id: o1.id, external_id: 'A', status: 'in_route', previous_status: 'new', at: T2 },
      ]);
      const stored = (await f.readRoute(done.result!.route_ids[0]))!;
      expect(stored).toMatchObject({ ...planned, status: 'planned', stops: planned.stops.map((st) => ({ ...st, status: 'pending' })) });
      expect(await f.orderStatus(o1.id)).toBe('in_route');
      expect(await f.orderStatus(o3.id)).toBe('new');
      expect((await f.orderHistory(o1.id)).at(-1)).toEqual({ status: 'in_route', previous_status: 'new', at: T2 });
      expect(await s.vehicleIdsWithRouteOn(company.id, '2026-12-01')).toEqual([v.id]);
      expect(await s.listUnfinishedJobs()).toEqual([]);
    });

    it('commitPlan writes nothing when an order is no longer new', async () => {
      const { s, f, company, vehicle, order, warehouse } = await seeded();
      const v = await vehicle();
      const o1 = await order();
      const o2 = await order({ status: 'in_route' });
      const job = await s.createJob(company.id, { order_ids: [o1.id, o2.id], vehicle_ids: [], warehouse_id: null }, T0);
      const running = await s.updateJob(job.id, { status: 'running' }, T1);
      const attempt = (async () => commitPlan(s, { jobId: job.id, companyId: company.id, at: T2, routes: [route(company.id, job.id, v.id, warehouse.id, [o1, o2])], unassigned: [], versions: await versionsOf(s, company.id, [o1, o2]) }))();
      await expect(attempt).rejects.toBeInstanceOf(OrdersNotNewError);
      await attempt.catch((e: OrdersNotNewError) => expect(e.orders).toEqual([{ id: o2.id, status: 'in_route' }]));
      expect(await f.orderStatus(o1.id)).toBe('new');
      expect(await f.countRoutes(company.id)).toBe(0);
      expect(await s.getJob(company.id, job.id)).toEqual(running);
    });

    it('commitPlan writes nothing when a vehicle got a route on the date meanwhile', async () => {
      const { s, f, company, vehicle, order, warehouse } = await seeded();
      const v = await vehicle();
      const o1 = await order();
      const job = await s.createJob(company.id, { order_ids: [o1.id], vehicle_ids: [], warehouse_id: null }, T0);
      const running = await s.updateJob(job.id, { status: 'running' }, T1);
      await f.addRoute(company.id, v.id, '2026-12-01');
      const attempt = (async () => commitPlan(s, { jobId: job.id, companyId: company.id, at: T2, routes: [route(company.id, job.id, v.id, warehouse.id, [o1])], unassigned: [], versions: await versionsOf(s, company.id, [o1]) }))();
      await expect(attempt).rejects.toBeInstanceOf(VehicleBusyError);
      expect(await f.orderStatus(o1.id)).toBe('new');
      expect(await f.countRoutes(company.id)).toBe(1);
      expect(await s.getJob(company.id, job.id)).toEqual(running);
    });

    it('commitPlan writes nothing when a placed order changed since the job read it, and names it', async () => {
      const { s, f, company, vehicle, order, warehouse } = await seeded();
      const v = await vehicle();
      const o1 = await order({ externalId: 'A' });
      const o2 = await order({ externalId: 'B' });
      const job = await s.createJob(company.id, { order_ids: [o1.id, o2.id], vehicle_ids: [], warehouse_id: null }, T0);
      const running = await s.updateJob(job.id, { status: 'running' }, T1);
      const read = await versionsOf(s, company.id, [o1, o2]);
      await f.editOrder(company.id, o2.id, 'Moved 9');
      const stale = commitPlan(s, { jobId: job.id, companyId: company.id, at: T2, routes: [route(company.id, job.id, v.id, warehouse.id, [o1, o2])], unassigned: [], versions: read });
      await expect(stale).rejects.toEqual(new OrdersChangedError([o2.id]));
      expect(await f.orderStatus(o1.id)).toBe('new');
      expect(await f.countRoutes(company.id)).toBe(0);
      expect(await s.getJob(company.id, job.id)).toEqual(running);
      // an order the plan has no read version of counts as changed
      const unread = commitPlan(s, { jobId: job.id, companyId: company.id, at: T2, routes: [route(company.id, job.id, v.id, warehouse.id, [o1])], unassigned: [], versions: {} });
      await expect(unread).rejects.toEqual(new OrdersChangedError([o1.id]));
      // read again, the fresh plan lands
      const [fresh] = await s.getOrdersByIds(company.id, [o2.id]);
      expect(fresh!.address).toBe('Moved 9');
      const { job: done } = await commitPlan(s, { jobId: job.id, companyId: company.id, at: T2, routes: [route(company.id, job.id, v.id, warehouse.id, [o1, fresh!])], unassigned: [], versions: await versionsOf(s, company.id, [o1, o2]) });
      expect(done.status).toBe('done');
      expect((await f.readRoute(done.result!.route_ids[0]!))!.stops.map((st) => st.address)).toEqual(['A 1', 'B 2', 'Moved 9', 'A 1']);
    });

    it('a re-plan commit: fenced on the stops as read; kept stops keep their ids across routes, new ones are added, dropped ones go; orders back to new', async () => {
      const { s, f, company, vehicle, order, warehouse } = await seeded();
      const [v1, v2] = [await vehicle(), await vehicle()];
      const [o1, o2, o3, o4] = [await order({ externalId: 'A' }), await order({ externalId: 'B' }), await order({ externalId: 'C' }), await order({ externalId: 'D' })];
      const fresh = await order({ externalId: 'N' });
      const job = await s.createJob(company.id, { order_ids: [o1.id, o2.id, o3.id, o4.id], vehicle_ids: [], warehouse_id: null }, T0);
      await s.updateJob(job.id, { status: 'running' }, T1);
      const { job: done } = await commitPlan(s, {
        jobId: job.id, companyId: company.id, at: T1, unassigned: [],
        routes: [route(company.id, job.id, v1.id, warehouse.id, [o1, o2]), route(company.id, job.id, v2.id, warehouse.id, [o3, o4])],
        versions: await versionsOf(s, company.id, [o1, o2, o3, o4]),
      });
      const [r1, r2] = done.result!.route_ids;
      expect(await s.newOrderIdsOn(company.id, '2026-12-01')).toEqual([fresh.id]);
      const read = await s.openRoutesOn(company.id, '2026-12-01');
      expect(read.map((r) => r.id)).toEqual([r1, r2]);
      expect(read[0]!.stops.map((x) => x.orderId)).toEqual([null, o1.id, o2.id, null]);
      expect(read[0]!.stops.every((x) => x.status === 'pending')).toBe(true);
      const stopOf = (orderId: number) => read.flatMap((r) => r.stops).find((x) => x.orderId === orderId)!;
      const keep = (x: (typeof read)[number]['stops'][number], position: number, at: string) => ({
        id: x.id, position, stopType: x.stopType, orderId: x.orderId, orderExternalId: x.orderExternalId, warehouseId: x.warehouseId, address: x.address, lat: x.lat, lon: x.lon, plannedArrivalAt: at, plannedDepartureAt: at,
      });
      const [d1, e1] = [read[0]!.stops[0]!, read[0]!.stops[3]!];
      const [d2, e2] = [read[1]!.stops[0]!, read[1]!.stops[3]!];
      // route 1 takes o3 from route 2 (same stop id) and the new order; o2 leaves (back to new); route 2 keeps o4
      const rewrites = [
        { routeId: r1!, plannedMileageKm: 20, plannedDurationMin: 120, totalWeightKg: 37.5, totalVolumeM3: 0.75, breaks: [{ start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' }], stops: [
          keep(d1, 1, '2026-12-01T07:30:00Z'), keep(stopOf(o3.id), 2, '2026-12-01T08:05:00Z'), keep(stopOf(o1.id), 3, '2026-12-01T08:20:00Z'),
          { position: 4, stopType: 'order' as const, orderId: fresh.id, orderExternalId: 'N', warehouseId: null, address: 'B 2', lat: 52.5, lon: 13.4, plannedArrivalAt: '2026-12-01T08:40:00Z', plannedDepartureAt: '2026-12-01T08:50:00Z' },
          keep(e1, 5, '2026-12-01T09:30:00Z'),
        ] },
        { routeId: r2!, plannedMileageKm: 5, plannedDurationMin: 40, totalWeightKg: 12.5, totalVolumeM3: 0.25, breaks: [], stops: [keep(d2, 1, '2026-12-01T07:30:00Z'), keep(stopOf(o4.id), 2, '2026-12-01T08:00:00Z'), keep(e2, 3, '2026-12-01T08:40:00Z')] },
      ];
      const rejob = await s.createJob(company.id, { order_ids: [fresh.id], vehicle_ids: [], warehouse_id: null, replan: { date: '2026-12-01' } }, T1);
      await s.updateJob(rejob.id, { status: 'running' }, T1);
      const plan = {
        jobId: rejob.id, companyId: company.id, at: T2, date: '2026-12-01', read, rewrites, changed: [r1!, r2!], newRoutes: [], placed: [fresh.id],
        versions: await versionsOf(s, company.id, [fresh]), backToNew: [{ id: o2.id, externalId: 'B' }], unassigned: [{ order_id: o2.id, reason: 'capacity' as const }],
      };
      // the fence: a day read before a change (here a route added since) is refused, nothing written
      await expect(commitReplan(s, { ...plan, read: read.slice(0, 1) })).rejects.toBeInstanceOf(StopsChangedError);
      expect((await s.openRoutesOn(company.id, '2026-12-01'))[0]!.stops.map((x) => x.orderId)).toEqual([null, o1.id, o2.id, null]);
      const { job: after, changes } = await commitReplan(s, plan);
      expect(after.status).toBe('done');
      expect(after.result).toEqual({ route_ids: [r1, r2], summary: { route_count: 2, unassigned_count: 1 }, unassigned: [{ order_id: o2.id, reason: 'capacity' }] });
      expect(changes.map((c) => [c.order_id, c.status, c.previous_status])).toEqual([[fresh.id, 'in_route', 'new'], [o2.id, 'new', 'in_route']]);
      const now = await s.openRoutesOn(company.id, '2026-12-01');
      expect(now[0]!.stops.map((x) => x.orderId)).toEqual([null, o3.id, o1.id, fresh.id, null]);
      expect(now[0]!.stops.map((x) => x.position)).toEqual([1, 2, 3, 4, 5]);
      expect(now[0]!.stops[1]!.id).toBe(stopOf(o3.id).id);
      expect(now[0]!.stops[2]).toMatchObject({ id: stopOf(o1.id).id, plannedArrivalAt: '2026-12-01T08:20:00Z' });
      expect(now[0]!.breaks).toEqual([{ start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' }]);
      expect(now[1]!.stops.map((x) => x.orderId)).toEqual([null, o4.id, null]);
      expect(await f.orderStatus(o2.id)).toBe('new');
      expect(await f.orderStatus(fresh.id)).toBe('in_route');
      expect((await f.orderHistory(o2.id)).at(-1)).toMatchObject({ status: 'new', previous_status: 'in_route', at: T2 });
      expect(await s.newOrderIdsOn(company.id, '2026-12-01')).toEqual([o2.id]);
    });
  });
}
