import type { VehicleInput, VehiclesPort, WarehousesPort } from '../ports.js';
import { vehicleChangeValues, type Vehicle, type VehicleBreak, type VehicleChange, type Warehouse } from '../types.js';
import type { Conn } from './db.js';
import { safeId, safeIds } from './util.js';

/** A company's warehouses or vehicles are set up by hand (admin CLI): this bounds a list anyway. */
const MAX_FLEET_ROWS = 10_000;

export class PgWarehouseRepository implements WarehousesPort {
  constructor(private readonly db: Conn) {}

  async create(input: Omit<Warehouse, 'id' | 'created_at'>, now: string): Promise<Warehouse> {
    return (await this.db.one<Warehouse>(
      'INSERT INTO warehouses (company_id, name, address, lat, lon, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [input.company_id, input.name, input.address, input.lat, input.lon, now],
    ))!;
  }

  async get(companyId: number, id: number): Promise<Warehouse | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.one<Warehouse>('SELECT * FROM warehouses WHERE company_id = $1 AND id = $2', [companyId, id]);
  }

  async list(companyId: number): Promise<Warehouse[]> {
    return this.db.rows<Warehouse>('SELECT * FROM warehouses WHERE company_id = $1 ORDER BY id LIMIT $2', [companyId, MAX_FLEET_ROWS]);
  }
}

interface VehicleRow extends Omit<Vehicle, 'features' | 'breaks'> {
  features: string;
  breaks: string;
}

const toVehicle = (row: VehicleRow): Vehicle => ({ ...row, features: JSON.parse(row.features) as string[], breaks: JSON.parse(row.breaks) as VehicleBreak[] });

export class PgVehicleRepository implements VehiclesPort {
  constructor(private readonly db: Conn) {}

  /** `max_trips` and `reload_min` default to 1 and 15 (the migration's defaults). */
  async create(input: VehicleInput, now: string): Promise<Vehicle> {
    const row = await this.db.one<VehicleRow>(
      `INSERT INTO vehicles (company_id, warehouse_id, name, capacity_kg, capacity_m3, shift_start, shift_end,
         max_distance_km, max_duration_min, max_orders, features, active, created_at, max_trips, reload_min, breaks)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING *`,
      [
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
        input.active,
        now,
        input.max_trips ?? 1,
        input.reload_min ?? 15,
        JSON.stringify(input.breaks ?? []),
      ],
    );
    return toVehicle(row!);
  }

  async update(companyId: number, id: number, change: VehicleChange): Promise<Vehicle | undefined> {
    if (!safeId(id)) return undefined;
    const values = vehicleChangeValues(change, (b) => b);
    if (values.length > 0) {
      await this.db.run(
        `UPDATE vehicles SET ${values.map(([c], i) => `${c} = $${i + 1}`).join(', ')} WHERE company_id = $${values.length + 1} AND id = $${values.length + 2}`,
        [...values.map(([, v]) => v), companyId, id],
      );
    }
    return this.get(companyId, id);
  }

  async get(companyId: number, id: number): Promise<Vehicle | undefined> {
    if (!safeId(id)) return undefined;
    const row = await this.db.one<VehicleRow>('SELECT * FROM vehicles WHERE company_id = $1 AND id = $2', [companyId, id]);
    return row && toVehicle(row);
  }

  async findById(id: number): Promise<Vehicle | undefined> {
    if (!safeId(id)) return undefined;
    const row = await this.db.one<VehicleRow>('SELECT * FROM vehicles WHERE id = $1', [id]);
    return row && toVehicle(row);
  }

  async list(companyId: number, options: { includeInactive?: boolean } = {}): Promise<Vehicle[]> {
    const sql = options.includeInactive
      ? 'SELECT * FROM vehicles WHERE company_id = $1 ORDER BY id LIMIT $2'
      : 'SELECT * FROM vehicles WHERE company_id = $1 AND active ORDER BY id LIMIT $2';
    return (await this.db.rows<VehicleRow>(sql, [companyId, MAX_FLEET_ROWS])).map(toVehicle);
  }

  /** The subset of ids that exist, belong to the company and are active, in the order of `ids`. */
  async findActive(companyId: number, ids: number[]): Promise<Vehicle[]> {
    const wanted = safeIds(ids);
    if (wanted.length === 0) return [];
    const rows = await this.db.rows<VehicleRow>('SELECT * FROM vehicles WHERE company_id = $1 AND id = ANY($2::bigint[]) AND active', [
      companyId,
      wanted,
    ]);
    const byId = new Map(rows.map((r) => [r.id, toVehicle(r)]));
    return wanted.map((id) => byId.get(id)).filter((v): v is Vehicle => v !== undefined);
  }

  async setActive(companyId: number, id: number, active: boolean): Promise<Vehicle | undefined> {
    if (!safeId(id)) return undefined;
    await this.db.run('UPDATE vehicles SET active = $1 WHERE company_id = $2 AND id = $3', [active, companyId, id]);
    return this.get(companyId, id);
  }
}
