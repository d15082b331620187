/**
 * The OpenAPI document as a document: the server serves what docs/openapi.json holds, the generated
 * files (docs/openapi.json, src/client/api-types.ts) are what `npm run openapi` writes from the
 * source today, Redocly's linter (the checked-in redocly.yaml, offline, no telemetry) finds no
 * error and no warning, and the rules a generated client relies on hold for every operation.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, documentText, TYPES_FILE, typesText } from '../../scripts/openapi.js';
import { makeApp } from './fixture.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('the OpenAPI document', () => {
  let f: ReturnType<typeof makeApp>;
  let doc: Json;
  beforeAll(async () => {
    f = makeApp();
    const res = await f.app.inject({ method: 'GET', url: '/api/public/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });
  afterAll(async () => f?.close());

  it('is what docs/openapi.json holds, and that file and the client types are up to date (npm run openapi)', async () => {
    const text = documentText();
    expect(JSON.parse(text)).toEqual(doc);
    expect(readFileSync(DOCUMENT_FILE, 'utf8'), 'docs/openapi.json is stale: run npm run openapi').toBe(text);
    expect(readFileSync(TYPES_FILE, 'utf8'), 'src/client/api-types.ts is stale: run npm run openapi').toBe(await typesText(text));
  });

  it('lists every operation of both APIs once, each with an operationId, a scope and every status it can answer', () => {
    const ops = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] as Json })),
    );
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(
      [
        'createOrder', 'listOrders', 'bulkCreateOrders', 'getOrder', 'updateOrder', 'cancelOrder', 'getOrderEvents',
        'startPlanningJob', 'getPlanningJob', 'listRoutes', 'getRoute', 'getRouteTracking',
        'assignRouteVehicle', 'startRoute', 'setStopStatus', 'addVehiclePositions', 'listFleet', 'replanDay', 'markVehicleUnavailable', 'quoteOrder', 'getOpenApiDocument',
      ].sort(),
    );
    for (const { path, method, op } of ops) {
      const statuses = Object.keys(op.responses);
      if (op.operationId === 'getOpenApiDocument') {
        expect(op.security).toEqual([]);
        continue;
      }
      const label = `${method} ${path}`;
      expect(op.security, label).toEqual([{ ApiKey: [expect.stringMatching(/^[a-z]+:(read|write)$/)] }]);
      expect(statuses, label).toEqual(expect.arrayContaining(['400', '401', '403', '429']));
      if (op.requestBody) expect(statuses, label).toContain('413');
      if (path.includes('{id}')) expect(statuses, label).toContain('404');
      if (method !== 'get') expect(statuses, label).toEqual(expect.arrayContaining(['500', '503']));
      expect(statuses.filter((s) => s.startsWith('2')).length, label).toBeGreaterThan(0);
      expect(statuses, label).not.toContain('405');
    }
    // 405 only as documentation: never an operation
    expect(doc.paths['/api/public/v1/planning/jobs/'].get).toBeUndefined();
    expect(doc.paths['/api/public/v1/planning/jobs/']['x-methods-not-allowed']).toEqual(['GET', 'PUT', 'PATCH', 'DELETE']);
    expect(doc.paths['/api/public/v1/orders/{id}/'].put).toBeUndefined();
    expect(doc.paths['/api/public/v1/orders/{id}/'].delete).toBeUndefined();
    expect(doc.paths['/api/public/v1/orders/{id}/']['x-methods-not-allowed']).toEqual(['POST', 'PUT', 'DELETE']);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/internal/v1/'))).toHaveLength(8);
  });

  it('answers: named schemas, closed, every field always sent required; 429 carries Retry-After and RateLimit-*', () => {
    const schemas = doc.components.schemas as Json;
    for (const name of ['Order', 'PlanningJob', 'PlanningJobResult', 'RouteListItem', 'Route', 'Stop', 'Tracking', 'BulkResult', 'OrderHistory', 'StopStatusResult']) {
      const s = schemas[name];
      expect(s.additionalProperties, name).toBe(false);
      expect([...s.required].sort(), name).toEqual(Object.keys(s.properties).sort());
    }
    const tooMany = doc.components.responses.TooManyRequests;
    expect(Object.keys(tooMany.headers)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    expect(doc.components.headers['Retry-After'].required).toBe(true);
    const scheme = doc.components.securitySchemes.ApiKey;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(scheme.description).toContain('Api-Key <key>');
  });

  it('Redocly lint with redocly.yaml: 0 errors, 0 warnings (offline, no telemetry)', () => {
    // the fresh document, linted beside copies of the checked-in config and ignore list
    const dir = mkdtempSync(join(tmpdir(), 'dp-redocly-'));
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'openapi.json'), documentText());
      cpSync(join(root, 'redocly.yaml'), join(dir, 'redocly.yaml'));
      cpSync(join(root, '.redocly.lint-ignore.yaml'), join(dir, '.redocly.lint-ignore.yaml'));
      const r = spawnSync(
        process.execPath,
        [join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'lint', '--config', 'redocly.yaml', '--format', 'json', 'docs/openapi.json'],
        {
          cwd: dir,
          encoding: 'utf8',
          timeout: 120_000,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        },
      );
      const out = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number; ignored: number }; problems: unknown[] };
      expect(out.problems, r.stderr.slice(-2000)).toEqual([]);
      expect(out.totals).toEqual({ errors: 0, warnings: 0, ignored: 1 });
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
