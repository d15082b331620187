/**
 * The two stores the e2e tests run on: a SQLite file, and a PostgreSQL database of its own on the
 * test server (skipped, with the reason in the closing line, when there is none). Each backend
 * seeds through the storage port and answers plain SQL for the tests' checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/store/open.js';
import { SCOPES } from '../../src/store/types.js';
import { Database } from '../../src/store/sqlite/driver.js';
import { createTestDatabase, postgres } from '../helpers/postgres.js';

export interface Backend {
  kind: 'sqlite' | 'postgres';
  /** The `--db` value. */
  db: string;
  /** Rows of a query (numbers come back as numbers: cast counts with CAST(... AS INTEGER)). */
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  cleanup(): Promise<void>;
}

export const BACKENDS: Array<{ kind: 'sqlite' | 'postgres'; available: boolean }> = [
  { kind: 'sqlite', available: true },
  { kind: 'postgres', available: postgres.available },
];

export async function makeBackend(kind: 'sqlite' | 'postgres'): Promise<Backend> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'dp-e2e-'));
    const db = join(dir, 'planner.db');
    return {
      kind,
      db,
      async all<T>(sql: string) {
        const conn = new Database(db, { readonly: true });
        try {
          return conn.prepare(sql).all() as T[];
        } finally {
          conn.close();
        }
      },
      async cleanup() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await createTestDatabase();
  return {
    kind,
    db: database.url,
    async all<T>(sql: string) {
      const client = new pg.Client({ connectionString: database.url });
      client.on('error', () => {});
      await client.connect();
      try {
        return (await client.query(sql)).rows as T[];
      } finally {
        await client.end().catch(() => {});
      }
    },
    cleanup: () => database.drop(),
  };
}

/** A company in Berlin with a depot, vans, a key with every scope and an optional webhook, through the port. */
export async function seedBackend(backend: Backend, options: { vehicles?: number; webhookUrl?: string } = {}) {
  const store = await openStore(backend.db);
  try {
    return await store.transaction(async (tx) => {
      const now = new Date().toISOString();
      const company = await tx.companies.create({ name: 'E2E Deliveries', timezone: 'Europe/Berlin' }, now);
      const warehouse = await tx.warehouses.create({ company_id: company.id, name: 'Berlin South', address: 'Großbeerenstraße 2, 12107 Berlin', lat: 52.448, lon: 13.385 }, now);
      const vehicles = [];
      for (let i = 0; i < (options.vehicles ?? 3); i++) {
        vehicles.push(
          await tx.vehicles.create(
            {
              company_id: company.id, warehouse_id: warehouse.id, name: `Van ${i + 1}`, capacity_kg: 800, capacity_m3: 6, shift_start: '08:00', shift_end: '18:00',
              max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: true,
            },
            now,
          ),
        );
      }
      const key = (await tx.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now)).key;
      const webhook = options.webhookUrl
        ? await tx.webhooks.create({ company_id: company.id, url: options.webhookUrl, events: ['planning_job.finished', 'order.status_changed'] }, now)
        : undefined;
      return { company, warehouse, vehicles, key, webhook };
    });
  } finally {
    await store.close();
  }
}
