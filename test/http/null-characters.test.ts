/**
 * Text PostgreSQL cannot store (U+0000, the null character) gets the same answer on both stores
 * (issue 41, item 5): a 400 field error "Null characters are not allowed." (Django REST
 * framework's own answer for a CharField, whose messages this contract follows), never a 5xx and
 * never stored on one store only. In bodies (every text field of an order, on create, bulk and
 * PATCH; a planning request's external_ids, answered with the planning endpoint's `detail` too)
 * and in query parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { makeWorld, PUBLIC, type World } from '../e2e/world.js';

const NUL = 'Null characters are not allowed.';
const TEXT_FIELDS = ['name', 'recipient', 'phone', 'address', 'notes', 'external_id'] as const;

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld({ kind });
  });
  afterAll(async () => w?.close());

  it('an order with U+0000 in any text field: 400 naming the field, nothing stored', async () => {
    for (const field of TEXT_FIELDS) {
      for (const value of ['\u0000', 'Main\u0000 1']) {
        const body = { address: 'Main 1', delivery_date: '2026-12-01', [field]: value };
        const r = await w.inject('POST', `${PUBLIC}/orders/`, body);
        expect({ field, status: r.statusCode, body: r.json() }).toEqual({ field, status: 400, body: { [field]: [NUL] } });
      }
    }
    expect((await w.inject('GET', `${PUBLIC}/orders/`)).json().count).toBe(0);
  });

  it('bulk: the item with U+0000 fails on its own, the others are created', async () => {
    const r = await w.inject('POST', `${PUBLIC}/orders/bulk/`, [
      { address: 'Main 1', external_id: 'OK-1', delivery_date: '2026-12-01' },
      { address: 'Main 2', recipient: 'A\u0000da', external_id: 'BAD-1', delivery_date: '2026-12-01' },
    ]);
    expect(r.statusCode).toBe(200);
    expect(r.json().summary).toEqual({ created: 1, existing: 0, failed: 1 });
    expect(r.json().results[1]).toMatchObject({ index: 1, status: 'error', errors: { recipient: [NUL] } });
  });

  it('PATCH with U+0000: 400 naming the field, the order unchanged', async () => {
    const [id] = await w.addOrders([{ address: 'Main 3', external_id: 'P-1', delivery_date: '2026-12-01' }]);
    for (const field of ['name', 'address', 'notes'] as const) {
      const r = await w.inject('PATCH', `${PUBLIC}/orders/${id}/`, { [field]: 'x\u0000' });
      expect({ field, status: r.statusCode, body: r.json() }).toEqual({ field, status: 400, body: { [field]: [NUL] } });
    }
    expect((await w.inject('GET', `${PUBLIC}/orders/${id}/`)).json()).toMatchObject({ address: 'Main 3', name: '', notes: '' });
  });

  it('query parameters with U+0000: 400 naming the parameter', async () => {
    for (const url of [`${PUBLIC}/orders/?external_id=%00`, `${PUBLIC}/orders/?external_id=A%00B&page=1`, `${PUBLIC}/routes/?date=%00`]) {
      const r = await w.inject('GET', url);
      const name = /[?&]([a-z_]+)=[^&]*%00/.exec(url)![1]!;
      expect({ url, status: r.statusCode, body: r.json() }).toEqual({ url, status: 400, body: { [name]: [NUL] } });
    }
  });

  it('a planning request naming an external_id with U+0000: 400 naming the field (and the detail planning answers carry), no job', async () => {
    const before = await w.countRows('planning_jobs');
    const r = await w.inject('POST', `${PUBLIC}/planning/jobs/`, { external_ids: ['OK-1', 'X\u0000'] });
    expect({ status: r.statusCode, body: r.json() }).toEqual({ status: 400, body: { detail: `Invalid planning request: external_ids: ${NUL}`, external_ids: [NUL] } });
    expect(await w.countRows('planning_jobs')).toBe(before);
  });
});
