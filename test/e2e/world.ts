/**
 * A real service in-process for endpoint tests: the fastify app (driven with app.inject()) on a
 * real SQLite file, the real planning runtime (JobService on the SQLite store, Piscina solver pool
 * loaded from source, webhook dispatcher on the outbox). Nothing is mocked.
 */
import { checkInject } from '../helpers/openapi-conformance.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/http/app.js';
import type { JobView } from '../../src/jobs/view.js';
import { ServiceEvents, type OrderStatusChanged } from '../../src/service/events.js';
import { createPlanningRuntime, type PlanningRuntimeOptions } from '../../src/service/planning.js';
import type { StorePort } from '../../src/store/port.js';
import { PgStore } from '../../src/store/postgres/store.js';
import { portOf } from '../../src/store/sqlite/port.js';
import { Store } from '../../src/store/sqlite/store.js';
import { afterAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { SCOPES, type Scope } from '../../src/store/types.js';

export const PUBLIC = '/api/public/v1';
export const INTERNAL = '/api/internal/v1';
export const DATE = '2026-12-01';
/** The depot: Berlin, Tempelhof. */
export const DEPOT = { lat: 52.47, lon: 13.4 };

/** A point `northKm` north and `eastKm` east of the depot, as decimal strings. */
export function near(northKm: number, eastKm: number): { lat: string; lon: string } {
  const lat = DEPOT.lat + northKm / 111.2;
  const lon = DEPOT.lon + eastKm / (111.2 * Math.cos((DEPOT.lat * Math.PI) / 180));
  return { lat: lat.toFixed(6), lon: lon.toFixed(6) };
}

export interface WorldOptions extends Partial<Omit<PlanningRuntimeOptions, 'store' | 'events'>> {
  vehicles?: number;
  timezone?: string;
  /** The store (default sqlite): PostgreSQL uses one database per test file, emptied per world. */
  kind?: 'sqlite' | 'postgres';
}

/** One PostgreSQL database per test file (created on first use, dropped after the file). */
let pgDatabase: Promise<TestDatabase> | undefined;
afterAll(async () => {
  if (pgDatabase) await (await pgDatabase).drop();
});

export async function makeWorld(options: WorldOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'dp-flow-'));
  /** The SQLite store itself (SQLite worlds only: tests that read it directly run on SQLite). */
  let store = undefined as unknown as Store;
  let port: StorePort;
  if (options.kind === 'postgres') {
    pgDatabase ??= createTestDatabase();
    const database = await pgDatabase;
    await database.reset();
    port = await PgStore.open(database.url);
  } else {
    store = Store.open(join(dir, 'planner.db'));
    port = portOf(store);
  }
  const now = new Date().toISOString();
  const company = await port.companies.create({ name: 'Acme', timezone: options.timezone ?? 'Europe/Berlin' }, now);
  const other = await port.companies.create({ name: 'Other', timezone: 'UTC' }, now);
  const warehouse = await port.warehouses.create({ company_id: company.id, name: 'Tempelhof', address: 'Tempelhofer Damm 1, Berlin', ...DEPOT }, now);
  const otherWarehouse = await port.warehouses.create({ company_id: other.id, name: 'Far', address: 'x', ...DEPOT }, now);
  const vehicle = (companyId: number, warehouseId: number, name: string, active = true) =>
    port.vehicles.create(
      {
        company_id: companyId,
        warehouse_id: warehouseId,
        name,
        capacity_kg: 800,
        capacity_m3: 6,
        shift_start: '08:00',
        shift_end: '18:00',
        max_distance_km: null,
        max_duration_min: null,
        max_orders: null,
        features: [],
        active,
      },
      now,
    );
  const vehicles = [];
  for (let i = 0; i < (options.vehicles ?? 2); i++) vehicles.push(await vehicle(company.id, warehouse.id, `Van ${i + 1}`));
  const inactive = await vehicle(company.id, warehouse.id, 'Old van', false);
  const otherVehicle = await vehicle(other.id, otherWarehouse.id, 'Their van');
  const key = (await port.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now)).key;
  const otherKey = (await port.apiKeys.create({ company_id: other.id, scopes: [...SCOPES] }, now)).key;
  const keyWith = async (scopes: Scope[]) => (await port.apiKeys.create({ company_id: company.id, scopes }, now)).key;

  /** Rows in a table (either store), optionally only those matching `where` (SQL both dialects read alike, written by the test). */
  async function countRows(table: 'planning_jobs' | 'routes' | 'route_stops' | 'webhook_deliveries' | 'vehicle_positions', where = 'TRUE'): Promise<number> {
    const sql = `SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${table} WHERE ${where}`;
    if (port instanceof PgStore) return (await port.pool.query<{ n: number }>(sql)).rows[0]!.n;
    return (store.db.prepare(sql).get() as { n: number }).n;
  }

  const events = new ServiceEvents();
  const statusEvents: OrderStatusChanged[] = [];
  events.on('order.status_changed', (e) => statusEvents.push(e));
  const runtime = createPlanningRuntime({
    store: port,
    events,
    workers: 1,
    jobTimeLimitSec: 0.3,
    webhookRetryDelaysMs: [100, 200, 400],
    webhookTimeoutMs: 2_000,
    ...options,
  });
  const app = buildApp({ store: port, events, jobs: runtime.jobs, geocoding: false, rateLimit: 0 });
  await runtime.start();

  // every answer is checked against the OpenAPI document (test/helpers/openapi-conformance.ts)
  const inject = async (method: string, url: string, body?: unknown, k: string | null = key) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...(k === null ? {} : { authorization: `Api-Key ${k}` }), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    checkInject(method, url, res, typeof body === 'string' ? undefined : body);
    return res;
  };

  /** Creates orders with coordinates (no geocoding needed); returns their ids. */
  async function addOrders(items: Array<Record<string, unknown>>, k = key): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < items.length; i += 500) {
      const res = await inject('POST', `${PUBLIC}/orders/bulk/`, items.slice(i, i + 500), k);
      if (res.statusCode !== 200) throw new Error(`bulk failed: ${res.body}`);
      for (const r of res.json().results) {
        if (r.status === 'error') throw new Error(`bulk item failed: ${JSON.stringify(r)}`);
        ids.push(r.id);
      }
    }
    return ids;
  }

  /** `n` orders around the depot on DATE, external ids `${prefix}-1..n`. */
  function someOrders(n: number, prefix = 'DOC'): Array<Record<string, unknown>> {
    return Array.from({ length: n }, (_, i) => ({
      external_id: `${prefix}-${i + 1}`,
      address: `Street ${i + 1}, Berlin`,
      ...near(3 * Math.cos(i), 3 * Math.sin(i) + (i % 3)),
      weight: '10.5',
      volume: '0.125',
      delivery_date: DATE,
      time_window_start: '09:00:00',
      time_window_end: '17:00:00',
    }));
  }

  /** Submits a job through the API and waits for it to finish. */
  async function plan(body: Record<string, unknown>, k = key): Promise<JobView> {
    const res = await inject('POST', `${PUBLIC}/planning/jobs/`, body, k);
    if (res.statusCode !== 202) throw new Error(`planning refused: ${res.statusCode} ${res.body}`);
    const job = res.json() as JobView;
    const companyId = k === otherKey ? other.id : company.id;
    return runtime.jobs.waitFor(companyId, job.job_id);
  }

  async function close() {
    await app.close();
    await runtime.stop();
    await port.close();
    rmSync(dir, { recursive: true, force: true });
  }

  return {
    dir,
    store,
    port,
    countRows,
    company,
    other,
    warehouse,
    otherWarehouse,
    vehicles,
    inactive,
    otherVehicle,
    key,
    otherKey,
    keyWith,
    events,
    statusEvents,
    runtime,
    app,
    inject,
    addOrders,
    someOrders,
    plan,
    close,
  };
}

export type World = Awaited<ReturnType<typeof makeWorld>>;
