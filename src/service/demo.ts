/**
 * The demo set-up of `serve --demo`: a company in Berlin with a warehouse and three vehicles
 * (created once, found by name on later starts) and a fresh API key with every scope on each
 * start (keys are stored hashed, so an earlier one cannot be shown again).
 */
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import type { StorePort } from '../store/port.js';
import { SCOPES, type Company, type Vehicle, type Warehouse } from '../store/types.js';

export const DEMO_COMPANY = 'Demo Deliveries';

/** The demo address book (the `table` geocoder's default, and the demo's orders). */
export const DEMO_ADDRESS_BOOK = () => join(packageRoot(), 'data', 'demo', 'addresses.csv');

export interface Demo {
  company: Company;
  warehouse: Warehouse;
  vehicles: Vehicle[];
  key: string;
  created: boolean;
}

export function ensureDemo(store: StorePort, now: string): Promise<Demo> {
  return store.transaction(async (tx) => {
    let company = await tx.companies.findByName(DEMO_COMPANY);
    const created = company === undefined;
    if (!company) {
      company = await tx.companies.create({ name: DEMO_COMPANY, timezone: 'Europe/Berlin' }, now);
      const warehouse = await tx.warehouses.create(
        { company_id: company.id, name: 'Berlin South depot', address: 'Großbeerenstraße 2, 12107 Berlin', lat: 52.448, lon: 13.385 },
        now,
      );
      const van = (name: string, kg: number, m3: number, features: string[]) =>
        tx.vehicles.create(
          {
            company_id: company!.id,
            warehouse_id: warehouse.id,
            name,
            capacity_kg: kg,
            capacity_m3: m3,
            shift_start: '08:00',
            shift_end: '18:00',
            max_distance_km: 200,
            max_duration_min: 600,
            max_orders: 40,
            features,
            active: true,
          },
          now,
        );
      await van('Van 1', 800, 6, []);
      await van('Van 2', 800, 6, []);
      await van('Cool van', 600, 4.5, ['fridge']);
    }
    const warehouse = (await tx.warehouses.list(company.id))[0]!;
    const vehicles = await tx.vehicles.list(company.id);
    const { key } = await tx.apiKeys.create({ company_id: company.id, scopes: [...SCOPES], label: 'demo' }, now);
    return { company, warehouse, vehicles, key, created };
  });
}
