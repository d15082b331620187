import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { makeAppOn } from './fixture.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let f: Awaited<ReturnType<typeof makeAppOn>>;
  beforeEach(async () => {
    f = await makeAppOn(kind, { geocoding: false });
  });
  afterEach(async () => {
    await f.close();
  });

  const ORDER_FIELDS = [
    'id', 'external_id', 'name', 'recipient', 'phone', 'address', 'lat', 'lon', 'time_window_start', 'time_window_end',
    'weight', 'volume', 'service_time', 'notes', 'order_type', 'status', 'delivery_date', 'created_at', 'updated_at',
  ];

  describe('POST /orders/ (4.1)', () => {
    it('creates an order with only an address: 201, defaults, status new, decimals as strings', async () => {
      const r = await f.inject('POST', '/orders/', { address: 'Main Street 1' });
      expect(r.statusCode).toBe(201);
      const o = r.json();
      expect(Object.keys(o).sort()).toEqual([...ORDER_FIELDS].sort());
      expect(o).toMatchObject({
        external_id: null, name: '', recipient: '', phone: '', address: 'Main Street 1', lat: null, lon: null,
        time_window_start: null, time_window_end: null, weight: '0.000', volume: '0.000', service_time: 10, notes: '',
        order_type: 'one_time', status: 'new',
      });
      expect(o.id).toBeTypeOf('number');
      expect(o.delivery_date).toBe(new Date().toISOString().slice(0, 10));
      expect(o.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(o.updated_at).toBe(o.created_at);
    });

    it('stores every field and serializes weight/volume with 3 and lat/lon with 6 decimals', async () => {
      const r = await f.inject('POST', '/orders/', {
        address: 'Main Street 2', external_id: 'DOC-2', name: 'Box', recipient: 'Ann Smith', phone: '+49 30 1234567',
        lat: 52.52, lon: '13.4050004', time_window_start: '09:00', time_window_end: '12:30:15', weight: 12.5, volume: '0.0305',
        service_time: 0, notes: 'ring twice', order_type: 'recurring', delivery_date: '2027-01-31',
      });
      expect(r.statusCode).toBe(201);
      expect(r.json()).toMatchObject({
        external_id: 'DOC-2', name: 'Box', recipient: 'Ann Smith', phone: '+49 30 1234567', lat: '52.520000', lon: '13.405000',
        time_window_start: '09:00:00', time_window_end: '12:30:15', weight: '12.500', volume: '0.031', service_time: 0,
        notes: 'ring twice', order_type: 'recurring', delivery_date: '2027-01-31',
      });
    });

    it('defaults delivery_date to today in the company timezone', async () => {
      const g = await makeAppOn(kind, { timezone: 'Pacific/Kiritimati', geocoding: false });
      try {
        const o = (await g.inject('POST', '/orders/', { address: 'x' })).json();
        const expected = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
        expect(o.delivery_date).toBe(expected);
      } finally {
        await g.close();
      }
    });

    it('returns 200 with the existing order, data discarded, when the external_id exists', async () => {
      const first = await f.inject('POST', '/orders/', { address: 'A', external_id: 'X-1', weight: 1 });
      const second = await f.inject('POST', '/orders/', { address: 'B', external_id: 'X-1', weight: 2 });
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual(first.json());
      const list = (await f.inject('GET', '/orders/')).json();
      expect(list.count).toBe(1);
    });

    it('serializes concurrent creates with one external_id into exactly one order', async () => {
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) => f.inject('POST', '/orders/', { address: `A${i}`, external_id: 'SAME' })),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 200)).toHaveLength(24);
      expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
      expect((await f.inject('GET', '/orders/?external_id=SAME')).json().count).toBe(1);
    });

    it('keeps external_ids per company: the same id in another company is another order', async () => {
      const a = await f.inject('POST', '/orders/', { address: 'A', external_id: 'E' });
      const b = await f.inject('POST', '/orders/', { address: 'B', external_id: 'E' }, f.otherKey);
      expect(a.statusCode).toBe(201);
      expect(b.statusCode).toBe(201);
      expect(a.json().id).not.toBe(b.json().id);
    });

    it('treats lat = 0 and lon = 0 as empty', async () => {
      const o = (await f.inject('POST', '/orders/', { address: 'x', lat: 0, lon: '0.000' })).json();
      expect(o.lat).toBeNull();
      expect(o.lon).toBeNull();
    });

    it('trims strings, and an empty external_id is no external_id', async () => {
      const o = (await f.inject('POST', '/orders/', { address: '  Main 3 ', name: ' n ', external_id: '' })).json();
      expect(o).toMatchObject({ address: 'Main 3', name: 'n', external_id: null });
    });

    it('accepts values exactly at the limits', async () => {
      const r = await f.inject('POST', '/orders/', {
        address: 'a'.repeat(512), external_id: 'e'.repeat(128), name: 'n'.repeat(255), recipient: 'r'.repeat(255),
        phone: 'p'.repeat(30), service_time: 240, lat: -90, lon: 180, weight: '100000', volume: 1000,
      });
      expect(r.statusCode).toBe(201);
      expect(r.json()).toMatchObject({ lat: '-90.000000', lon: '180.000000', weight: '100000.000', volume: '1000.000', service_time: 240 });
    });
  });

  describe('POST /orders/ validation (2.1, 8): 400 with field -> messages', () => {
    const cases: [string, Record<string, unknown>, Record<string, string[]>][] = [
      ['missing address', {}, { address: ['This field is required.'] }],
      ['blank address', { address: '   ' }, { address: ['This field may not be blank.'] }],
      ['null address', { address: null }, { address: ['This field may not be null.'] }],
      ['address not a string', { address: 12 }, { address: ['Not a valid string.'] }],
      ['address too long', { address: 'a'.repeat(513) }, { address: ['Ensure this field has no more than 512 characters.'] }],
      ['external_id too long', { address: 'x', external_id: 'e'.repeat(129) }, { external_id: ['Ensure this field has no more than 128 characters.'] }],
      ['external_id a number', { address: 'x', external_id: 5 }, { external_id: ['Not a valid string.'] }],
      ['name too long', { address: 'x', name: 'n'.repeat(256) }, { name: ['Ensure this field has no more than 255 characters.'] }],
      ['recipient too long', { address: 'x', recipient: 'r'.repeat(256) }, { recipient: ['Ensure this field has no more than 255 characters.'] }],
      ['phone too long', { address: 'x', phone: '1'.repeat(31) }, { phone: ['Ensure this field has no more than 30 characters.'] }],
      ['name null', { address: 'x', name: null }, { name: ['This field may not be null.'] }],
      ['service_time above 240', { address: 'x', service_time: 241 }, { service_time: ['Ensure this value is less than or equal to 240.'] }],
      ['service_time negative', { address: 'x', service_time: -1 }, { service_time: ['Ensure this value is greater than or equal to 0.'] }],
      ['service_time fractional', { address: 'x', service_time: 1.5 }, { service_time: ['A valid integer is required.'] }],
      ['service_time a word', { address: 'x', service_time: 'ten' }, { service_time: ['A valid integer is required.'] }],
      ['service_time boolean', { address: 'x', service_time: true }, { service_time: ['A valid integer is required.'] }],
      ['weight negative', { address: 'x', weight: -0.5 }, { weight: ['Ensure this value is greater than or equal to 0.'] }],
      ['weight a word', { address: 'x', weight: 'heavy' }, { weight: ['A valid number is required.'] }],
      ['weight an object', { address: 'x', weight: { kg: 1 } }, { weight: ['A valid number is required.'] }],
      ['weight too big', { address: 'x', weight: 1e9 }, { weight: ['Ensure this value is less than or equal to 100000.'] }],
      ['volume an array', { address: 'x', volume: [1] }, { volume: ['A valid number is required.'] }],
      ['lat out of range', { address: 'x', lat: 91, lon: 0 }, { lat: ['Ensure this value is less than or equal to 90.'] }],
      ['lon out of range', { address: 'x', lat: 0, lon: -181 }, { lon: ['Ensure this value is greater than or equal to -180.'] }],
      ['lat without lon', { address: 'x', lat: 52.5 }, { lat: ['lat and lon must be sent together.'], lon: ['lat and lon must be sent together.'] }],
      ['lon without lat', { address: 'x', lon: 13.4 }, { lat: ['lat and lon must be sent together.'], lon: ['lat and lon must be sent together.'] }],
      ['lat with null lon', { address: 'x', lat: 52.5, lon: null }, { lat: ['lat and lon must be sent together.'], lon: ['lat and lon must be sent together.'] }],
      ['time window end before start', { address: 'x', time_window_start: '12:00:00', time_window_end: '09:00:00' }, { time_window_end: ['time_window_end must be later than time_window_start.'] }],
      ['time window end equal to start', { address: 'x', time_window_start: '12:00:00', time_window_end: '12:00:00' }, { time_window_end: ['time_window_end must be later than time_window_start.'] }],
      ['time window bad format', { address: 'x', time_window_start: '9am' }, { time_window_start: ['Time has wrong format. Use one of these formats instead: hh:mm:ss, hh:mm.'] }],
      ['time window out of range', { address: 'x', time_window_end: '24:00:00' }, { time_window_end: ['Time has wrong format. Use one of these formats instead: hh:mm:ss, hh:mm.'] }],
      ['time window a number', { address: 'x', time_window_end: 900 }, { time_window_end: ['Time has wrong format. Use one of these formats instead: hh:mm:ss, hh:mm.'] }],
      ['order_type unknown', { address: 'x', order_type: 'weekly' }, { order_type: ['"weekly" is not a valid choice.'] }],
      ['delivery_date bad format', { address: 'x', delivery_date: '31.01.2027' }, { delivery_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] }],
      ['delivery_date impossible', { address: 'x', delivery_date: '2027-02-30' }, { delivery_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] }],
      ['notes too long', { address: 'x', notes: 'n'.repeat(10_001) }, { notes: ['Ensure this field has no more than 10000 characters.'] }],
      ['unknown field', { address: 'x', colour: 'red' }, { colour: ['Unknown field.'] }],
      ['read-only id', { address: 'x', id: 5 }, { id: ['This field is read-only.'] }],
      ['read-only status', { address: 'x', status: 'confirmed' }, { status: ['This field is read-only.'] }],
      ['read-only timestamps', { address: 'x', created_at: 'x', updated_at: 'y' }, { created_at: ['This field is read-only.'], updated_at: ['This field is read-only.'] }],
    ];
    for (const [name, body, errors] of cases) {
      it(name, async () => {
        const r = await f.inject('POST', '/orders/', body);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toEqual(errors);
      });
    }

    it('reports every invalid field at once', async () => {
      const r = await f.inject('POST', '/orders/', { address: '', weight: 'x', service_time: 999, colour: 1 });
      expect(r.statusCode).toBe(400);
      expect(Object.keys(r.json()).sort()).toEqual(['address', 'colour', 'service_time', 'weight']);
    });

    it('refuses a body that is not an object with {detail}', async () => {
      for (const body of ['[]', '"text"', '42', 'null', 'true']) {
        const r = await f.inject('POST', '/orders/', body);
        expect(r.statusCode, body).toBe(400);
        expect(r.json().detail).toMatch(/Expected a JSON object/);
      }
      const empty = await f.app.inject({ method: 'POST', url: '/api/public/v1/orders/', headers: f.auth() });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().detail).toMatch(/empty body/);
    });

    it('creates nothing on a validation failure', async () => {
      await f.inject('POST', '/orders/', { address: 'x', external_id: 'BAD', weight: -1 });
      expect((await f.inject('GET', '/orders/')).json().count).toBe(0);
    });
  });
});
