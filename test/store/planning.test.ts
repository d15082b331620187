import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { OrderRepository } from '../../src/store/sqlite/orders.js';
import { SqlitePlanningStore } from '../../src/store/sqlite/planning.js';
import { describePlanningStoreContract } from '../jobs/store-contract.js';

const now = '2026-11-30T07:00:00.000Z';

// each fixture gets its own database file; all of them are closed and removed at the end
const opened: Array<{ dir: string; db: ReturnType<typeof openDatabase> }> = [];
afterAll(() => {
  for (const { dir, db } of opened) {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describePlanningStoreContract('SqlitePlanningStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'planning-store-'));
  const db = openDatabase(join(dir, 'planner.db'));
  opened.push({ dir, db });
  const store = new SqlitePlanningStore(db);
  const insert = (sql: string, ...args: unknown[]) => Number(db.prepare(sql).run(...args).lastInsertRowid);
  const e6 = (v: number | null) => (v === null ? null : Math.round(v * 1e6));
  return {
    store,
    addCompany: (timezone) => ({ id: insert(`INSERT INTO companies (name, timezone, created_at) VALUES ('Co', ?, ?)`, timezone, now), timezone }),
    addWarehouse: (w) => ({
      ...w,
      id: insert(`INSERT INTO warehouses (company_id, name, address, lat, lon, created_at) VALUES (?, ?, ?, ?, ?, ?)`, w.companyId, w.name, w.address, w.lat, w.lon, now),
    }),
    addVehicle: (v) => {
      const [start, end] = v.shift ? v.shift.split('-') : [null, null];
      const id = insert(
        `INSERT INTO vehicles (company_id, warehouse_id, name, capacity_kg, capacity_m3, shift_start, shift_end, max_distance_km,
           max_duration_min, max_orders, features, active, created_at, max_trips, reload_min) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        v.companyId, v.warehouseId, v.name, v.capacityKg, v.capacityM3, start, end, v.maxDistanceKm, v.maxDurationMin, v.maxOrders,
        JSON.stringify(v.features), v.active ? 1 : 0, now, v.maxTrips ?? 1, v.reloadMin ?? 15,
      );
      return { ...v, id };
    },
    addOrder: (o) => {
      const id = insert(
        `INSERT INTO orders (company_id, external_id, address, lat_e6, lon_e6, time_window_start, time_window_end, weight_g, volume_l,
           service_time, status, delivery_date, required_features, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        o.companyId, o.externalId, o.address, e6(o.lat), e6(o.lon), o.timeWindowStart, o.timeWindowEnd, Math.round(o.weightKg * 1000),
        Math.round(o.volumeM3 * 1000), o.serviceTimeMin, o.status, o.deliveryDate, JSON.stringify(o.requiredFeatures ?? []), now, now,
      );
      return { ...o, id };
    },
    addRoute: (companyId, vehicleId, date) => {
      store.insertRoute({ jobId: 0, companyId, vehicleId, name: 'manual', date, plannedMileageKm: 0, plannedDurationMin: 0, totalWeightKg: 0, totalVolumeM3: 0, stops: [] }, now);
    },
    orderStatus: (id) => (db.prepare(`SELECT status FROM orders WHERE id = ?`).get(id) as { status: 'new' }).status,
    orderHistory: (id) => db.prepare(`SELECT status, previous_status, at FROM order_status_history WHERE order_id = ? ORDER BY id`).all(id) as never,
    readRoute: (id) => {
      const r = db.prepare(`SELECT * FROM routes WHERE id = ?`).get(id) as Record<string, never> | undefined;
      if (!r) return undefined;
      const stops = db.prepare(`SELECT * FROM route_stops WHERE route_id = ? ORDER BY position`).all(id) as Array<Record<string, never>>;
      return {
        jobId: r.job_id, companyId: r.company_id, vehicleId: r.vehicle_id, name: r.name, date: r.date, status: r.status,
        plannedMileageKm: r.planned_mileage_km, plannedDurationMin: r.planned_duration_min, totalWeightKg: r.total_weight_kg, totalVolumeM3: r.total_volume_m3,
        stops: stops.map((s) => ({
          position: s.position, stopType: s.stop_type, status: s.status, orderId: s.order_id, orderExternalId: s.order_external_id, warehouseId: s.warehouse_id,
          address: s.address, lat: s.lat, lon: s.lon, plannedArrivalAt: s.planned_arrival_at, plannedDepartureAt: s.planned_departure_at,
        })),
      };
    },
    countRoutes: (companyId) => (db.prepare(`SELECT COUNT(*) AS n FROM routes WHERE company_id = ?`).get(companyId) as { n: number }).n,
    editOrder: (companyId, id, address) => {
      new OrderRepository(db).update(companyId, id, { address }, now);
    },
  };
});
