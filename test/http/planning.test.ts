import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { makeWorld as makeWorldOn, PUBLIC, type World, type WorldOptions } from '../e2e/world.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeWorld = (options: WorldOptions = {}) => makeWorldOn({ ...options, kind });
  const JOBS = `${PUBLIC}/planning/jobs/`;
  const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

  describe('planning job endpoints', () => {
    let w: World;
    let ids: number[];

    beforeAll(async () => {
      w = await makeWorld();
      ids = await w.addOrders(w.someOrders(6));
    });
    afterAll(async () => w?.close());

    it('POST answers 202 with the queued job (2.2), input holding the resolved ids; GET shows it done', async () => {
      const res = await w.inject('POST', JOBS, { external_ids: ['DOC-2', 'DOC-1'], order_ids: [ids[2]] });
      expect(res.statusCode).toBe(202);
      const job = res.json();
      expect(Object.keys(job).sort()).toEqual(['created_at', 'error', 'input', 'job_id', 'result', 'status', 'updated_at']);
      expect(job).toMatchObject({ status: 'queued', result: {}, error: '', input: { order_ids: [ids[0], ids[1], ids[2]], vehicle_ids: [] } });
      expect(job.created_at).toMatch(TS);
      expect(Number.isInteger(job.job_id)).toBe(true);

      await w.runtime.jobs.waitFor(w.company.id, job.job_id);
      const got = await w.inject('GET', `${JOBS}${job.job_id}/`);
      expect(got.statusCode).toBe(200);
      const done = got.json();
      expect(done.status).toBe('done');
      expect(done.result.summary).toEqual({ route_count: done.result.route_ids.length, unassigned_count: 0 });
      expect(done.result.route_ids.length).toBeGreaterThan(0);
      expect(done.result.unassigned).toEqual([]);
      const orders = await w.inject('GET', `${PUBLIC}/orders/?status=in_route`);
      expect(orders.json().count).toBe(3);
    });

    it('a job over orders already in a route fails (not an HTTP error): result {}, a readable error', async () => {
      const res = await w.inject('POST', JOBS, { order_ids: [ids[0], ids[3]] });
      expect(res.statusCode).toBe(202);
      const job = await w.runtime.jobs.waitFor(w.company.id, res.json().job_id);
      expect(job.status).toBe('failed');
      expect(job.result).toEqual({});
      expect(job.error).toContain(`${ids[0]} (in_route)`);
      const order = await w.inject('GET', `${PUBLIC}/orders/${ids[3]}/`);
      expect(order.json().status).toBe('new');
    });

    it('orders without coordinates are dropped: neither routed nor unassigned', async () => {
      const [bare] = await w.addOrders([{ external_id: 'NOGEO', address: 'Nowhere 1', delivery_date: '2026-12-01' }]);
      const job = await w.plan({ order_ids: [bare!, ids[4]!] });
      expect(job.status).toBe('done');
      expect(job.input.order_ids).toEqual([ids[4], bare]);
      expect(job.result).toMatchObject({ unassigned: [] });
      const route = await w.inject('GET', `${PUBLIC}/routes/${(job.result as { route_ids: number[] }).route_ids[0]}/`);
      const orderIds = route.json().stops.map((s: { order_id: number | null }) => s.order_id).filter(Boolean);
      expect(orderIds).toEqual([ids[4]]);
    });

    it('answers 400 with the exact detail texts of 7.5, creating no job', async () => {
      const [theirs] = await w.addOrders([{ external_id: 'THEIRS', address: 'x', delivery_date: '2026-12-01' }], w.otherKey);
      const cases: Array<[unknown, string]> = [
        [{}, 'The order selection is empty.'],
        [{ order_ids: [], external_ids: [] }, 'The order selection is empty.'],
        [{ order_ids: [999999, theirs, ids[0]] }, `Orders not found for this tenant: [${theirs}, 999999].`],
        [{ external_ids: ['NOPE-2', 'DOC-1', 'THEIRS'] }, 'Orders not found for external_ids: ["NOPE-2", "THEIRS"].'],
        [{ order_ids: [ids[5]], vehicle_ids: [w.inactive.id, w.otherVehicle.id, w.vehicles[0]!.id] }, `Vehicles not found or inactive for this tenant: [${w.inactive.id}, ${w.otherVehicle.id}].`],
        [{ order_ids: [ids[5]], warehouse_id: w.otherWarehouse.id }, `Warehouse not found for this tenant: ${w.otherWarehouse.id}.`],
      ];
      const before = await w.countRows('planning_jobs');
      for (const [body, detail] of cases) {
        const res = await w.inject('POST', JOBS, body);
        expect({ body, status: res.statusCode, answer: res.json() }).toEqual({ body, status: 400, answer: { detail } });
      }
      const after = await w.countRows('planning_jobs');
      expect(after).toBe(before);
    });

    it('more than 500 orders: 400 with the count of resolved orders', async () => {
      const many = await w.addOrders(
        Array.from({ length: 501 }, (_, i) => ({ external_id: `BIG-${i}`, address: `Big ${i}`, delivery_date: '2026-12-02' })),
      );
      const res = await w.inject('POST', JOBS, { order_ids: many });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'A planning job may select at most 500 orders (got 501).' });
    });

    it('refuses a body of the wrong shape with 400 naming the field (detail and field messages)', async () => {
      const cases: Array<[unknown, string | null]> = [
        [[1, 2], null],
        ['"just a string"', null],
        [{ order_ids: '1,2' }, 'order_ids'],
        [{ order_ids: [1, '2'] }, 'order_ids'],
        [{ order_ids: [1.5] }, 'order_ids'],
        [{ external_ids: [7] }, 'external_ids'],
        [{ external_ids: ['x'.repeat(129)] }, 'external_ids'],
        [{ vehicle_ids: {} }, 'vehicle_ids'],
        [{ warehouse_id: '3' }, 'warehouse_id'],
        [{ order_ids: [ids[0]], priority: 'high' }, 'priority'],
      ];
      for (const [body, field] of cases) {
        const res = await w.inject('POST', JOBS, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        const answer = res.json();
        expect(typeof answer.detail).toBe('string');
        if (field) {
          expect(answer[field], JSON.stringify(body)).toEqual([expect.any(String)]);
          expect(answer.detail).toContain(field);
        }
      }
      const unknown = await w.inject('POST', JOBS, { order_ids: [ids[0]], priority: 'high' });
      expect(unknown.json().priority).toEqual(['Unknown field.']);
      const empty = await w.app.inject({ method: 'POST', url: JOBS, headers: { authorization: `Api-Key ${w.key}` } });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().detail).toMatch(/empty body/);
      const broken = await w.inject('POST', JOBS, '{"order_ids": [1,');
      expect(broken.statusCode).toBe(400);
      expect(broken.json().detail).toMatch(/Malformed JSON/);
    });

    it('null is the same as a field not sent', async () => {
      const res = await w.inject('POST', JOBS, { external_ids: ['NOPE'], warehouse_id: null, vehicle_ids: null, order_ids: null });
      expect(res.json()).toEqual({ detail: 'Orders not found for external_ids: ["NOPE"].' });
      const empty = await w.inject('POST', JOBS, { order_ids: null, external_ids: null });
      expect(empty.json()).toEqual({ detail: 'The order selection is empty.' });
    });

    it('GET of another company\'s job, of a missing job or a malformed id is 404 {"detail":"Not found."}', async () => {
      const job = await w.plan({ external_ids: ['DOC-6'] });
      expect((await w.inject('GET', `${JOBS}${job.job_id}/`)).statusCode).toBe(200);
      for (const [url, k] of [
        [`${JOBS}${job.job_id}/`, w.otherKey],
        [`${JOBS}987654/`, w.key],
        [`${JOBS}abc/`, w.key],
      ] as const) {
        const res = await w.inject('GET', url, undefined, k);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
    });

    it('405 on GET and other methods of the collection, and on other methods of a job', async () => {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        const res = await w.inject(method, JOBS);
        expect(res.statusCode, method).toBe(405);
        expect(res.json()).toEqual({ detail: `Method "${method}" not allowed.` });
      }
      const noSlash = await w.inject('GET', JOBS.slice(0, -1));
      expect(noSlash.statusCode).toBe(405);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        expect((await w.inject(method, `${JOBS}1/`)).statusCode, method).toBe(405);
      }
    });

    it('401 without a key, 403 without planning:write (POST and GET)', async () => {
      const none = await w.inject('POST', JOBS, { order_ids: [1] }, null);
      expect(none.statusCode).toBe(401);
      expect(typeof none.json().detail).toBe('string');
      const readOnly = await w.keyWith(['orders:read', 'routes:read']);
      for (const [method, url] of [['POST', JOBS], ['GET', `${JOBS}1/`]] as const) {
        const res = await w.inject(method, url, method === 'POST' ? { order_ids: [1] } : undefined, readOnly);
        expect(res.statusCode).toBe(403);
        expect(res.json().detail).toContain('planning:write');
      }
    });
  });

  describe('per-company job cap through the API', () => {
    it('one job more than --max-jobs-per-company is 429 {detail}; another company is not affected', async () => {
      const w = await makeWorld({ maxJobsPerCompany: 1, jobTimeLimitSec: 3 });
      try {
        const ids = await w.addOrders(w.someOrders(2, 'CAP'));
        const first = await w.inject('POST', JOBS, { order_ids: [ids[0]] });
        expect(first.statusCode).toBe(202);
        const second = await w.inject('POST', JOBS, { order_ids: [ids[1]] });
        expect(second.statusCode).toBe(429);
        expect(second.json()).toEqual({
          detail: 'This company already has 1 planning job queued or running, the most it may have at once. Start this job when one of them has finished.',
        });
        await w.runtime.jobs.waitFor(w.company.id, first.json().job_id);
        expect((await w.inject('POST', JOBS, { order_ids: [ids[1]] })).statusCode).toBe(202);
      } finally {
        await w.close();
      }
    });
  });

  describe('Idempotency-Key on planning submit', () => {
    it('the same key and body within 24 h return the first job (200); another body is 409; keys are per company', async () => {
      const w = await makeWorld();
      try {
        const ids = await w.addOrders(w.someOrders(3, 'IDEM'));
        const post = (body: unknown, key: string | undefined, k = w.key) =>
          w.app.inject({
            method: 'POST',
            url: JOBS,
            headers: { authorization: `Api-Key ${k}`, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
            payload: JSON.stringify(body),
          });
        const first = await post({ order_ids: [ids[0]], vehicle_ids: [] }, 'run-42');
        expect(first.statusCode).toBe(202);
        // the same request again, its fields in another order: the first job, as it is now
        const again = await post({ vehicle_ids: [], order_ids: [ids[0]] }, 'run-42');
        expect(again.statusCode).toBe(200);
        expect(again.json().job_id).toBe(first.json().job_id);
        await w.runtime.jobs.waitFor(w.company.id, first.json().job_id);
        const later = await post({ order_ids: [ids[0]], vehicle_ids: [] }, 'run-42');
        expect(later.statusCode).toBe(200);
        expect(later.json()).toMatchObject({ job_id: first.json().job_id, status: 'done' });
        expect(await w.countRows('planning_jobs')).toBe(1);

        const other = await post({ order_ids: [ids[1]] }, 'run-42');
        expect(other.statusCode).toBe(409);
        expect(other.json()).toEqual({ detail: 'This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.' });
        // a request refused by validation records no key: fixed, it goes through with that key
        expect((await post({ order_ids: [999_999] }, 'run-43')).statusCode).toBe(400);
        expect((await post({ order_ids: [ids[1]] }, 'run-43')).statusCode).toBe(202);
        // another company's key space
        const theirs = await w.addOrders(w.someOrders(1, 'THEIRS'), w.otherKey);
        expect((await post({ order_ids: theirs }, 'run-42', w.otherKey)).statusCode).toBe(202);
        for (const bad of ['', 'x'.repeat(256), 'tab\there', 'ümlaut']) {
          const res = await post({ order_ids: [ids[2]] }, bad);
          expect(res.statusCode, JSON.stringify(bad)).toBe(400);
          expect(res.json()).toEqual({ detail: 'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once.' });
        }
        // no key: every request is a new job
        expect((await post({ order_ids: [ids[2]] }, undefined)).statusCode).toBe(202);
      } finally {
        await w.close();
      }
    });
  });
});
