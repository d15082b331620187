import { prepare, type Db } from './db.js';
import { vehicleChangeValues, type Vehicle, type VehicleBreak, type VehicleChange, type Warehouse } from '../types.js';
import type { VehicleInput } from '../ports.js';

export class WarehouseRepository {
  constructor(private readonly db: Db) {}

  create(input: Omit<Warehouse, 'id' | 'created_at'>, now: string): Warehouse {
    const info = prepare(this.db, 'INSERT INTO warehouses (company_id, name, address, lat, lon, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(input.company_id, input.name, input.address, input.lat, input.lon, now);
    return this.get(input.company_id, Number(info.lastInsertRowid))!;
  }

  /** The warehouse if it belongs to the company. */
  get(companyId: number, id: number): Warehouse | undefined {
    return prepare(this.db, 'SELECT * FROM warehouses WHERE company_id = ? AND id = ?').get(companyId, id) as
      | Warehouse
      | undefined;
  }

  list(companyId: number): Warehouse[] {
    return prepare(this.db, 'SELECT * FROM warehouses WHERE company_id = ? ORDER BY id').all(companyId) as Warehouse[];
  }
}

interface VehicleRow extends Omit<Vehicle, 'features' | 'active' | 'breaks'> {
  features: string;
  breaks: string;
  active: number;
}

function toVehicle(row: VehicleRow): Vehicle {
  return { ...row, features: JSON.parse(row.features) as string[], breaks: JSON.parse(row.breaks) as VehicleBreak[], active: row.active === 1 };
}


export class VehicleRepository {
  constructor(private readonly db: Db) {}

  /** `max_trips` and `reload_min` default to 1 and 15 (the migration's defaults). */
  create(input: VehicleInput, now: string): Vehicle {
    const info = prepare(this.db, 
        `INSERT INTO vehicles (company_id, warehouse_id, name, capacity_kg, capacity_m3, shift_start, shift_end,
           max_distance_km, max_duration_min, max_orders, features, active, created_at, max_trips, reload_min, breaks)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.company_id,
        input.warehouse_id,
        input.name,
        input.capacity_kg,
        input.capacity_m3,
        input.shift_start,
        input.shift_end,
        input.max_distance_km,
        input.max_duration_min,
        input.max_orders,
        JSON.stringify(input.features),
        input.active ? 1 : 0,
        now,
        input.max_trips ?? 1,
        input.reload_min ?? 15,
        JSON.stringify(input.breaks ?? []),
      );
    return this.get(input.company_id, Number(info.lastInsertRowid))!;
  }

  update(companyId: number, id: number, change: VehicleChange): Vehicle | undefined {
    const values = vehicleChangeValues(change, (b) => (b ? 1 : 0));
    if (values.length > 0) {
      prepare(this.db, `UPDATE vehicles SET ${values.map(([c]) => `${c} = ?`).join(', ')} WHERE company_id = ? AND id = ?`).run(
        ...values.map(([, v]) => v),
        companyId,
        id,
      );
    }
    return this.get(companyId, id);
  }

  /** The vehicle if it belongs to the company (active or not). */
  get(companyId: number, id: number): Vehicle | undefined {
    const row = prepare(this.db, 'SELECT * FROM vehicles WHERE company_id = ? AND id = ?').get(companyId, id) as
      | VehicleRow
      | undefined;
    return row && toVehicle(row);
  }

  findById(id: number): Vehicle | undefined {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = prepare(this.db, 'SELECT * FROM vehicles WHERE id = ?').get(id) as VehicleRow | undefined;
    return row && toVehicle(row);
  }

  /** The company's vehicles, by id; only the active ones unless told otherwise. */
  list(companyId: number, options: { includeInactive?: boolean } = {}): Vehicle[] {
    const sql = options.includeInactive
      ? 'SELECT * FROM vehicles WHERE company_id = ? ORDER BY id'
      : 'SELECT * FROM vehicles WHERE company_id = ? AND active = 1 ORDER BY id';
    return (prepare(this.db, sql).all(companyId) as VehicleRow[]).map(toVehicle);
  }

  /** The subset of ids that exist, belong to the company and are active. */
  findActive(companyId: number, ids: number[]): Vehicle[] {
    return ids
      .map((id) => this.get(companyId, id))
      .filter((v): v is Vehicle => v !== undefined && v.active);
  }

  setActive(companyId: number, id: number, active: boolean): Vehicle | undefined {
    prepare(this.db, 'UPDATE vehicles SET active = ? WHERE company_id = ? AND id = ?').run(active ? 1 : 0, companyId, id);
    return this.get(companyId, id);
  }
}
