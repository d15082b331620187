import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatusChanged } from '../../src/service/events.js';
import { BACKENDS } from '../e2e/backends.js';
import { makeAppOn } from './fixture.js';
import { appServices } from '../../src/http/app.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let f: Awaited<ReturnType<typeof makeAppOn>>;
  beforeEach(async () => {
    f = await makeAppOn(kind, { geocoding: false });
  });
  afterEach(async () => {
    await f.close();
  });

  async function create(body: Record<string, unknown> = {}) {
    const r = await f.inject('POST', '/orders/', { address: 'Main 1', external_id: 'DOC', ...body });
    return r.json() as Record<string, unknown> & { id: number };
  }

  /** Moves an order out of `new` the way planning will (store-level transition). */
  async function dispatch(id: number) {
    await f.port.orders.transition(f.company.id, id, ['new'], 'in_route', new Date().toISOString());
  }

  describe('PATCH /orders/{id}/ (4.4)', () => {
    it('applies every changeable field and answers 200 with the updated order', async () => {
      const o = await create();
      const r = await f.inject('PATCH', `/orders/${o.id}/`, {
        name: 'N', recipient: 'R', phone: '123', address: 'Other 2', lat: '52.1', lon: 13.2, time_window_start: '08:00',
        time_window_end: '10:00', weight: 3, volume: 0.5, service_time: 20, notes: 'x', delivery_date: '2030-05-06', order_type: 'recurring',
      });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({
        id: o.id, external_id: 'DOC', status: 'new', name: 'N', recipient: 'R', phone: '123', address: 'Other 2', lat: '52.100000',
        lon: '13.200000', time_window_start: '08:00:00', time_window_end: '10:00:00', weight: '3.000', volume: '0.500', service_time: 20,
        notes: 'x', delivery_date: '2030-05-06', order_type: 'recurring', created_at: o.created_at,
      });
      const again = (await f.inject('GET', `/orders/${o.id}/`)).json();
      expect(again).toEqual(r.json());
    });

    it('refuses an empty body, read-only and unknown fields, naming them', async () => {
      const o = await create();
      for (const body of [{}, undefined]) {
        const r = await f.inject('PATCH', `/orders/${o.id}/`, body);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toEqual({ detail: 'No mutable fields were supplied.' });
      }
      for (const field of ['id', 'external_id', 'status', 'created_at', 'updated_at']) {
        const r = await f.inject('PATCH', `/orders/${o.id}/`, { [field]: 'x', name: 'ok' });
        expect(r.statusCode, field).toBe(400);
        expect(r.json()).toEqual({ [field]: ['This field is read-only.'] });
      }
      const unknown = await f.inject('PATCH', `/orders/${o.id}/`, { colour: 'red' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ colour: ['Unknown field.'] });
      const invalid = await f.inject('PATCH', `/orders/${o.id}/`, { service_time: 500, address: '' });
      expect(invalid.json()).toEqual({ service_time: ['Ensure this value is less than or equal to 240.'], address: ['This field may not be blank.'] });
      const list = await f.inject('PATCH', `/orders/${o.id}/`, '[1]');
      expect(list.statusCode).toBe(400);
      expect(list.json().detail).toMatch(/Expected a JSON object/);
      // nothing was changed by the refused requests
      expect((await f.inject('GET', `/orders/${o.id}/`)).json()).toMatchObject({ name: '', service_time: 10, address: 'Main 1' });
    });

    it('validates lat/lon together with the stored values', async () => {
      const bare = await create({ external_id: 'B' });
      const onlyLat = await f.inject('PATCH', `/orders/${bare.id}/`, { lat: 52.5 });
      expect(onlyLat.statusCode).toBe(400);
      expect(onlyLat.json()).toEqual({ lat: ['lat and lon must both be set or both be null (the stored lon is null).'] });

      const placed = await create({ external_id: 'P', lat: 52.5, lon: 13.4 });
      const moveLat = await f.inject('PATCH', `/orders/${placed.id}/`, { lat: 52.6 });
      expect(moveLat.statusCode).toBe(200);
      expect(moveLat.json()).toMatchObject({ lat: '52.600000', lon: '13.400000' });
      const nullOne = await f.inject('PATCH', `/orders/${placed.id}/`, { lon: null });
      expect(nullOne.statusCode).toBe(400);
      expect(nullOne.json()).toEqual({ lon: ['lat and lon must both be set or both be null (the stored lat is set).'] });
      const mixed = await f.inject('PATCH', `/orders/${placed.id}/`, { lat: null, lon: 13 });
      expect(mixed.statusCode).toBe(400);
      expect(mixed.json()).toEqual({ lat: ['lat and lon must be sent together.'], lon: ['lat and lon must be sent together.'] });
      const reset = await f.inject('PATCH', `/orders/${placed.id}/`, { lat: null, lon: null });
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toMatchObject({ lat: null, lon: null });
      const zero = await f.inject('PATCH', `/orders/${placed.id}/`, { lat: 0, lon: 0 });
      expect(zero.json()).toMatchObject({ lat: null, lon: null });
    });

    it('checks the time window against the stored bounds', async () => {
      const o = await create({ time_window_start: '10:00:00', time_window_end: '12:00:00' });
      const bad = await f.inject('PATCH', `/orders/${o.id}/`, { time_window_end: '09:00' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ time_window_end: ['time_window_end must be later than time_window_start.'] });
      const ok = await f.inject('PATCH', `/orders/${o.id}/`, { time_window_start: '08:00', time_window_end: '09:00' });
      expect(ok.json()).toMatchObject({ time_window_start: '08:00:00', time_window_end: '09:00:00' });
      const open = await f.inject('PATCH', `/orders/${o.id}/`, { time_window_start: null });
      expect(open.json()).toMatchObject({ time_window_start: null, time_window_end: '09:00:00' });
    });

    it('answers 409 with the contract text when the order is not new, 404 for unknown or foreign ids', async () => {
      const o = await create();
      await dispatch(o.id);
      const r = await f.inject('PATCH', `/orders/${o.id}/`, { name: 'late' });
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ detail: 'Order can no longer be updated because it has been dispatched.' });
      const mine = await create({ external_id: 'M' });
      for (const [id, key] of [[999999, f.key], [mine.id, f.otherKey], ['abc', f.key], ['99999999999999999999', f.key]] as const) {
        const nf = await f.inject('PATCH', `/orders/${id}/`, { name: 'x' }, key);
        expect(nf.statusCode).toBe(404);
        expect(nf.json()).toEqual({ detail: 'Not found.' });
      }
    });
  });

  describe('POST /orders/{id}/cancel/ (4.5) and history (4.10)', () => {
    it('archives a new order: 200 with the order, a history entry and an order.status_changed event', async () => {
      const events: OrderStatusChanged[] = [];
      appServices(f.app).events.on('order.status_changed', (e) => events.push(e));
      const o = await create();
      const r = await f.inject('POST', `/orders/${o.id}/cancel/`);
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ id: o.id, status: 'archived', external_id: 'DOC' });
      expect(events).toEqual([
        { company_id: f.company.id, order_id: o.id, external_id: 'DOC', status: 'archived', previous_status: 'new', at: r.json().updated_at },
      ]);

      const h = await f.inject('GET', `/orders/${o.id}/events/`);
      expect(h.statusCode).toBe(200);
      expect(h.json()).toEqual({
        order_id: o.id,
        external_id: 'DOC',
        current_status: 'archived',
        events: [
          { status: 'new', previous_status: null, at: o.created_at },
          { status: 'archived', previous_status: 'new', at: r.json().updated_at },
        ],
      });

      const again = await f.inject('POST', `/orders/${o.id}/cancel/`);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: 'Order can no longer be cancelled because it is already archived.' });
      const patch = await f.inject('PATCH', `/orders/${o.id}/`, { name: 'x' });
      expect(patch.statusCode).toBe(409);
      expect(events).toHaveLength(1);
    });

    it('refuses to cancel an order in a route with 409', async () => {
      const o = await create();
      await dispatch(o.id);
      const r = await f.inject('POST', `/orders/${o.id}/cancel/`);
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ detail: 'Order can no longer be cancelled because it has been dispatched.' });
      const h = (await f.inject('GET', `/orders/${o.id}/events/`)).json();
      expect(h.current_status).toBe('in_route');
      expect(h.events.map((e: { status: string }) => e.status)).toEqual(['new', 'in_route']);
    });

    it('answers 404 for unknown and foreign orders on cancel and history', async () => {
      const o = await create();
      for (const path of [`/orders/${o.id}/cancel/`, '/orders/424242/cancel/']) {
        const key = path.includes(String(o.id)) ? f.otherKey : f.key;
        const r = await f.inject('POST', path, undefined, key);
        expect(r.statusCode).toBe(404);
        expect(r.json()).toEqual({ detail: 'Not found.' });
      }
      expect((await f.inject('GET', `/orders/${o.id}/events/`, undefined, f.otherKey)).statusCode).toBe(404);
      expect((await f.inject('GET', '/orders/0/events/')).statusCode).toBe(404);
      expect((await f.inject('GET', `/orders/${o.id}/`, undefined, f.otherKey)).statusCode).toBe(404);
      // the foreign attempt changed nothing
      expect((await f.inject('GET', `/orders/${o.id}/`)).json().status).toBe('new');
    });

    it('history of an order without external_id has external_id null', async () => {
      const o = (await f.inject('POST', '/orders/', { address: 'x' })).json();
      expect((await f.inject('GET', `/orders/${o.id}/events/`)).json()).toMatchObject({ external_id: null, current_status: 'new' });
    });
  });

  describe('405 on methods the contract does not allow', () => {
    it('PUT and DELETE on orders, and other wrong methods, give 405 with an Allow header', async () => {
      const o = await create();
      const cases: [string, string, string][] = [
        ['PUT', `/orders/${o.id}/`, 'GET, PATCH'],
        ['DELETE', `/orders/${o.id}/`, 'GET, PATCH'],
        ['PUT', '/orders/', 'GET, POST'],
        ['DELETE', '/orders/', 'GET, POST'],
        ['PATCH', '/orders/', 'GET, POST'],
        ['GET', '/orders/bulk/', 'POST'],
        ['DELETE', '/orders/bulk/', 'POST'],
        ['GET', `/orders/${o.id}/cancel/`, 'POST'],
        ['POST', `/orders/${o.id}/events/`, 'GET'],
        ['POST', `/orders/${o.id}/`, 'GET, PATCH'],
      ];
      for (const [method, path, allow] of cases) {
        const r = await f.inject(method, path, method === 'GET' ? undefined : { address: 'x' });
        expect(r.statusCode, `${method} ${path}`).toBe(405);
        expect(r.json()).toEqual({ detail: `Method "${method}" not allowed.` });
        expect(r.headers.allow).toBe(allow);
      }
      expect((await f.inject('GET', `/orders/${o.id}/`)).json().status).toBe('new');
    });

    it('accepts paths with and without the trailing slash', async () => {
      const o = await create();
      expect((await f.inject('GET', `/orders/${o.id}`)).statusCode).toBe(200);
      expect((await f.inject('GET', '/orders')).statusCode).toBe(200);
      expect((await f.inject('POST', `/orders/${o.id}/cancel`)).statusCode).toBe(200);
    });
  });
});
