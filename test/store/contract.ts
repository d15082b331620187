/**
 * The storage port's contract (src/store/port.ts), as a reusable suite: every repository method's
 * answers, transactions, and (when the adapter can open a second store on the same database, as a
 * second process would) what must hold across processes. The SQLite repositories are the
 * reference: the suite runs on SQLite too (contract-sqlite.test.ts) and on PostgreSQL
 * (postgres.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { commitPlan } from '../../src/jobs/commit.js';
import type { NewRoute } from '../../src/jobs/ports.js';
import type { Repositories, StorePort } from '../../src/store/port.js';
import type { Order, OrderFields } from '../../src/store/types.js';
import { PAUSE_AFTER_FAILING_MS } from '../../src/store/types.js';
import type { NewDelivery } from '../../src/store/types.js';

export interface StoreContractFixture {
  /** A store on an empty, migrated database. */
  store: StorePort;
  /** Another store on the same database (another process), when the adapter has such a thing. */
  another?: () => Promise<StorePort>;
}

const T0 = '2026-11-25T08:00:00.000Z';
const T1 = '2026-11-25T08:00:05.000Z';
const T2 = '2026-11-25T08:00:09.000Z';
const iso = (ms: number) => new Date(ms).toISOString();

export const orderFields = (over: Partial<OrderFields> = {}): OrderFields => ({
  name: 'Parcel', recipient: 'Ada', phone: '+49 30 1', address: 'Main 1', lat_e6: 52_520_000, lon_e6: 13_405_000,
  time_window_start: '09:00:00', time_window_end: '11:00:00', weight_g: 12_500, volume_l: 250, service_time: 10,
  notes: '', order_type: 'one_time', delivery_date: '2026-12-01', ...over,
});

/** `manyProcesses`: the fixture's `another` opens a second store (the cross-process part runs; else it is skipped). */
export function describeStoreContract(name: string, makeFixture: () => Promise<StoreContractFixture>, options: { manyProcesses?: boolean } = {}): void {
  async function seeded() {
    const f = await makeFixture();
    const s = f.store;
    const company = await s.companies.create({ name: 'Acme', timezone: 'Europe/Berlin' }, T0);
    const other = await s.companies.create({ name: 'Other', timezone: 'UTC' }, T0);
    const warehouse = await s.warehouses.create({ company_id: company.id, name: 'Mitte', address: 'A 1', lat: 52.52, lon: 13.405 }, T0);
    const vehicle = (over: Record<string, unknown> = {}) =>
      s.vehicles.create(
        { company_id: company.id, warehouse_id: warehouse.id, name: 'Van', capacity_kg: 800, capacity_m3: 6.5, shift_start: '08:00', shift_end: '17:00',
          max_distance_km: 150.5, max_duration_min: 480, max_orders: 30, features: ['fridge'], active: true, ...over },
        T0,
      );
    return { f, s, company, other, warehouse, vehicle };
  }

  /** A route with the given orders, through the planning port (the only writer of routes). */
  async function plannedRoute(s: StorePort, companyId: number, vehicleId: number, warehouseId: number, orderIds: number[], date = '2026-12-01') {
    const job = await s.planning.createJob(companyId, { order_ids: orderIds, vehicle_ids: [vehicleId], warehouse_id: null }, T0);
    const depot = (position: number, stopType: 'start_depot' | 'end_depot') => ({
      position, stopType, orderId: null, orderExternalId: null, warehouseId, address: 'A 1', lat: 52.52, lon: 13.405, plannedArrivalAt: T1, plannedDepartureAt: T1,
    });
    const route: NewRoute = {
      jobId: job.id, companyId, vehicleId, name: `${date} Van`, date, plannedMileageKm: 12.5, plannedDurationMin: 95, totalWeightKg: 1.5, totalVolumeM3: 0.25,
      stops: [
        depot(1, 'start_depot'),
        ...orderIds.map((id, i) => ({ position: i + 2, stopType: 'order' as const, orderId: id, orderExternalId: null, warehouseId: null, address: `Stop ${i}`, lat: 52.5, lon: 13.4, plannedArrivalAt: T1, plannedDepartureAt: T2 })),
        depot(orderIds.length + 2, 'end_depot'),
      ],
    };
    const { job: done } = await commitPlan(s.planning, { jobId: job.id, companyId, at: T1, routes: [route], unassigned: [], versions: Object.fromEntries((await s.planning.getOrdersByIds(companyId, orderIds)).map((o) => [o.id, o.version ?? 0])) });
    return done.result!.route_ids[0];
  }

  describe(`${name}: the storage port contract`, () => {
    it('companies: create, get, findByName (the oldest of a name)', async () => {
      const { s, company } = await seeded();
      expect(company).toEqual({ id: company.id, name: 'Acme', timezone: 'Europe/Berlin', speed_factor: 1, created_at: T0 });
      const again = await s.companies.create({ name: 'Acme', timezone: 'UTC' }, T1);
      expect(again.id).toBeGreaterThan(company.id);
      expect(await s.companies.get(company.id)).toEqual(company);
      expect(await s.companies.get(999_999)).toBeUndefined();
      expect(await s.companies.findByName('Acme')).toEqual(company);
      expect(await s.companies.findByName('nobody')).toBeUndefined();
    });

    it('companies: the speed factor, created and updated (the rest kept)', async () => {
      const { s, company } = await seeded();
      const rural = await s.companies.create({ name: 'Rural', timezone: 'UTC', speed_factor: 0.8 }, T1);
      expect(rural.speed_factor).toBe(0.8);
      expect(await s.companies.update(company.id, { speed_factor: 1.25 })).toEqual({ ...company, speed_factor: 1.25 });
      expect(await s.companies.update(company.id, { name: 'Acme Nord' })).toEqual({ ...company, name: 'Acme Nord', speed_factor: 1.25 });
      expect(await s.companies.get(rural.id)).toEqual(rural);
      expect(await s.companies.update(999_999, { speed_factor: 2 })).toBeUndefined();
    });

    it('api keys: shown once, authenticated by hash, listed, revoked', async () => {
      const { s, company, other } = await seeded();
      const { record, key } = await s.apiKeys.create({ company_id: company.id, scopes: ['orders:read', 'orders:write'], label: 'shop' }, T0);
      expect(key).toMatch(/^dpk_[A-Za-z0-9_-]{43}$/);
      expect(record).toEqual({ id: record.id, company_id: company.id, scopes: ['orders:read', 'orders:write'], label: 'shop', created_at: T0, revoked_at: null });
      const second = await s.apiKeys.create({ company_id: company.id, scopes: [] }, T1);
      await s.apiKeys.create({ company_id: other.id, scopes: ['routes:read'] }, T1);
      expect(second.record).toMatchObject({ scopes: [], label: '' });
      expect(await s.apiKeys.get(record.id)).toEqual(record);
      expect(await s.apiKeys.authenticate(key)).toEqual(record);
      expect(await s.apiKeys.authenticate(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
      expect(await s.apiKeys.authenticate('dpk_short')).toBeUndefined();
      expect(await s.apiKeys.authenticate('x'.repeat(300))).toBeUndefined();
      expect((await s.apiKeys.listForCompany(company.id)).map((k) => k.id)).toEqual([record.id, second.record.id]);
      const revoked = await s.apiKeys.revoke(record.id, T1);
      expect(revoked).toEqual({ ...record, revoked_at: T1 });
      expect(await s.apiKeys.revoke(record.id, T2)).toEqual({ ...record, revoked_at: T1 }); // the first revocation stands
      expect(await s.apiKeys.authenticate(key)).toBeUndefined();
      expect(await s.apiKeys.authenticate(second.key)).toEqual(second.record);
      expect(await s.apiKeys.revoke(999_999, T1)).toBeUndefined();
    });

    it('fleet: warehouses and vehicles, scoped by company, active or not', async () => {
      const { s, company, other, warehouse, vehicle } = await seeded();
      expect(warehouse).toEqual({ id: warehouse.id, company_id: company.id, name: 'Mitte', address: 'A 1', lat: 52.52, lon: 13.405, created_at: T0 });
      const w2 = await s.warehouses.create({ company_id: company.id, name: 'Nord', address: '', lat: -33.5, lon: 151.25 }, T1);
      expect(await s.warehouses.get(company.id, warehouse.id)).toEqual(warehouse);
      expect(await s.warehouses.get(other.id, warehouse.id)).toBeUndefined();
      expect((await s.warehouses.list(company.id)).map((w) => w.id)).toEqual([warehouse.id, w2.id]);
      expect(await s.warehouses.list(other.id)).toEqual([]);

      const v1 = await vehicle();
      expect(v1).toEqual({
        id: v1.id, company_id: company.id, warehouse_id: warehouse.id, name: 'Van', capacity_kg: 800, capacity_m3: 6.5, shift_start: '08:00', shift_end: '17:00',
        max_distance_km: 150.5, max_duration_min: 480, max_orders: 30, features: ['fridge'], active: true, created_at: T0, max_trips: 1, reload_min: 15, breaks: [],
      });
      const v2 = await vehicle({ name: 'Bike', shift_start: null, shift_end: null, max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: false });
      expect(v2).toMatchObject({ shift_start: null, max_distance_km: null, max_orders: null, features: [], active: false });
      const v3 = await vehicle({ name: 'Truck' });
      expect(await s.vehicles.get(company.id, v1.id)).toEqual(v1);
      expect(await s.vehicles.get(other.id, v1.id)).toBeUndefined();
      expect((await s.vehicles.list(company.id)).map((v) => v.id)).toEqual([v1.id, v3.id]);
      expect((await s.vehicles.list(company.id, { includeInactive: true })).map((v) => v.id)).toEqual([v1.id, v2.id, v3.id]);
      // in the order asked, active ones of the company only
      expect((await s.vehicles.findActive(company.id, [v3.id, v2.id, v1.id, 999_999])).map((v) => v.id)).toEqual([v3.id, v1.id]);
      expect(await s.vehicles.findActive(other.id, [v1.id])).toEqual([]);
      expect(await s.vehicles.setActive(company.id, v1.id, false)).toEqual({ ...v1, active: false });
      // trips (issue 17): stored and read back
      const reloader = await vehicle({ name: 'Reloader', max_trips: 3, reload_min: 20 });
      expect(await s.vehicles.get(company.id, reloader.id)).toMatchObject({ max_trips: 3, reload_min: 20 });
      expect(await s.vehicles.setActive(other.id, v2.id, true)).toBeUndefined();
      expect((await s.vehicles.get(company.id, v2.id))!.active).toBe(false);
    });

    it('orders: insert with its first history entry, get, scoping, external ids (oldest first), ids in the order asked', async () => {
      const { s, company, other } = await seeded();
      const o1 = await s.orders.insert(company.id, 'EXT-1', orderFields(), T0);
      expect(o1).toMatchObject({ ...orderFields(), id: o1.id, company_id: company.id, external_id: 'EXT-1', status: 'new', created_at: T0, updated_at: T0 });
      expect(await s.orders.history(o1.id)).toEqual([{ id: expect.any(Number), order_id: o1.id, status: 'new', previous_status: null, at: T0 }]);
      const dup = await s.orders.insert(company.id, 'EXT-1', orderFields({ name: 'dup' }), T1);
      const none = await s.orders.insert(company.id, null, orderFields({ lat_e6: null, lon_e6: null, time_window_start: null, time_window_end: null }), T1);
      const theirs = await s.orders.insert(other.id, 'EXT-1', orderFields(), T1);
      expect(none).toMatchObject({ external_id: null, lat_e6: null, lon_e6: null, time_window_start: null });
      expect(await s.orders.get(company.id, o1.id)).toEqual(o1);
      expect(await s.orders.get(other.id, o1.id)).toBeUndefined();
      expect(await s.orders.get(company.id, 2 ** 63)).toBeUndefined();
      expect(await s.orders.get(company.id, 1.5)).toBeUndefined();
      expect(await s.orders.findByExternalId(company.id, 'EXT-1')).toEqual(o1);
      expect(await s.orders.findByExternalId(other.id, 'EXT-1')).toEqual(theirs);
      expect(await s.orders.findByExternalId(company.id, 'nope')).toBeUndefined();
      expect((await s.orders.findByIds(company.id, [none.id, theirs.id, o1.id, 999_999])).map((o) => o.id)).toEqual([none.id, o1.id]);
      const byExt = await s.orders.findByExternalIds(company.id, ['EXT-1', 'nope']);
      expect([...byExt.keys()]).toEqual(['EXT-1', 'nope']);
      expect(byExt.get('EXT-1')!.map((o) => o.id)).toEqual([o1.id, dup.id]);
      expect(byExt.get('nope')).toEqual([]);
      expect((await s.orders.findByExternalIds(company.id, [])).size).toBe(0);
    });

    it('orders: list newest first with filters, a count of the filtered set, and pages', async () => {
      const { s, company, other } = await seeded();
      const ids: number[] = [];
      for (let i = 0; i < 7; i++) ids.push((await s.orders.insert(company.id, i % 2 === 0 ? 'EVEN' : `ODD-${i}`, orderFields(), T0)).id);
      await s.orders.insert(other.id, 'EVEN', orderFields(), T0);
      await s.orders.transition(company.id, ids[1], ['new'], 'archived', T1);
      await s.orders.transition(company.id, ids[4], ['new'], 'archived', T1);
      const all = await s.orders.list(company.id, { limit: 100, offset: 0 });
      expect(all.count).toBe(7);
      expect(all.rows.map((o) => o.id)).toEqual([...ids].reverse());
      const page = await s.orders.list(company.id, { limit: 2, offset: 2 });
      expect(page).toMatchObject({ count: 7 });
      expect(page.rows.map((o) => o.id)).toEqual([ids[4], ids[3]]);
      const beyond = await s.orders.list(company.id, { limit: 10, offset: 50 });
      expect(beyond).toEqual({ count: 7, rows: [] });
      const archived = await s.orders.list(company.id, { status: 'archived', limit: 100, offset: 0 });
      expect(archived.count).toBe(2);
      expect(archived.rows.map((o) => o.id)).toEqual([ids[4], ids[1]]);
      expect((await s.orders.list(company.id, { status: 'new', limit: 1, offset: 0 })).count).toBe(5);
      expect((await s.orders.list(company.id, { status: 'visited', limit: 1, offset: 0 })).count).toBe(0);
      const even = await s.orders.list(company.id, { external_id: 'EVEN', limit: 100, offset: 0 });
      expect(even.count).toBe(4);
      expect(even.rows.map((o) => o.id)).toEqual([ids[6], ids[4], ids[2], ids[0]]);
      const evenNew = await s.orders.list(company.id, { external_id: 'EVEN', status: 'new', limit: 100, offset: 0 });
      expect(evenNew.rows.map((o) => o.id)).toEqual([ids[6], ids[2], ids[0]]);
      expect(evenNew.count).toBe(3);
      expect(await s.orders.list(999_999, { limit: 10, offset: 0 })).toEqual({ count: 0, rows: [] });
    });

    it('orders: update writes the given fields only; transition guards the status and appends history; applyGeocode only on a new order with that address', async () => {
      const { s, company, other } = await seeded();
      const o = await s.orders.insert(company.id, 'E', orderFields({ lat_e6: null, lon_e6: null }), T0);
      const updated = await s.orders.update(company.id, o.id, { name: 'Renamed', weight_g: 1, time_window_start: null, notes: "it's 'quoted'; DROP TABLE orders" }, T1);
      expect(updated).toEqual({ ...o, name: 'Renamed', weight_g: 1, time_window_start: null, notes: "it's 'quoted'; DROP TABLE orders", updated_at: T1, version: 1 });
      expect(o.version).toBe(0); // every write adds one (a plan commits over the versions it read)
      expect(await s.orders.update(company.id, o.id, {}, T2)).toEqual(updated); // nothing to change: updated_at stays
      expect(await s.orders.update(other.id, o.id, { name: 'x' }, T2)).toBeUndefined();
      expect((await s.orders.get(company.id, o.id))!.name).toBe('Renamed');

      expect(await s.orders.transition(other.id, o.id, ['new'], 'archived', T1)).toBeUndefined();
      expect(await s.orders.transition(company.id, 999_999, ['new'], 'archived', T1)).toBeUndefined();
      const blocked = await s.orders.transition(company.id, o.id, ['in_route'], 'visited', T1);
      expect(blocked).toEqual({ order: updated, changed: false, previous: 'new' });
      const moved = await s.orders.transition(company.id, o.id, ['new', 'in_route'], 'archived', T2);
      expect(moved).toEqual({ order: { ...updated, status: 'archived', updated_at: T2, version: 2 }, changed: true, previous: 'new' });
      expect((await s.orders.history(o.id)).map(({ status, previous_status, at }) => ({ status, previous_status, at }))).toEqual([
        { status: 'new', previous_status: null, at: T0 },
        { status: 'archived', previous_status: 'new', at: T2 },
      ]);
      expect(await s.orders.history(999_999)).toEqual([]);

      const g = await s.orders.insert(company.id, null, orderFields({ lat_e6: null, lon_e6: null, address: 'Geo 1' }), T0);
      expect(await s.orders.applyGeocode(g.id, 'Other 2', 1, 2, T1)).toBe(false); // the address changed meanwhile
      expect(await s.orders.applyGeocode(g.id, 'Geo 1', 52_000_001, -13_000_002, T1)).toBe(true);
      expect(await s.orders.get(company.id, g.id)).toMatchObject({ lat_e6: 52_000_001, lon_e6: -13_000_002, updated_at: T1, version: 1 });
      expect(await s.orders.applyGeocode(o.id, 'Main 1', 1, 2, T2)).toBe(false); // archived: not new any more
    });

    it('orders: countOpen counts new and in_route, exact, through inserts and every status move (the open-orders quota)', async () => {
      const { s, company, other } = await seeded();
      expect(await s.orders.countOpen(company.id)).toBe(0);
      const made: Order[] = [];
      for (let i = 0; i < 4; i++) made.push(await s.orders.insert(company.id, null, orderFields(), T0));
      await s.orders.insert(other.id, null, orderFields(), T0);
      expect(await s.orders.countOpen(company.id)).toBe(4);
      await s.orders.transition(company.id, made[0].id, ['new'], 'in_route', T1); // still open
      expect(await s.orders.countOpen(company.id)).toBe(4);
      await s.orders.transition(company.id, made[0].id, ['in_route'], 'confirmed', T1);
      await s.orders.transition(company.id, made[1].id, ['new'], 'archived', T1);
      await s.orders.transition(company.id, made[2].id, ['in_route'], 'confirmed', T1); // refused: not in_route
      expect(await s.orders.countOpen(company.id)).toBe(2);
      await s.transaction(async (tx) => {
        await tx.orders.insert(company.id, null, orderFields(), T1);
        await tx.orders.transition(company.id, made[3].id, ['new'], 'archived', T1);
      });
      expect(await s.orders.countOpen(company.id)).toBe(2);
      await s.transaction(async (tx) => {
        await tx.orders.insert(company.id, null, orderFields(), T1);
        throw new Error('rolled back');
      }).catch(() => {});
      expect(await s.orders.countOpen(company.id)).toBe(2);
      expect(await s.orders.countOpen(other.id)).toBe(1);
    });

    it('routes and stops: get, list with filters and pages, stops in position order, getStop scoped, progress', async () => {
      const { s, company, other, warehouse, vehicle } = await seeded();
      const v1 = await vehicle();
      const v2 = await vehicle({ name: 'Two' });
      const orders = [];
      for (let i = 0; i < 3; i++) orders.push(await s.orders.insert(company.id, `R-${i}`, orderFields(), T0));
      const r1 = await plannedRoute(s, company.id, v1.id, warehouse.id, [orders[0].id, orders[1].id]);
      const r2 = await plannedRoute(s, company.id, v2.id, warehouse.id, [orders[2].id], '2026-12-02');
      const route = (await s.routes.get(company.id, r1))!;
      expect(route).toEqual({
        id: r1, company_id: company.id, job_id: expect.any(Number), vehicle_id: v1.id, assigned_vehicle_id: null, vehicle_assigned_at: null,
        name: '2026-12-01 Van', date: '2026-12-01', status: 'planned', planned_mileage_km: 12.5, planned_duration_min: 95, total_weight_kg: 1.5,
        total_volume_m3: 0.25, actual_start_at: null, actual_end_at: null, created_at: T1, updated_at: T1, breaks: '[]',
      });
      expect(await s.routes.get(other.id, r1)).toBeUndefined();
      expect(await s.routes.get(company.id, 2 ** 60)).toBeUndefined();
      expect((await s.routes.list(company.id, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual([r2, r1]);
      expect(await s.routes.list(company.id, { limit: 1, offset: 1 })).toMatchObject({ count: 2, rows: [{ id: r1 }] });
      expect(await s.routes.list(company.id, { date: '2026-12-02', limit: 10, offset: 0 })).toMatchObject({ count: 1, rows: [{ id: r2 }] });
      expect(await s.routes.list(company.id, { status: 'active', limit: 10, offset: 0 })).toEqual({ count: 0, rows: [] });
      expect(await s.routes.list(other.id, { limit: 10, offset: 0 })).toEqual({ count: 0, rows: [] });

      const stops = await s.routes.stops(r1);
      expect(stops.map((st) => [st.position, st.stop_type, st.order_id, st.status])).toEqual([
        [1, 'start_depot', null, 'pending'],
        [2, 'order', orders[0].id, 'pending'],
        [3, 'order', orders[1].id, 'pending'],
        [4, 'end_depot', null, 'pending'],
      ]);
      expect(stops[1]).toEqual({
        id: stops[1].id, route_id: r1, position: 2, stop_type: 'order', status: 'pending', order_id: orders[0].id, order_external_id: null, warehouse_id: null,
        address: 'Stop 0', lat: 52.5, lon: 13.4, planned_arrival_at: T1, planned_departure_at: T2, actual_arrival_at: null, actual_departure_at: null,
      });
      expect(stops[0]).toMatchObject({ warehouse_id: warehouse.id, lat: 52.52, lon: 13.405 });
      expect(await s.routes.getStop(company.id, stops[1].id)).toEqual({ stop: stops[1], route });
      expect(await s.routes.getStop(other.id, stops[1].id)).toBeUndefined();
      expect(await s.routes.getStop(company.id, 999_999)).toBeUndefined();

      expect(await s.routes.progress(r1)).toEqual({ total: 2, completed: 0 });
      expect(await s.routes.openOrderStops(r1)).toBe(2);
      await s.routes.updateStop(stops[1].id, { status: 'confirmed', actual_arrival_at: T1, actual_departure_at: T2 });
      expect((await s.routes.stops(r1))[1]).toMatchObject({ status: 'confirmed', actual_arrival_at: T1, actual_departure_at: T2 });
      await s.routes.updateStop(stops[2].id, { status: 'in_progress', actual_arrival_at: T1, actual_departure_at: null });
      expect(await s.routes.progress(r1)).toEqual({ total: 2, completed: 1 });
      expect(await s.routes.openOrderStops(r1)).toBe(1);
      expect(await s.routes.progress(999_999)).toEqual({ total: 0, completed: 0 });
    });

    it('routes: vehicle holding, planned vehicle moves, assignment, status with stamps', async () => {
      const { s, company, warehouse, vehicle } = await seeded();
      const v1 = await vehicle();
      const v2 = await vehicle({ name: 'Two' });
      const o = await s.orders.insert(company.id, null, orderFields(), T0);
      const r1 = await plannedRoute(s, company.id, v1.id, warehouse.id, [o.id]);
      const r2 = await plannedRoute(s, company.id, v2.id, warehouse.id, []);
      expect((await s.routes.routeHoldingVehicle(company.id, v1.id, '2026-12-01', r2))!.id).toBe(r1);
      expect(await s.routes.routeHoldingVehicle(company.id, v1.id, '2026-12-01', r1)).toBeUndefined();
      expect(await s.routes.routeHoldingVehicle(company.id, v1.id, '2026-12-02', r2)).toBeUndefined();

      await s.routes.setPlannedVehicle(r1, null, T1);
      expect(await s.routes.get(company.id, r1)).toMatchObject({ vehicle_id: null, updated_at: T1 });
      expect(await s.routes.routeHoldingVehicle(company.id, v1.id, '2026-12-01', r2)).toBeUndefined();
      await s.routes.assignVehicle(r1, v1.id, T2);
      expect(await s.routes.get(company.id, r1)).toMatchObject({ vehicle_id: v1.id, assigned_vehicle_id: v1.id, vehicle_assigned_at: T2, updated_at: T2 });
      await s.routes.setPlannedVehicle(r1, v2.id, T2); // assigned by a dispatcher: planning does not move it
      expect((await s.routes.get(company.id, r1))!.vehicle_id).toBe(v1.id);

      await s.routes.setStatus(r1, 'active', T1, { actual_start_at: T1 });
      expect(await s.routes.get(company.id, r1)).toMatchObject({ status: 'active', actual_start_at: T1, actual_end_at: null, updated_at: T1 });
      await s.routes.setStatus(r1, 'completed', T2, { actual_end_at: T2 });
      expect(await s.routes.get(company.id, r1)).toMatchObject({ status: 'completed', actual_start_at: T1, actual_end_at: T2, updated_at: T2 });
      await s.routes.setStatus(r2, 'cancelled', T2);
      expect(await s.routes.get(company.id, r2)).toMatchObject({ status: 'cancelled', actual_start_at: null });
      // a cancelled route holds no vehicle
      expect(await s.routes.routeHoldingVehicle(company.id, v2.id, '2026-12-01', r1)).toBeUndefined();
    });

    it('positions: added in order, the latest by device time (since, not after), pruned in batches by arrival', async () => {
      const { s, company, other, vehicle } = await seeded();
      const v = await vehicle();
      const p = (timestamp: string, lat = 52.5) => ({ lat, lon: 13.4, timestamp, speed_kmh: 30.5, heading_deg: 270 });
      const first = await s.routes.addPositions(company.id, v.id, [p(T1, 1), p(T0, 2), p(T1, 3)], T1);
      expect(first.map((r) => r.lat)).toEqual([1, 2, 3]);
      expect(first[0]).toEqual({ id: first[0].id, company_id: company.id, vehicle_id: v.id, lat: 1, lon: 13.4, timestamp: T1, speed_kmh: 30.5, heading_deg: 270, received_at: T1 });
      expect(first[1].id).toBeGreaterThan(first[0].id);
      expect(first[2].id).toBeGreaterThan(first[1].id);
      expect(await s.routes.addPositions(company.id, v.id, [], T1)).toEqual([]);
      // the latest device time wins; on a tie, the later arrival
      expect((await s.routes.lastPosition(company.id, v.id))!.lat).toBe(3);
      expect(await s.routes.lastPosition(other.id, v.id)).toBeUndefined();
      const future = await s.routes.addPositions(company.id, v.id, [p('2027-01-01T00:00:00.000Z', 9)], T2);
      expect((await s.routes.lastPosition(company.id, v.id))!.lat).toBe(9);
      expect((await s.routes.lastPosition(company.id, v.id, '', T2))!.lat).toBe(3); // not after now + skew
      expect((await s.routes.lastPosition(company.id, v.id, T2))!.id).toBe(future[0].id); // received since T2
      expect(await s.routes.lastPosition(company.id, v.id, '2026-11-26T00:00:00.000Z')).toBeUndefined();

      expect(await s.routes.prunePositions(T2, 2)).toBe(2);
      expect(await s.routes.prunePositions(T2, 2)).toBe(1);
      expect(await s.routes.prunePositions(T2, 2)).toBe(0);
      expect((await s.routes.lastPosition(company.id, v.id))!.id).toBe(future[0].id);
    });

    it('webhook subscriptions: create, list, events, secrets, disable, pause after 24 h of failures', async () => {
      const { s, company, other } = await seeded();
      const sub = await s.webhooks.create({ company_id: company.id, url: 'https://example.test/hook', events: ['planning_job.finished'] }, T0);
      expect(sub).toEqual({ id: sub.id, company_id: company.id, url: 'https://example.test/hook', events: ['planning_job.finished'], secret: expect.stringMatching(/^[0-9a-f]{64}$/), active: true, created_at: T0 });
      const both = await s.webhooks.create({ company_id: company.id, url: 'https://example.test/2', events: ['planning_job.finished', 'order.status_changed'] }, T1);
      await s.webhooks.create({ company_id: other.id, url: 'https://example.test/3', events: ['order.status_changed'] }, T1);
      expect(await s.webhooks.get(sub.id)).toEqual(sub);
      expect(await s.webhooks.get(999_999)).toBeUndefined();
      expect((await s.webhooks.listForCompany(company.id)).map((w) => w.id)).toEqual([sub.id, both.id]);
      expect((await s.webhooks.forEvent(company.id, 'planning_job.finished')).map((w) => w.id)).toEqual([sub.id, both.id]);
      expect((await s.webhooks.forEvent(company.id, 'order.status_changed')).map((w) => w.id)).toEqual([both.id]);
      const rotated = (await s.webhooks.rotateSecret(sub.id))!;
      expect(rotated.secret).not.toBe(sub.secret);
      expect(rotated).toEqual({ ...sub, secret: rotated.secret });
      expect(await s.webhooks.inactiveIds()).toEqual(new Set());

      const t0 = Date.parse(T0);
      expect(await s.webhooks.recordOutcome(sub.id, false, t0)).toBe(false);
      expect(await s.webhooks.recordOutcome(sub.id, false, t0 + PAUSE_AFTER_FAILING_MS - 1)).toBe(false);
      expect(await s.webhooks.recordOutcome(sub.id, true, t0 + PAUSE_AFTER_FAILING_MS - 1)).toBe(false);
      expect(await s.webhooks.recordOutcome(sub.id, false, t0 + PAUSE_AFTER_FAILING_MS)).toBe(false);
      expect(await s.webhooks.recordOutcome(sub.id, false, t0 + 2 * PAUSE_AFTER_FAILING_MS - 1)).toBe(false);
      expect(await s.webhooks.recordOutcome(sub.id, false, t0 + 2 * PAUSE_AFTER_FAILING_MS)).toBe(true);
      expect(await s.webhooks.recordOutcome(sub.id, false, t0 + 3 * PAUSE_AFTER_FAILING_MS)).toBe(false); // paused already
      expect(await s.webhooks.recordOutcome(999_999, false, t0)).toBe(false);
      expect(await s.webhooks.inactiveIds()).toEqual(new Set([sub.id]));
      expect((await s.webhooks.get(sub.id))!.active).toBe(false);
      // paused, not disabled: still takes new deliveries
      expect((await s.webhooks.forEvent(company.id, 'planning_job.finished')).map((w) => w.id)).toEqual([sub.id, both.id]);
      expect((await s.webhooks.setActive(sub.id, true))!.active).toBe(true);
      expect(await s.webhooks.recordOutcome(sub.id, false, t0 + 4 * PAUSE_AFTER_FAILING_MS)).toBe(false); // a clean streak
      expect((await s.webhooks.setActive(sub.id, false))!.active).toBe(false);
      expect((await s.webhooks.forEvent(company.id, 'planning_job.finished')).map((w) => w.id)).toEqual([both.id]);
      expect(await s.webhooks.setActive(999_999, true)).toBeUndefined();
    });

    it('geocoding queue: enqueue replaces, companies take turns, leases, retries, removal', async () => {
      const { s, company, other } = await seeded();
      const a = [];
      for (let i = 0; i < 3; i++) a.push(await s.orders.insert(company.id, null, orderFields({ lat_e6: null, lon_e6: null, address: `A ${i}` }), T0));
      const b = await s.orders.insert(other.id, null, orderFields({ lat_e6: null, lon_e6: null, address: 'B 0' }), T0);
      for (const o of a) await s.geocodeQueue.enqueue(o.id, o.address, T0);
      await s.geocodeQueue.enqueue(b.id, 'B 0', T1);
      await s.geocodeQueue.enqueue(a[2].id, 'A 2 new', T0); // replaces the order's earlier task
      expect(await s.geocodeQueue.count()).toBe(4);
      const pending = await s.geocodeQueue.pending();
      expect(pending.map((t) => [t.order_id, t.address])).toEqual([[a[0].id, 'A 0'], [a[1].id, 'A 1'], [b.id, 'B 0'], [a[2].id, 'A 2 new']]);
      expect(pending[0]).toMatchObject({ attempts: 0, next_attempt_at: T0, last_error: '', created_at: T0 });

      // turns: each company's oldest first, then each one's second
      const due = await s.geocodeQueue.due(T2, 10);
      expect(due.map((t) => t.order_id)).toEqual([a[0].id, b.id, a[1].id, a[2].id]);
      expect(due[0]).toEqual({ id: pending[0].id, order_id: a[0].id, address: 'A 0', attempts: 0, next_attempt_at: T0, last_error: '', created_at: T0 });
      expect((await s.geocodeQueue.due(T0, 10)).map((t) => t.order_id)).toEqual([a[0].id, a[1].id, a[2].id]); // b not due yet
      expect(await s.geocodeQueue.due(T2, 2)).toHaveLength(2);

      // leases: claimed tasks are the owner's until the lease ends; the owner gets its own again
      const until = '2026-11-25T08:01:00.000Z';
      const claimed = await s.geocodeQueue.due(T2, 2, { owner: 'p1', until });
      expect(claimed.map((t) => t.order_id)).toEqual([a[0].id, b.id]);
      expect(await s.geocodeQueue.leaseOwner(claimed[0].id)).toBe('p1');
      expect(await s.geocodeQueue.leaseOwner(999_999)).toBeNull();
      expect((await s.geocodeQueue.due(T2, 10, { owner: 'p2', until })).map((t) => t.order_id)).toEqual([a[1].id, a[2].id]);
      expect(await s.geocodeQueue.due(T2, 10, { owner: 'p3', until })).toEqual([]);
      expect((await s.geocodeQueue.due(T2, 10, { owner: 'p1', until })).map((t) => t.order_id)).toEqual([a[0].id, b.id]);
      expect(await s.geocodeQueue.nextDueAt(T2)).toBe(until); // every due task leased: the first lease end
      // after the leases end, anyone
      expect(await s.geocodeQueue.due(until, 10, { owner: 'p3', until: '2026-11-25T09:00:00.000Z' })).toHaveLength(4);
      await s.geocodeQueue.releaseAll('p3');
      expect(await s.geocodeQueue.leaseOwner(claimed[0].id)).toBeNull();

      await s.geocodeQueue.retryLater(claimed[0].id, '2026-11-25T10:00:00.000Z', 'x'.repeat(600));
      const retried = (await s.geocodeQueue.get(claimed[0].id))!;
      expect(retried).toMatchObject({ attempts: 1, next_attempt_at: '2026-11-25T10:00:00.000Z', last_error: 'x'.repeat(500) });
      expect((await s.geocodeQueue.due(T2, 10)).map((t) => t.order_id)).toEqual([a[1].id, b.id, a[2].id]); // turn 1: A's oldest (T0), B's (T1)
      await s.geocodeQueue.remove(claimed[1].id);
      await s.geocodeQueue.cancelForOrder(a[1].id);
      await s.geocodeQueue.cancelForOrder(a[2].id);
      expect(await s.geocodeQueue.count()).toBe(1);
      expect(await s.geocodeQueue.nextDueAt(T2)).toBe('2026-11-25T10:00:00.000Z');
      await s.geocodeQueue.remove(claimed[0].id);
      expect(await s.geocodeQueue.get(claimed[0].id)).toBeUndefined();
      expect(await s.geocodeQueue.nextDueAt(T2)).toBeUndefined();
      expect(await s.geocodeQueue.due(T2, 10)).toEqual([]);
    });

    it('webhook outbox: due oldest first, per subscription, paused and skipped left out; outcomes; leases', async () => {
      const { s } = await seeded();
      const t = Date.parse(T0);
      const d = (id: string, subscriptionId: number, createdAt: number): NewDelivery => ({
        id, subscriptionId, url: `https://example.test/${subscriptionId}`, secret: 's', event: 'order.status_changed', body: `{"id":"${id}"}`, createdAt,
      });
      await s.outbox.add([d('a1', 1, t), d('a2', 1, t + 1), d('a3', 1, t + 2), d('b1', 2, t + 3), d('c1', 3, t + 4)]);
      await s.outbox.add([]);
      expect(await s.outbox.get('a1')).toEqual({
        id: 'a1', subscriptionId: 1, url: 'https://example.test/1', secret: 's', event: 'order.status_changed', body: '{"id":"a1"}', status: 'pending',
        attempts: 0, nextAttemptAt: t, lastError: '', createdAt: t, deliveredAt: null,
      });
      expect(await s.outbox.get('nope')).toBeUndefined();
      const ids = async (now: number, limit: number, skip: string[] = [], options = {}) => (await s.outbox.due(now, limit, new Set(skip), options)).map((x) => x.id);
      expect(await ids(t + 10, 10)).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
      expect(await ids(t + 1, 10)).toEqual(['a1', 'a2']);
      expect(await ids(t + 10, 2)).toEqual(['a1', 'a2']);
      expect(await ids(t + 10, 10, [], { perSubscription: 1 })).toEqual(['a1', 'b1', 'c1']);
      expect(await ids(t + 10, 10, ['a1'], { perSubscription: 2 })).toEqual(['a2', 'b1', 'c1']); // in flight here: counts, left out
      expect(await ids(t + 10, 10, [], { paused: new Set([1, 3]) })).toEqual(['b1']);
      expect(await s.outbox.nextDue()).toBe(t);
      expect(await s.outbox.nextDue(new Set([1]), t)).toBe(t + 3);

      // outcomes
      expect(await s.outbox.delivered('a1', 1, t + 20)).toBe(true);
      expect(await s.outbox.get('a1')).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: t + 20, lastError: '' });
      expect(await s.outbox.retryLater('a2', 1, t + 5_000, 'HTTP 500')).toBe(true);
      expect(await s.outbox.get('a2')).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: t + 5_000, lastError: 'HTTP 500' });
      expect(await s.outbox.giveUp('c1', 11, 'gone')).toBe(true);
      expect(await s.outbox.get('c1')).toMatchObject({ status: 'failed', attempts: 11, lastError: 'gone', deliveredAt: null });
      expect(await s.outbox.delivered('nope', 1, t)).toBe(false);
      expect(await ids(t + 10, 10)).toEqual(['a3', 'b1']);
      expect(await s.outbox.nextDue(new Set(), t + 10)).toBe(t + 2);
      expect((await s.outbox.list()).map((x) => x.id)).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);

      // leases: claimed for one owner; another sees them in flight (they take the subscription's places)
      const now = t + 10;
      const lease = (owner: string) => ({ owner, until: now + 30_000 });
      expect(await ids(now, 10, [], { perSubscription: 1, lease: lease('p1') })).toEqual(['a3', 'b1']);
      expect(await ids(now, 10, [], { perSubscription: 1, lease: lease('p2') })).toEqual([]);
      expect(await ids(now + 6_000, 10, [], { perSubscription: 2, lease: lease('p2') })).toEqual(['a2']); // a2 due again; a3 takes the other place
      expect(await ids(now, 10, [], { perSubscription: 1, lease: lease('p1') })).toEqual(['a3', 'b1']); // the owner's own, again
      expect(await s.outbox.nextDue(new Set(), now)).toBe(now + 30_000); // in flight: due again when the lease ends
      // only the holder's outcome lands
      expect(await s.outbox.delivered('a3', 1, now, 'p2')).toBe(false);
      expect(await s.outbox.get('a3')).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await s.outbox.delivered('a3', 1, now, 'p1')).toBe(true);
      expect(await s.outbox.retryLater('b1', 1, now + 1, 'x', 'p2')).toBe(false);
      expect(await s.outbox.giveUp('b1', 1, 'x', 'p2')).toBe(false);
      await s.outbox.release('b1', 'p2'); // not the holder: nothing
      expect(await ids(now, 10, [], { lease: lease('p3') })).toEqual([]);
      await s.outbox.release('b1', 'p1');
      expect(await ids(now, 10, [], { lease: lease('p3') })).toEqual(['b1']);
      // a dead holder's lease runs out: another owner takes the delivery, with the same id
      expect(await ids(now + 30_001, 10, [], { lease: { owner: 'p4', until: now + 60_000 } })).toEqual(['b1', 'a2']); // by next try: b1 (t + 3), a2 (t + 5 s)
      expect(await s.outbox.retryLater('b1', 1, now + 1, 'x', 'p3')).toBe(false);
      expect(await s.outbox.retryLater('b1', 1, now + 70_000, 'HTTP 502', 'p4')).toBe(true);
      expect(await s.outbox.get('b1')).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 502' });
    });

    it('transactions: one commits all its writes at once; one that throws leaves nothing', async () => {
      const { s, company } = await seeded();
      const result = await s.transaction(async (tx: Repositories) => {
        const o = await tx.orders.insert(company.id, 'TX-1', orderFields(), T0);
        await tx.geocodeQueue.enqueue(o.id, o.address, T0);
        await tx.orders.transition(company.id, o.id, ['new'], 'archived', T1);
        await tx.outbox.add([{ id: 'tx-d1', subscriptionId: 1, url: 'u', secret: 's', event: 'e', body: '{}', createdAt: 1 }]);
        return o.id;
      });
      expect((await s.orders.get(company.id, result))!.status).toBe('archived');
      expect(await s.geocodeQueue.count()).toBe(1);
      expect(await s.outbox.get('tx-d1')).toBeDefined();

      const failing = s.transaction(async (tx) => {
        const o = await tx.orders.insert(company.id, 'TX-2', orderFields(), T0);
        await tx.geocodeQueue.enqueue(o.id, o.address, T0);
        await tx.outbox.add([{ id: 'tx-d2', subscriptionId: 1, url: 'u', secret: 's', event: 'e', body: '{}', createdAt: 1 }]);
        await tx.orders.transition(company.id, result, ['archived'], 'new', T1);
        await tx.webhooks.create({ company_id: company.id, url: 'https://x.test', events: ['order.status_changed'] }, T0);
        throw new Error('rolled back');
      });
      await expect(failing).rejects.toThrow('rolled back');
      expect(await s.orders.findByExternalId(company.id, 'TX-2')).toBeUndefined();
      expect((await s.orders.get(company.id, result))!.status).toBe('archived');
      expect((await s.orders.history(result)).length).toBe(2);
      expect(await s.geocodeQueue.count()).toBe(1);
      expect(await s.outbox.get('tx-d2')).toBeUndefined();
      expect(await s.webhooks.listForCompany(company.id)).toEqual([]);
      expect(await s.orders.list(company.id, { limit: 10, offset: 0 })).toMatchObject({ count: 1 });
      // the store works on after a rollback
      expect((await s.orders.insert(company.id, 'TX-3', orderFields(), T0)).external_id).toBe('TX-3');
    });

    describe.skipIf(!options.manyProcesses)('across processes (a second store on the same database)', () => {
      it('two concurrent transactions creating one external_id (look up, then insert) make one order', async () => {
        const { f, s, company } = await seeded();
        const b = await f.another!();
        const create = (st: StorePort, ext: string) =>
          st.transaction(async (tx) => {
            const existing = await tx.orders.findByExternalId(company.id, ext);
            if (existing) return { id: existing.id, created: false };
            await new Promise((r) => setTimeout(r, 20)); // widen the window between the look-up and the insert
            return { id: (await tx.orders.insert(company.id, ext, orderFields(), T0)).id, created: true };
          });
        for (const ext of ['SAME-1', 'SAME-2', 'SAME-3']) {
          const results = await Promise.all([create(s, ext), create(b, ext), create(s, ext), create(b, ext)]);
          expect(results.filter((r) => r.created)).toHaveLength(1);
          expect(new Set(results.map((r) => r.id)).size).toBe(1);
          expect((await s.orders.findByExternalIds(company.id, [ext])).get(ext)).toHaveLength(1);
        }
        // a bulk: look up every external id at once (all locks, one order), then insert the missing ones
        const bulk = (st: StorePort, exts: string[]) =>
          st.transaction(async (tx) => {
            const found = await tx.orders.findByExternalIds(company.id, exts);
            let made = 0;
            for (const ext of exts) {
              if (found.get(ext)!.length > 0) continue;
              await tx.orders.insert(company.id, ext, orderFields(), T0);
              made++;
            }
            return made;
          });
        const exts = Array.from({ length: 20 }, (_, i) => `BULK-${i}`);
        const made = await Promise.all([bulk(s, exts), bulk(b, [...exts].reverse()), bulk(s, exts.slice(5)), bulk(b, exts.slice(0, 12).reverse())]);
        expect(made.reduce((x, y) => x + y, 0)).toBe(20);
        const stored = await s.orders.findByExternalIds(company.id, exts);
        for (const ext of exts) expect(stored.get(ext)).toHaveLength(1);
      });

      it('two concurrent claimJob calls from two stores never return the same job', async () => {
        const { f, s, company, other } = await seeded();
        const b = await f.another!();
        const input = { order_ids: [], vehicle_ids: [], warehouse_id: null };
        for (let i = 0; i < 10; i++) await s.planning.createJob(i % 2 ? company.id : other.id, input, T0);
        const claims = await Promise.all(
          Array.from({ length: 14 }, (_, i) => (i % 2 ? s : b).planning.claimJob(`owner-${i}`, T0, T2)),
        );
        const got = claims.filter((j) => j !== undefined).map((j) => j!.id);
        expect(new Set(got).size).toBe(got.length);
        // nothing claimable was left behind while another claim was in progress
        for (;;) {
          const more = await s.planning.claimJob('sweeper', T0, T2);
          if (!more) break;
          got.push(more.id);
        }
        expect(new Set(got).size).toBe(10);
      });

      it('outbox and geocoding claims from two stores at once never hand one row to two owners', async () => {
        const { f, s, company } = await seeded();
        const b = await f.another!();
        const t = Date.parse(T0);
        await s.outbox.add(Array.from({ length: 30 }, (_, i) => ({ id: `x${i}`, subscriptionId: 1 + (i % 5), url: 'u', secret: 's', event: 'e', body: '{}', createdAt: t + i })));
        const deliveries = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? s : b).outbox.due(t + 100, 4, new Set(), { perSubscription: 2, lease: { owner: `o${i}`, until: t + 60_000 } })),
        );
        const claimed = deliveries.flat().map((x) => x.id);
        expect(new Set(claimed).size).toBe(claimed.length);
        // at most perSubscription in flight per subscription, whoever holds them
        const perSub = new Map<number, number>();
        for (const x of deliveries.flat()) perSub.set(x.subscriptionId, (perSub.get(x.subscriptionId) ?? 0) + 1);
        for (const n of perSub.values()) expect(n).toBeLessThanOrEqual(2);

        for (let i = 0; i < 12; i++) {
          const o = await s.orders.insert(company.id, null, orderFields({ lat_e6: null, lon_e6: null }), T0);
          await s.geocodeQueue.enqueue(o.id, o.address, T0);
        }
        const tasks = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? s : b).geocodeQueue.due(T1, 3, { owner: `g${i}`, until: T2 })),
        );
        const taskIds = tasks.flat().map((x) => x.id);
        expect(new Set(taskIds).size).toBe(taskIds.length);
        for (const [i, list] of tasks.entries()) for (const task of list) expect(await s.geocodeQueue.leaseOwner(task.id)).toBe(`g${i}`);
      });
    });
  });
}
