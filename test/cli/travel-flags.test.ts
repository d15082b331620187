/**
 * The road-model flags (docs/contract/operations.md "Road matrices"): bad values exit 2 with one line; the
 * company speed factor is stored and read back on both stores (SQLite file, PostgreSQL), through
 * the real `delivery-planner admin` command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as adminMain } from '../../src/cli/admin.js';
import { parseServeArgs, parseWorkerArgs } from '../../src/cli/options.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { matrixProvider } from '../../src/service/planning.js';
import { openStore } from '../../src/store/open.js';
import { createTestDatabase, postgres, type TestDatabase } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dp-travel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refused(args: string[], pattern: RegExp) {
  const r = runCli(args);
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stdout).toBe('');
}

describe('serve and worker: --speed-kmh, --detour-factor', () => {
  it('bad values exit 2 with one line', () => {
    refused(['serve', '--speed-kmh', 'fast'], /^.*--speed-kmh: expected a speed in km\/h between 5 and 150, got 'fast'/);
    // the same checks in process (the command turns a UsageError into exit 2 and its one line)
    expect(() => parseWorkerArgs(['--detour-factor', '0.8'])).toThrow(new UsageError('--detour-factor: expected a factor between 1 and 3, got 0.8'));
    expect(() => parseWorkerArgs(['--speed-kmh', '1e3'])).toThrow(/--speed-kmh: expected a speed in km\/h between 5 and 150, got '1e3'/);
    expect(() => parseServeArgs(['--matrix', 'osrm', '--osrm-url', 'http://127.0.0.1:9', '--speed-kmh', '50'])).toThrow(
      /^--speed-kmh: applies to --matrix haversine only/,
    );
  });

  it('good values reach the road model: a fixed speed, the detour; none: the travel curve', async () => {
    const serve = parseServeArgs(['--speed-kmh', '60', '--detour-factor', '1.2']);
    const worker = parseWorkerArgs(['--speed-kmh', '45.5']);
    if (serve === 'help' || worker === 'help') throw new Error('unexpected help');
    expect([serve.speedKmh, serve.detourFactor, worker.speedKmh, worker.detourFactor]).toEqual([60, 1.2, 45.5, undefined]);
    const points: Array<[number, number]> = [[51.3, 12.3], [51.4, 12.5]];
    expect(await matrixProvider('haversine', undefined, { speedKmh: 60, detourFactor: 1.2 })(points)).toMatchObject({ kind: 'haversine', speedKmh: 60, detourFactor: 1.2 });
    const curve = await matrixProvider('haversine')(points);
    expect(curve).toMatchObject({ kind: 'haversine', detourFactor: 1.3 });
    expect(curve).not.toHaveProperty('speedKmh');
  });
});

/** company create / update / speed-report on one store, read back through the planning port. */
function companyFactorSuite(location: () => string) {
  it('company create|update --speed-factor: stored, printed, read by planning; bad values exit 2', async () => {
    const db = location();
    const created = runCli(['admin', '--db', db, 'company', 'create', '--name', 'Dalmatia Foods', '--speed-factor', '0.85']);
    expect(created.code, created.stderr).toBe(0);
    const company = JSON.parse(created.stdout);
    expect(company).toMatchObject({ name: 'Dalmatia Foods', timezone: 'UTC', speed_factor: 0.85 });
    const plain = JSON.parse(runCli(['admin', '--db', db, 'company', 'create', '--name', 'Plain']).stdout);
    expect(plain.speed_factor).toBe(1);

    const updated = runCli(['admin', '--db', db, 'company', 'update', '--id', String(company.id), '--speed-factor', '1.4']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toEqual({ id: company.id, name: 'Dalmatia Foods', timezone: 'UTC', speed_factor: 1.4 });

    refused(['admin', '--db', db, 'company', 'update', '--id', String(company.id), '--speed-factor', '0'], /--speed-factor: expected a factor between 0\.2 and 5, got 0$/);
    const usage = (...args: string[]) => expect(adminMain(['--db', db, 'company', ...args])).rejects.toThrow(UsageError);
    await usage('create', '--name', 'X', '--speed-factor', '-1');
    await usage('create', '--name', 'X', '--speed-factor', '6');
    await usage('update', '--id', '999999', '--speed-factor', '1.1');
    await usage('speed-report', '--company', String(company.id), '--days', 'many');
    await usage('speed-report', '--company', String(company.id), '--speed-kmh', '0');

    // nothing completed yet: no factor, nothing applied
    const report = runCli(['admin', '--db', db, 'company', 'speed-report', '--company', String(company.id), '--apply']);
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ company_id: company.id, hops: 0, factor: null, applied: false, bands: [] });

    const store = await openStore(db);
    try {
      expect(await store.planning.getCompany(company.id)).toMatchObject({ id: company.id, speedFactor: 1.4 });
      expect(await store.planning.getCompany(plain.id)).toMatchObject({ speedFactor: 1 });
    } finally {
      await store.close();
    }
  });
}

describe('the company speed factor on SQLite', () => {
  companyFactorSuite(() => join(dir, 'planner.db'));
});

describe.skipIf(!postgres.available)('the company speed factor on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  companyFactorSuite(() => database.url);
});
