/**
 * The demo set-up of `serve --demo`: a company in Berlin with a warehouse and three vehicles
 * (created once, found by name on later starts) and a fresh API key with every scope on each
 * start (keys are stored hashed, so an earlier one cannot be shown again).
 */
import type { Store } from '../store/store.js';
import { SCOPES, type Company, type Vehicle, type Warehouse } from '../store/types.js';

export const DEMO_COMPANY = 'Demo Deliveries';

export interface Demo {
  company: Company;
  warehouse: Warehouse;
  vehicles: Vehicle[];
  key: string;
  created: boolean;
}

export function ensureDemo(store: Store, now: string): Demo {
  return store.transaction(() => {
    let company = store.companies.findByName(DEMO_COMPANY);
    const created = company === undefined;
    if (!company) {
      company = store.companies.create({ name: DEMO_COMPANY, timezone: 'Europe/Berlin' }, now);
      const warehouse = store.warehouses.create(
        { company_id: company.id, name: 'Berlin South depot', address: 'Großbeerenstraße 2, 12107 Berlin', lat: 52.448, lon: 13.385 },
        now,
      );
      const van = (name: string, kg: number, m3: number, features: string[]) =>
        store.vehicles.create(
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
      van('Van 1', 800, 6, []);
      van('Van 2', 800, 6, []);
      van('Cool van', 600, 4.5, ['fridge']);
    }
    const warehouse = store.warehouses.list(company.id)[0]!;
    const vehicles = store.vehicles.list(company.id);
    const { key } = store.apiKeys.create({ company_id: company.id, scopes: [...SCOPES], label: 'demo' }, now);
    return { company, warehouse, vehicles, key, created };
  });
}
