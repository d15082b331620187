/**
 * The whole client flow of section 1 of the contract against the real server (a `serve` child
 * process on 127.0.0.1 port 0, on a temp SQLite file and on a PostgreSQL database of its own) and a
 * real local webhook receiver:
 * upload, geocode, plan, wait for the event (and poll), read routes, confirm a delivery through
 * the dispatch API, receive the status event.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/signature.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { BACKENDS, makeBackend, seedBackend, type Backend } from './backends.js';
import { client, startServe, until, type Served } from './serve.js';

const addressBook = fileURLToPath(new URL('../../data/demo/addresses.csv', import.meta.url));
const ADDRESSES = readFileSync(addressBook, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => /^"(.*)",[-\d.]+,[-\d.]+$/.exec(line)?.[1] ?? line.split(',')[0]!);
const DATE = '2026-12-01';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`the client flow of section 1 against the real server (${kind})`, () => {
  let receiver: WebhookReceiver;
  let backend: Backend;
  let seeded: Awaited<ReturnType<typeof seedBackend>>;
  let server: Served;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    backend = await makeBackend(kind);
    seeded = await seedBackend(backend, { vehicles: 3, webhookUrl: receiver.url });
    server = await startServe(backend.db, ['--job-time-limit', '1', '--workers', '1', '--webhook-retry-delays', '200,400,800']);
    call = client(server.base, seeded.key);
  });
  afterAll(async () => {
    if (server) expect(await server.kill('SIGTERM')).toBe(0);
    await receiver?.close();
    await backend?.cleanup();
  });

  const events = (name: string) =>
    receiver.received.map((r) => ({ raw: r, body: JSON.parse(r.body) })).filter((e) => e.body.event === name);

  it('upload -> geocode -> plan -> event -> routes -> confirm -> status event', async () => {
    // 1. bulk upload for the next day, external_id = the client's document number
    const orders = ADDRESSES.slice(0, 24).map((address, i) => ({
      external_id: `INV-${1000 + i}`,
      address,
      delivery_date: DATE,
      weight: (5 + (i % 7) * 2.5).toFixed(1),
      volume: '0.08',
      ...(i % 4 === 0 ? { time_window_start: '09:00', time_window_end: '12:00' } : {}),
    }));
    orders.push({ external_id: 'INV-UNKNOWN', address: 'Nirgendwo 1, 99999 Nowhere', delivery_date: DATE, weight: '1', volume: '0.01' });
    orders.push({ external_id: 'INV-BAD', address: '   ', delivery_date: DATE, weight: '1', volume: '0.01' });
    const bulk = await call('POST', '/api/public/v1/orders/bulk/', orders);
    expect(bulk.status).toBe(200);
    expect(bulk.body.summary).toEqual({ created: 25, existing: 0, failed: 1 });
    expect(bulk.body.results[25]).toMatchObject({ index: 25, status: 'error', id: null, errors: { address: [expect.any(String)] } });
    const idOf = new Map<string, number>(bulk.body.results.filter((r: any) => r.id).map((r: any) => [r.external_id, r.id]));

    // 2. later, check that lat and lon are filled (the unknown address stays empty)
    const listed = await until(async () => {
      const page = await call('GET', '/api/public/v1/orders/?page_size=200');
      const filled = page.body.results.filter((o: any) => o.lat !== null && o.lon !== null);
      return filled.length === 24 ? page.body.results : undefined;
    });
    expect(listed.find((o: any) => o.external_id === 'INV-UNKNOWN').lat).toBeNull();

    // 3. start a planning job with external_ids; keep job_id
    const started = await call('POST', '/api/public/v1/planning/jobs/', { external_ids: [...idOf.keys()] });
    expect(started.status).toBe(202);
    expect(started.body.status).toBe('queued');
    const jobId = started.body.job_id as number;
    expect(started.body.input.order_ids).toEqual([...idOf.values()].sort((a, b) => a - b));

    // 4. wait for planning_job.finished (and poll: both agree)
    const finished = await until(async () => events('planning_job.finished').find((e) => e.body.data.job_id === jobId));
    expect(verifySignature(seeded.webhook!.secret, String(finished.raw.headers['x-planner-signature']), finished.raw.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(finished.raw.headers['x-planner-delivery-id']).toBe(finished.body.id);
    const polled = await call('GET', `/api/public/v1/planning/jobs/${jobId}/`);
    expect(polled.body).toEqual(finished.body.data);
    expect(polled.body.status).toBe('done');

    // 5. placed + unassigned + dropped (no coordinates) = the input
    const result = polled.body.result;
    const routes = [];
    for (const id of result.route_ids) {
      const route = await call('GET', `/api/public/v1/routes/${id}/`);
      expect(route.status).toBe(200);
      routes.push(route.body);
    }
    const placed = routes.flatMap((r) => r.stops.filter((s: any) => s.stop_type === 'order'));
    const unassigned = result.unassigned.map((u: any) => u.order_id);
    const dropped = polled.body.input.order_ids.filter((id: number) => !placed.some((s: any) => s.order_id === id) && !unassigned.includes(id));
    expect(dropped).toEqual([idOf.get('INV-UNKNOWN')]);
    expect(placed.length + unassigned.length).toBe(24);

    // 6. each stop names the client's document number and the planned arrival
    for (const s of placed) {
      expect(idOf.get(s.order_external_id)).toBe(s.order_id);
      expect(s.planned_arrival_at).toMatch(/Z$/);
      expect(s.eta).toBe(s.planned_arrival_at);
    }
    const listedRoutes = await call('GET', `/api/public/v1/routes/?date=${DATE}&status=planned`);
    expect(listedRoutes.body.count).toBe(result.route_ids.length);

    // in_route announced for every placed order
    await until(async () => (events('order.status_changed').filter((e) => e.body.data.status === 'in_route').length >= placed.length ? true : undefined));

    // 7. the dispatcher assigns and starts a route, the driver confirms a delivery
    const route = routes[0];
    // (the API does not show which van a route was planned for: any van not yet assigned elsewhere
    // that day can be taken)
    const vanId = seeded.vehicles[0]!.id;
    const assigned = await call('POST', `/api/internal/v1/routes/${route.id}/vehicle`, { vehicle_id: vanId });
    expect(assigned.status).toBe(200);
    expect(assigned.body.has_vehicle).toBe(true);
    expect((await call('POST', `/api/internal/v1/routes/${route.id}/start`)).body.status).toBe('active');
    const stop = route.stops.find((s: any) => s.stop_type === 'order');
    const confirmed = await call('POST', `/api/internal/v1/stops/${stop.id}/status`, { status: 'confirmed' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('confirmed');

    const event = await until(async () =>
      events('order.status_changed').find((e) => e.body.data.order_id === stop.order_id && e.body.data.status === 'confirmed'),
    );
    expect(event.body.data).toEqual({ order_id: stop.order_id, external_id: stop.order_external_id, status: 'confirmed', previous_status: 'in_route', at: expect.stringMatching(/Z$/) });
    expect(verifySignature(seeded.webhook!.secret, String(event.raw.headers['x-planner-signature']), event.raw.body, Math.floor(Date.now() / 1000))).toBe(true);
    const history = await call('GET', `/api/public/v1/orders/${stop.order_id}/events/`);
    expect(history.body.events.map((e: any) => e.status)).toEqual(['new', 'in_route', 'confirmed']);

    // tracking after a position of the assigned vehicle
    const before = await call('GET', `/api/public/v1/routes/${route.id}/tracking/`);
    expect(before.body).toMatchObject({ route_id: route.id, status: 'active', progress: { completed: 1 }, last_position: null });
    const sent = await call('POST', `/api/internal/v1/vehicles/${vanId}/positions`, { lat: 52.5, lon: 13.41, timestamp: new Date().toISOString(), speed_kmh: 22.5, heading_deg: 180 });
    expect(sent.status).toBe(201);
    const after = await call('GET', `/api/public/v1/routes/${route.id}/tracking/`);
    expect(after.body.last_position).toMatchObject({ lat: 52.5, lon: 13.41, speed_kmh: 22.5, heading_deg: 180 });

    // every delivery id is unique (one per event and subscription)
    const ids = receiver.received.map((r) => r.headers['x-planner-delivery-id']);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
