/**
 * The typed client (`delivery-planner/client`, src/client.ts) against the real server: the example
 * of section 1 of the contract (examples/client-flow.ts: create, bulk, geocoding, plan, poll, routes
 * and stops, tracking) runs over HTTP on a `serve` child process, every answer also checked against
 * the OpenAPI document. The example and this file are type-checked by `npm test` (tsc), and hold no
 * `any`: the types come from the document.
 */
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClientFlow } from '../../examples/client-flow.js';
import { createPlannerClient, type Detail, type FieldErrors, type OrderInput, type PlannerClient } from '../../src/client.js';
import { seedDb, startServe, type Served } from '../e2e/serve.js';
import { conformance } from '../helpers/openapi-conformance.js';

const DATE = '2026-12-01';
const addressBook = fileURLToPath(new URL('../../data/demo/addresses.csv', import.meta.url));
const ADDRESSES = readFileSync(addressBook, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => /^"(.*)",[-\d.]+,[-\d.]+$/.exec(line)?.[1] ?? line.split(',')[0]!);

/** fetch that also checks each answer against the OpenAPI document. */
async function checkedFetch(request: Request): Promise<Response> {
  const sent = request.body === null ? undefined : (JSON.parse(await request.clone().text()) as unknown);
  const response = await fetch(request);
  const text = await response.clone().text();
  conformance().check({
    method: request.method,
    url: request.url,
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    requestBody: sent,
  });
  return response;
}

describe('the typed client against the real server', () => {
  let seeded: ReturnType<typeof seedDb>;
  let server: Served;
  let api: PlannerClient;

  beforeAll(async () => {
    seeded = seedDb({ vehicles: 2 });
    server = await startServe(seeded.db, ['--job-time-limit', '1', '--workers', '1']);
    api = createPlannerClient({ baseUrl: server.base, apiKey: seeded.key, fetch: checkedFetch });
  });
  afterAll(async () => {
    if (server) expect(await server.kill('SIGTERM')).toBe(0);
    if (seeded) rmSync(seeded.dir, { recursive: true, force: true });
  });

  it('runs the section-1 flow of the example: create, bulk, geocode, plan, poll, routes and stops, tracking', async () => {
    const orders: OrderInput[] = ADDRESSES.slice(0, 12).map((address, i) => ({
      external_id: `TC-${i + 1}`,
      address,
      delivery_date: DATE,
      weight: (2 + i).toFixed(1),
      volume: 0.05,
      ...(i % 3 === 0 ? { time_window_start: '09:00', time_window_end: '13:00' } : {}),
    }));
    orders.push({ external_id: 'TC-NOWHERE', address: 'Nirgendwo 1, 99999 Nowhere', delivery_date: DATE });
    orders.push({ external_id: 'TC-BLANK', address: '  ', delivery_date: DATE });

    const result = await runClientFlow(api, orders, { pollMs: 200, geocodeWaitMs: 45_000, expectLocated: 12 });

    expect(result.refused).toEqual(new Map([[13, { address: ['This field may not be blank.'] }]]));
    expect(result.ids.size).toBe(13);
    expect(result.unlocated).toEqual(['TC-NOWHERE']);
    expect(result.job.status).toBe('done');
    expect(result.dropped).toEqual([result.ids.get('TC-NOWHERE')]);
    const stops = result.routes.flatMap((r) => r.stops.filter((s) => s.stop_type === 'order'));
    expect(stops.length + result.job.result.unassigned.length).toBe(12);
    for (const stop of stops) {
      expect(result.ids.get(stop.order_external_id ?? '')).toBe(stop.order_id);
      expect(stop.planned_arrival_at).toMatch(/Z$/);
    }
    expect(result.tracking).toMatchObject({ route_id: result.routes[0]!.id, status: 'planned', last_position: null });
  });

  it('errors come back typed as the document describes them', async () => {
    const invalid = await api.POST('/api/public/v1/orders/', { body: { address: 'x', service_time: 999 } });
    expect(invalid.response.status).toBe(400);
    const fields: FieldErrors | Detail | undefined = invalid.error;
    expect(fields).toEqual({ service_time: ['Ensure this value is less than or equal to 240.'] });

    const missing = await api.GET('/api/public/v1/orders/{id}/', { params: { path: { id: 999_999 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ detail: 'Not found.' });

    const planning = await api.POST('/api/public/v1/planning/jobs/', { body: { order_ids: [999_999] } });
    expect(planning.response.status).toBe(400);
    expect(planning.error && 'detail' in planning.error ? planning.error.detail : undefined).toBe('Orders not found for this tenant: [999999].');

    const anonymous = createPlannerClient({ baseUrl: server.base, apiKey: 'dpk_wrong', fetch: checkedFetch });
    const refused = await anonymous.GET('/api/public/v1/routes/', {});
    expect(refused.response.status).toBe(401);
    expect(refused.error).toEqual({ detail: 'Invalid or revoked API key.' });

    // the dispatch API is in the same client
    const positions = await api.POST('/api/internal/v1/vehicles/{id}/positions', {
      params: { path: { id: seeded.vehicles[0]!.id } },
      body: [{ lat: 52.5, lon: 13.4 }, { lat: '52.51', lon: '13.41', speed_kmh: 20 }],
    });
    expect(positions.data).toEqual({ vehicle_id: seeded.vehicles[0]!.id, accepted: 2 });
  });

  it('the types are the document: wrong paths, bodies and fields do not compile, and the example holds no any', () => {
    // never called: tsc (npm test) checks each line fails to compile
    const typeChecks = (client: PlannerClient) => {
      // @ts-expect-error address is required
      void client.POST('/api/public/v1/orders/', { body: { name: 'no address' } });
      // @ts-expect-error GET on the planning jobs collection is 405: not an operation
      void client.GET('/api/public/v1/planning/jobs/', {});
      // @ts-expect-error a route's id is a number
      void client.GET('/api/public/v1/routes/{id}/', { params: { path: { id: 'seven' } } });
      void client.GET('/api/public/v1/routes/{id}/', { params: { path: { id: 7 } } }).then(({ data }) => {
        // @ts-expect-error routes carry no vehicle id
        void data?.vehicle_id;
        const km: string | undefined = data?.planned_mileage_km;
        return km;
      });
    };
    expect(typeof typeChecks).toBe('function');
    for (const file of ['../../examples/client-flow.ts', '../../src/client.ts']) {
      const text = readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8');
      expect(text, file).not.toMatch(/\bany\b(?![- ]?(?:case|ing))/);
      expect(text, file).not.toMatch(/as unknown as|@ts-ignore|@ts-expect-error/);
    }
  });
});
