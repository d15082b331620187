/**
 * An order edited while a planning job runs (issue 41, item 3): the job read the order, the client
 * changes its address, coordinates and weight (5,000 kg, on a 1,000 kg van), and the job then
 * commits. The commit must see that the order changed since it was read and plan again from the
 * fresh data (here: the order no longer fits, so it stays `new`, unassigned for capacity); it never
 * writes the stale stop. The edit lands at a fixed point, between the job's read of its orders and
 * its commit: the test hooks the job's next store read after the orders (its active vehicles), so
 * nothing depends on timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { DATE, makeWorld, near, PUBLIC, type World } from '../e2e/world.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld({ kind, vehicles: 0 });
  });
  afterAll(async () => w?.close());

  it('an edit made while the job runs is planned from its fresh values, never committed stale', async () => {
    const van = await w.port.vehicles.create(
      {
        company_id: w.company.id, warehouse_id: w.warehouse.id, name: 'Van 1000', capacity_kg: 1000, capacity_m3: 6, shift_start: '08:00', shift_end: '18:00',
        max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: true,
      },
      new Date().toISOString(),
    );
    const [id] = await w.addOrders([{ external_id: 'EDIT-1', address: 'Old Street 1, Berlin', ...near(2, 1), weight: '10.000', volume: '0.100', delivery_date: DATE }]);
    const edited = { address: 'New Street 9, Berlin', ...near(-3, 4), weight: '5000.000' };

    // the edit, once, right after the job has read its orders (the next read of the job is its vehicles)
    const planning = w.port.planning;
    const listActiveVehicles = planning.listActiveVehicles.bind(planning);
    let patched: number | undefined;
    planning.listActiveVehicles = async (companyId: number) => {
      if (patched === undefined) patched = (await w.inject('PATCH', `${PUBLIC}/orders/${id}/`, edited)).statusCode;
      return listActiveVehicles(companyId);
    };

    const job = await w.plan({ order_ids: [id], vehicle_ids: [van.id] });
    expect(patched).toBe(200);
    const order = (await w.inject('GET', `${PUBLIC}/orders/${id}/`)).json();
    expect(order).toMatchObject({ address: edited.address, lat: edited.lat, lon: edited.lon, weight: edited.weight });

    // whatever the job did, no route holds a stale copy of the order or leaves its weight out
    const routeIds = (job.result as { route_ids?: number[] }).route_ids ?? [];
    for (const routeId of routeIds) {
      const route = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/`)).json();
      for (const stop of route.stops.filter((s: { order_id: number | null }) => s.order_id === id)) {
        expect({ address: stop.address, lat: stop.lat, lon: stop.lon }).toEqual({ address: edited.address, lat: edited.lat, lon: edited.lon });
      }
      expect(Number(route.total_weight_kg)).toBeLessThanOrEqual(1000);
    }
    // 5,000 kg on a 1,000 kg van: planned again from the fresh data, it cannot be placed
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({ route_ids: [], unassigned: [{ order_id: id, reason: 'capacity' }] });
    expect(order.status).toBe('new');
  });
});
