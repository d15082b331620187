/**
 * The real server as a child process: `delivery-planner serve` (built or from source: `cliArgs`) on
 * 127.0.0.1 port 0 with a given SQLite file, plus seeding the file before it starts (as the admin
 * CLI would) and a small HTTP client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../../src/store/sqlite/driver.js';
import { Store } from '../../src/store/sqlite/store.js';
import { SCOPES } from '../../src/store/types.js';
import { cliArgs } from '../helpers/cli-command.js';
import { checkFetch } from '../helpers/openapi-conformance.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Served {
  base: string;
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

export async function startServe(db: string, args: string[] = []): Promise<Served> {
  const child = spawn(
    process.execPath,
    [...cliArgs(), 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db, '--log-level', 'warn', ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening: ${err.slice(-2000)}`)));
  });
  return {
    base,
    child,
    stderr: () => err,
    exited,
    kill(signal: NodeJS.Signals = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

/** A temp dir and a database file seeded with a company in Berlin, a depot, vans and a key. */
export function seedDb(options: { vehicles?: number; webhookUrl?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'dp-e2e-'));
  const db = join(dir, 'planner.db');
  const store = Store.open(db);
  const now = new Date().toISOString();
  const company = store.companies.create({ name: 'E2E Deliveries', timezone: 'Europe/Berlin' }, now);
  const warehouse = store.warehouses.create({ company_id: company.id, name: 'Berlin South', address: 'Großbeerenstraße 2, 12107 Berlin', lat: 52.448, lon: 13.385 }, now);
  const vehicles = Array.from({ length: options.vehicles ?? 3 }, (_, i) =>
    store.vehicles.create(
      {
        company_id: company.id,
        warehouse_id: warehouse.id,
        name: `Van ${i + 1}`,
        capacity_kg: 800,
        capacity_m3: 6,
        shift_start: '08:00',
        shift_end: '18:00',
        max_distance_km: null,
        max_duration_min: null,
        max_orders: null,
        features: [],
        active: true,
      },
      now,
    ),
  );
  const key = store.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now).key;
  const webhook = options.webhookUrl
    ? store.webhooks.create({ company_id: company.id, url: options.webhookUrl, events: ['planning_job.finished', 'order.status_changed'] }, now)
    : undefined;
  store.close();
  return { dir, db, company, warehouse, vehicles, key, webhook };
}

export function client(base: string, key: string) {
  return async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Api-Key ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // every answer is checked against the OpenAPI document (test/helpers/openapi-conformance.ts)
    return checkFetch(method, path, res, body);
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value other than undefined. */
export async function until<T>(probe: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(everyMs);
  }
}

export interface Worker {
  child: ChildProcess;
  pid: number;
  stderr: () => string;
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/** `delivery-planner worker` on a database; resolves once it printed `worker ready`. */
export async function startWorker(db: string, args: string[] = []): Promise<Worker> {
  const child = spawn(process.execPath, [...cliArgs(), 'worker', '--db', db, '--log-level', 'warn', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('worker ready\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`worker exited (${code}) before it was ready: ${err.slice(-2000)}`)));
  });
  return {
    child,
    pid: child.pid!,
    stderr: () => err,
    exited,
    kill(signal: NodeJS.Signals = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

export const DATE = '2026-12-01';

/** `n` orders with coordinates spread over Berlin (no geocoding needed). */
export function orders(n: number, prefix = 'K') {
  return Array.from({ length: n }, (_, i) => ({
    external_id: `${prefix}-${i}`,
    address: `Teststraße ${i}, Berlin`,
    lat: (52.44 + ((i * 37) % 100) / 1000).toFixed(6),
    lon: (13.3 + ((i * 53) % 200) / 1000).toFixed(6),
    delivery_date: DATE,
    weight: '4',
    volume: '0.05',
    ...(i % 3 === 0 ? { time_window_start: '10:00', time_window_end: '14:00' } : {}),
  }));
}

export function readDb<T>(path: string, fn: (db: Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
