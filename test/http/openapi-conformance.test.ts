/**
 * Every operation of the OpenAPI document against the real server (`delivery-planner serve`, a
 * child process on 127.0.0.1 with its own SQLite file), over real HTTP, its successes and its
 * errors: each answer is checked by test/helpers/openapi-conformance.ts (the status documented for
 * the operation, the body valid against its schema, the required headers there). At the end every
 * operation has been answered with a 2xx and a 4xx, and every kind of status of the document
 * (400, 401, 403, 404, 405, 409, 413, 429, 503) was seen and checked.
 */
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../src/http/openapi.js';
import { Store } from '../../src/store/sqlite/store.js';
import { SCOPES } from '../../src/store/types.js';
import { seedDb, sleep, startServe, type Served } from '../e2e/serve.js';
import { conformance } from '../helpers/openapi-conformance.js';

const P = '/api/public/v1';
const I = '/api/internal/v1';
const DATE = '2026-12-01';
const RATE_LIMIT = 300;

interface Sent {
  key?: string | null;
  /** Sent as is (not JSON-encoded): malformed JSON, oversized bodies. */
  raw?: string;
  headers?: Record<string, string>;
}

/** A request that declares a body of `length` bytes and sends none; the answer as a Response. */
function declaredOnly(url: string, method: string, headers: Record<string, string>, length: number): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, 'content-length': String(length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve(new Response(Buffer.concat(chunks).toString('utf8'), { status: res.statusCode, headers: out }));
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('live answers of the real server conform to the OpenAPI document', () => {
  let seeded: ReturnType<typeof seedDb>;
  let server: Served;
  let noScopeKey: string;
  let throttledKey: string;
  let sweepKey: string;
  let inactiveVehicle: number;
  const checker = conformance();

  async function call(method: string, path: string, body?: unknown, sent: Sent = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const key = sent.key === undefined ? seeded.key : sent.key;
    const payload = sent.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const headers: Record<string, string> = {
      ...(key === null ? {} : { authorization: `Api-Key ${key}` }),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...sent.headers,
    };
    // a body over a route's limit is refused from its Content-Length alone, and the connection
    // closed: declare it and send none of it, so the client is never caught writing into a
    // closed socket (fetch then failed with EPIPE under load)
    const res = payload !== undefined && payload.length > 60_000 ? await declaredOnly(server.base + path, method, headers, payload.length) : await fetch(server.base + path, { method, headers, body: payload });
    const text = await res.text();
    const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
    checker.check({ method, url: path, status: res.status, headers: res.headers, body: parsed, requestBody: sent.raw === undefined ? body : undefined });
    return { status: res.status, body: parsed, headers: res.headers };
  }

  beforeAll(async () => {
    seeded = seedDb({ vehicles: 2 });
    const store = Store.open(seeded.db);
    const now = new Date().toISOString();
    noScopeKey = store.apiKeys.create({ company_id: seeded.company.id, scopes: [] }, now).key;
    throttledKey = store.apiKeys.create({ company_id: seeded.company.id, scopes: ['orders:read'] }, now).key;
    sweepKey = store.apiKeys.create({ company_id: seeded.company.id, scopes: [...SCOPES] }, now).key;
    inactiveVehicle = store.vehicles.create(
      {
        company_id: seeded.company.id, warehouse_id: seeded.warehouse.id, name: 'Van in the workshop', capacity_kg: 800, capacity_m3: 6,
        shift_start: null, shift_end: null, max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: false,
      },
      now,
    ).id;
    store.close();
    server = await startServe(seeded.db, ['--rate-limit', String(RATE_LIMIT), '--geocoder', 'none', '--job-time-limit', '1', '--workers', '1']);
  });
  afterAll(async () => {
    if (server) expect(await server.kill('SIGTERM')).toBe(0);
    if (seeded) rmSync(seeded.dir, { recursive: true, force: true });
  });

  /** Ids the flow made, for the path parameter of each operation. */
  const ids: Record<string, number> = {};
  const ID_OF: Record<string, string> = {
    getOrder: 'order', updateOrder: 'order', cancelOrder: 'order', getOrderEvents: 'order', getPlanningJob: 'job',
    getRoute: 'route', getRouteTracking: 'route', assignRouteVehicle: 'route', startRoute: 'route', setStopStatus: 'stop', addVehiclePositions: 'vehicle',
  };
  const concrete = (path: string, operationId: string) => path.replace('{id}', String(ids[ID_OF[operationId] ?? ''] ?? 999_999));
  /** A body each operation takes, so that the id is what decides (404). */
  const VALID_BODY: Record<string, unknown> = {
    updateOrder: { notes: 'x' }, cancelOrder: {}, assignRouteVehicle: { vehicle_id: 1 }, startRoute: {}, setStopStatus: { status: 'visited' },
    addVehiclePositions: { lat: 52.5, lon: 13.4 },
  };

  it('the document itself, without a key', async () => {
    const r = await call('GET', `${P}/openapi.json`, undefined, { key: null });
    expect(r.status).toBe(200);
  });

  it('orders: create, exists, bulk, list, get, patch, events, cancel, and their errors', async () => {
    const order = { external_id: 'C-1', address: 'Alexanderplatz 1, Berlin', lat: '52.521', lon: 13.413, delivery_date: DATE, weight: 2.5, time_window_start: '09:00', time_window_end: '12:00' };
    const created = await call('POST', `${P}/orders/`, order);
    expect(created.status).toBe(201);
    ids.order = created.body.id;
    expect((await call('POST', `${P}/orders/`, order)).status).toBe(200);
    expect((await call('POST', `${P}/orders/`, { address: '', service_time: 999, extra: 1 })).status).toBe(400);
    expect((await call('POST', `${P}/orders/`, [1])).status).toBe(400);

    const items = Array.from({ length: 6 }, (_, i) => ({ external_id: `C-${i + 2}`, address: `Street ${i + 2}, Berlin`, lat: 52.5 + i / 100, lon: 13.4, delivery_date: DATE, volume: '0.1' }));
    const bulk = await call('POST', `${P}/orders/bulk/`, [...items, { address: ' ' }, 'not an order', { external_id: 'C-1', address: 'x' }]);
    expect(bulk.status).toBe(200);
    expect(bulk.body.summary).toEqual({ created: 6, existing: 1, failed: 2 });
    expect((await call('POST', `${P}/orders/bulk/`, [])).status).toBe(400);

    expect((await call('GET', `${P}/orders/?page_size=2&status=new`)).status).toBe(200);
    expect((await call('GET', `${P}/orders/?page=99`)).status).toBe(404);
    expect((await call('GET', `${P}/orders/?status=lost&page=0`)).status).toBe(400);
    expect((await call('GET', `${P}/orders/${ids.order}/`)).status).toBe(200);
    expect((await call('GET', `${P}/orders/%zz/`)).status).toBe(400);
    expect((await call('PATCH', `${P}/orders/${ids.order}/`, { notes: 'ring twice', weight: '3' })).status).toBe(200);
    expect((await call('PATCH', `${P}/orders/${ids.order}/`, {})).status).toBe(400);
    expect((await call('PATCH', `${P}/orders/${ids.order}/`, { status: 'confirmed', lat: null })).status).toBe(400);
    expect((await call('GET', `${P}/orders/${ids.order}/events/`)).status).toBe(200);

    const spare = (await call('POST', `${P}/orders/`, { address: 'Spare 1, Berlin', delivery_date: DATE })).body.id as number;
    expect((await call('POST', `${P}/orders/${spare}/cancel/`)).status).toBe(200);
    expect((await call('POST', `${P}/orders/${spare}/cancel/`)).status).toBe(409);
    expect((await call('PATCH', `${P}/orders/${spare}/`, { notes: 'x' })).status).toBe(409);
  });

  it('planning: accepted, replayed, refused, polled; routes and tracking', async () => {
    const request = { external_ids: ['C-1', 'C-2', 'C-3', 'C-4', 'C-5', 'C-6', 'C-7'] };
    const started = await call('POST', `${P}/planning/jobs/`, request, { headers: { 'idempotency-key': 'conformance-1' } });
    expect(started.status).toBe(202);
    ids.job = started.body.job_id;
    expect((await call('POST', `${P}/planning/jobs/`, request, { headers: { 'idempotency-key': 'conformance-1' } })).status).toBe(200);
    expect((await call('POST', `${P}/planning/jobs/`, { order_ids: [ids.order] }, { headers: { 'idempotency-key': 'conformance-1' } })).status).toBe(409);
    expect((await call('POST', `${P}/planning/jobs/`, { order_ids: [999_999] })).status).toBe(400);
    expect((await call('POST', `${P}/planning/jobs/`, { order_ids: 'all', colour: 'red' })).status).toBe(400);
    expect((await call('POST', `${P}/planning/jobs/`, {}, { headers: { 'idempotency-key': 'two words' } })).status).toBe(400);

    let job: any;
    for (let i = 0; i < 600; i++) {
      job = (await call('GET', `${P}/planning/jobs/${ids.job}/`)).body;
      if (job.status === 'done' || job.status === 'failed') break;
      await sleep(250);
    }
    expect(job.status).toBe('done');
    expect(job.result.route_ids.length).toBeGreaterThan(0);
    ids.route = job.result.route_ids[0];

    expect((await call('GET', `${P}/routes/?date=${DATE}&status=planned`)).status).toBe(200);
    expect((await call('GET', `${P}/routes/?date=tomorrow`)).status).toBe(400);
    expect((await call('GET', `${P}/routes/?page=99`)).status).toBe(404);
    const route = await call('GET', `${P}/routes/${ids.route}/`);
    expect(route.status).toBe(200);
    ids.stop = route.body.stops.find((s: any) => s.stop_type === 'order').id;
    expect((await call('GET', `${P}/routes/${ids.route}/tracking/`)).body.last_position).toBeNull();
  });

  it('dispatch: assign, start, stop status, positions, and their errors; tracking with a position', async () => {
    ids.vehicle = seeded.vehicles[0]!.id;
    expect((await call('POST', `${I}/routes/${ids.route}/vehicle`, { vehicle_id: ids.vehicle })).status).toBe(200);
    expect((await call('POST', `${I}/routes/${ids.route}/vehicle`, { vehicle_id: 'one' })).status).toBe(400);
    expect((await call('POST', `${I}/routes/${ids.route}/vehicle`, { vehicle_id: 999_999 })).status).toBe(404);
    expect((await call('POST', `${I}/routes/${ids.route}/vehicle`, { vehicle_id: inactiveVehicle })).status).toBe(409);
    expect((await call('POST', `${I}/routes/${ids.route}/start`)).status).toBe(200);
    expect((await call('POST', `${I}/routes/${ids.route}/start`)).status).toBe(409);
    expect((await call('POST', `${I}/routes/${ids.route}/start`, { at: 'noon' })).status).toBe(400);
    expect((await call('POST', `${I}/stops/${ids.stop}/status`, { status: 'confirmed', at: new Date().toISOString() })).status).toBe(200);
    expect((await call('POST', `${I}/stops/${ids.stop}/status`, { status: 'in_progress' })).status).toBe(409);
    expect((await call('POST', `${I}/stops/${ids.stop}/status`, { status: 'lost' })).status).toBe(400);
    const position = { lat: 52.52, lon: '13.40', speed_kmh: 30, heading_deg: 90, timestamp: new Date(Date.now() - 60_000).toISOString() };
    expect((await call('POST', `${I}/vehicles/${ids.vehicle}/positions`, position)).status).toBe(201);
    expect((await call('POST', `${I}/vehicles/${ids.vehicle}/positions`, [position, { lat: 52.5, lon: 13.41 }])).status).toBe(201);
    expect((await call('POST', `${I}/vehicles/${ids.vehicle}/positions`, { lat: 95, lon: 13 })).status).toBe(400);
    expect((await call('POST', `${I}/vehicles/999999/positions`, position)).status).toBe(404);
    const tracking = await call('GET', `${P}/routes/${ids.route}/tracking/`);
    expect(tracking.body.last_position).toMatchObject({ lat: 52.5, lon: 13.41 });
    expect(tracking.body.progress.completed).toBe(1);
  });

  it('the day: a re-plan, a van out of service, a quote, and their errors', async () => {
    expect((await call('POST', `${I}/planning/quote`, { date: DATE, lat: 52.5, lon: 13.4, weight: 1 })).status).toBe(200);
    expect((await call('POST', `${I}/planning/quote`, { date: DATE, lat: 95, lon: 13.4 })).status).toBe(400);
    // the vans with a route that day answer 202, the others 409
    const outs = [];
    for (const v of seeded.vehicles) outs.push((await call('POST', `${I}/vehicles/${v.id}/unavailable`, { from: `${DATE}T07:00:00+01:00` })).status);
    expect(outs).toContain(202);
    expect((await call('POST', `${I}/vehicles/999999/unavailable`, {})).status).toBe(404);
    expect((await call('POST', `${I}/planning/replan`, { date: DATE })).status).toBe(202);
    expect((await call('POST', `${I}/planning/replan`, { date: 'tomorrow' })).status).toBe(400);
    // the vans of the date, each with its route
    expect((await call('GET', `${I}/vehicles/?date=${DATE}`)).status).toBe(200);
    expect((await call('GET', `${I}/vehicles/?date=tomorrow`)).status).toBe(400);
  });

  it('every operation: 401 without a key, 403 without the scope, 400 for an unknown query parameter, malformed JSON and 413 where a body is read, 404 for an unknown id, 405 for the other methods', async () => {
    const doc = checker.doc;
    for (const op of listOperations()) {
      if (op.scope === null) continue;
      const path = concrete(op.path, op.operationId);
      const key = sweepKey;
      expect((await call(op.method, path, undefined, { key: null })).status, `${op.operationId} 401`).toBe(401);
      expect((await call(op.method, path, undefined, { key: 'dpk_not-a-key-at-all-00000000000000000000000' })).status).toBe(401);
      expect((await call(op.method, path, undefined, { key: noScopeKey })).status, `${op.operationId} 403`).toBe(403);
      expect((await call(op.method, `${path}?unknown=1`, undefined, { key })).status, `${op.operationId} 400`).toBe(400);
      if (op.path.includes('{id}')) {
        const r = await call(op.method, op.path.replace('{id}', '999999'), VALID_BODY[op.operationId], { key });
        expect(r.status, `${op.operationId} 404`).toBe(404);
      }
      const item = doc.paths[op.path];
      if (item[op.method.toLowerCase()].requestBody) {
        expect((await call(op.method, path, undefined, { key, raw: '{"address": ' })).status, `${op.operationId} malformed`).toBe(400);
        const limit = Number(/over (\d+) KiB/.exec(item[op.method.toLowerCase()].responses['413'].description)![1]) * 1024;
        expect((await call(op.method, path, undefined, { key, raw: JSON.stringify({ notes: 'x'.repeat(limit) }) })).status, `${op.operationId} 413`).toBe(413);
      }
    }
    for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
      for (const method of item['x-methods-not-allowed'] ?? []) {
        const r = await call(method, path.replace('{id}', '1'), undefined, { key: sweepKey });
        expect(r.status, `${method} ${path}`).toBe(405);
      }
    }
  });

  it('503 with Retry-After on every write when another process holds the write lock', async () => {
    const spare = (await call('POST', `${P}/orders/`, { external_id: 'LOCK-1', address: 'Spare 2, Berlin', lat: 52.5, lon: 13.4, delivery_date: DATE })).body.id as number;
    const holder = Store.open(seeded.db);
    try {
      holder.db.exec('BEGIN IMMEDIATE');
      for (const [method, path, body] of [
        ['POST', `${P}/orders/`, { address: 'Locked 1, Berlin' }],
        ['POST', `${P}/orders/bulk/`, [{ address: 'Locked 2, Berlin' }]],
        ['PATCH', `${P}/orders/${spare}/`, { notes: 'locked' }],
        ['POST', `${P}/orders/${spare}/cancel/`, undefined],
        ['POST', `${P}/planning/jobs/`, { order_ids: [spare] }],
        ['POST', `${I}/routes/${ids.route}/vehicle`, { vehicle_id: seeded.vehicles[1]!.id }],
        ['POST', `${I}/routes/${ids.route}/start`, undefined],
        ['POST', `${I}/stops/${ids.stop}/status`, { status: 'confirmed' }],
        ['POST', `${I}/vehicles/${ids.vehicle}/positions`, { lat: 52.5, lon: 13.4 }],
      ] as const) {
        const r = await call(method, path, body);
        expect(r.status, `${method} ${path}`).toBe(503);
        expect(r.headers.get('retry-after')).toBe('1');
      }
    } finally {
      holder.db.exec('ROLLBACK');
      holder.close();
    }
    expect((await call('GET', `${P}/orders/?external_id=`)).status).toBe(200);
  });

  it('429 with Retry-After and RateLimit-* past the request limit of a key, on every operation', async () => {
    let throttled = 0;
    for (let i = 0; i < RATE_LIMIT * 3 && throttled === 0; i++) {
      const r = await call('GET', `${P}/orders/?page_size=1`, undefined, { key: throttledKey });
      if (r.status === 429) throttled++;
    }
    expect(throttled).toBe(1);
    let refused = 0;
    for (const op of listOperations()) {
      if (op.scope === null) continue;
      // a token refilled meanwhile lets one through (403: the key has no other scope); checked all the same
      const r = await call(op.method, concrete(op.path, op.operationId), undefined, { key: throttledKey });
      if (r.status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
  });

  it('covered every operation with a 2xx and a 4xx, and every kind of status', () => {
    const statuses = new Set<number>();
    for (const [, seen] of checker.covered) for (const s of seen) statuses.add(s);
    for (const s of [200, 201, 202, 400, 401, 403, 404, 405, 409, 413, 429, 503]) expect(statuses.has(s), `status ${s}`).toBe(true);
    expect(checker.uncovered()).toEqual([]);
    for (const id of checker.operationIds()) {
      const seen = [...checker.covered.get(id)!];
      expect(seen.some((s) => s < 300), `${id}: ${seen}`).toBe(true);
      if (id !== 'getOpenApiDocument') expect(seen.some((s) => s >= 400 && s < 500), `${id}: ${seen}`).toBe(true);
    }
  });
});
