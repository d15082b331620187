/**
 * Webhook delivery of both events from both sources, in-process: subscriptions as the admin CLI
 * makes them (store.webhooks), the real dispatcher and outbox, a real local receiver.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commitPlan } from '../../src/jobs/commit.js';
import { PgStore } from '../../src/store/postgres/index.js';
import { OutboxPlanningStore } from '../../src/store/sqlite/planning-outbox.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { INTERNAL, makeWorld as makeWorldOn, PUBLIC, type World, type WorldOptions } from '../e2e/world.js';
import { BACKENDS } from '../e2e/backends.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeWorld = (options: WorldOptions = {}) => makeWorldOn({ ...options, kind });

  describe('webhooks from the service', () => {
    let w: World | undefined;
    let receiver: WebhookReceiver | undefined;
    afterEach(async () => {
      await w?.close();
      await receiver?.close();
      w = undefined;
      receiver = undefined;
    });

    const bodies = (r: WebhookReceiver) => r.received.map((x) => JSON.parse(x.body) as { id: string; event: string; created_at: string; data: Record<string, unknown> });

    it('delivers planning_job.finished (the 2.2 job) and order.status_changed for in_route, archived and dispatch outcomes, signed', async () => {
      receiver = await startWebhookReceiver();
      w = await makeWorld();
      const sub = await w.port.webhooks.create({ company_id: w.company.id, url: receiver.url, events: ['planning_job.finished', 'order.status_changed'] }, new Date().toISOString());
      // another company's subscription hears nothing of ours
      const theirs = await startWebhookReceiver();
      await w.port.webhooks.create({ company_id: w.other.id, url: theirs.url, events: ['planning_job.finished', 'order.status_changed'] }, new Date().toISOString());

      const ids = await w.addOrders(w.someOrders(3));
      const cancelled = await w.inject('POST', `${PUBLIC}/orders/${ids[2]}/cancel/`);
      expect(cancelled.statusCode).toBe(200);
      const job = await w.plan({ order_ids: [ids[0]!, ids[1]!] });
      expect(job.status).toBe('done');
      await receiver.waitFor(4);
      const route = (await w.inject('GET', `${PUBLIC}/routes/${(job.result as { route_ids: number[] }).route_ids[0]}/`)).json();
      const stop = route.stops.find((s: { order_id: number | null }) => s.order_id === ids[0]);
      await w.inject('POST', `${INTERNAL}/stops/${stop.id}/status`, { status: 'confirmed', at: '2026-12-01T10:00:00Z' });
      await receiver.waitFor(5);
      await w.runtime.dispatcher.settled();

      const got = bodies(receiver);
      const byEvent = (name: string) => got.filter((b) => b.event === name);
      const finished = byEvent('planning_job.finished');
      expect(finished).toHaveLength(1);
      expect(finished[0]!.data).toEqual(JSON.parse((await w.inject('GET', `${PUBLIC}/planning/jobs/${job.job_id}/`)).body));
      const changes = byEvent('order.status_changed').map((b) => b.data);
      expect(changes).toEqual(
        expect.arrayContaining([
          { order_id: ids[2], external_id: 'DOC-3', status: 'archived', previous_status: 'new', at: expect.any(String) },
          { order_id: ids[0], external_id: 'DOC-1', status: 'in_route', previous_status: 'new', at: expect.any(String) },
          { order_id: ids[1], external_id: 'DOC-2', status: 'in_route', previous_status: 'new', at: expect.any(String) },
          { order_id: ids[0], external_id: 'DOC-1', status: 'confirmed', previous_status: 'in_route', at: '2026-12-01T10:00:00.000Z' },
        ]),
      );
      expect(changes).toHaveLength(4);

      for (const r of receiver.received) {
        const body = JSON.parse(r.body);
        expect(r.headers['x-planner-delivery-id']).toBe(body.id);
        expect(r.headers['x-planner-event']).toBe(body.event);
        expect(verifySignature(sub.secret, String(r.headers['x-planner-signature']), r.body, Math.floor(Date.now() / 1000))).toBe(true);
        expect(body.created_at).toMatch(/Z$/);
      }
      expect(new Set(got.map((b) => b.id)).size).toBe(got.length);
      expect(theirs.received).toEqual([]);
      await theirs.close();
    });

    // the SQLite adapter's own outbox planning store (PostgreSQL's publish hook: test/store/postgres-planning.test.ts)
    it.runIf(kind === 'sqlite')('the planning store writes the webhooks inside the plan\'s transaction: all or nothing', async () => {
      receiver = await startWebhookReceiver();
      w = await makeWorld();
      await w.port.webhooks.create({ company_id: w.company.id, url: receiver.url, events: ['planning_job.finished', 'order.status_changed'] }, new Date().toISOString());
      const published: string[] = [];
      const store = new OutboxPlanningStore(w.store.db, (_companyId, event) => published.push(event));
      const rows = () => (w!.store.db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get() as { n: number }).n;
      const at = new Date().toISOString();
      const [id] = await w.addOrders(w.someOrders(1, 'TX'));
      const order = store.getOrdersByIds(w.company.id, [id!])[0]!;
      const stop = (position: number, stopType: 'start_depot' | 'order' | 'end_depot') => ({
        position, stopType, orderId: stopType === 'order' ? order.id : null, orderExternalId: stopType === 'order' ? order.externalId : null,
        warehouseId: stopType === 'order' ? null : w!.warehouse.id, address: 'x', lat: 52.47, lon: 13.4, plannedArrivalAt: at, plannedDepartureAt: at,
      });
      const route = {
        jobId: 0, companyId: w.company.id, vehicleId: w.vehicles[0]!.id, name: 'r', date: '2026-12-01', plannedMileageKm: 1, plannedDurationMin: 1,
        totalWeightKg: 1, totalVolumeM3: 0, stops: [stop(1, 'start_depot'), stop(2, 'order'), stop(3, 'end_depot')],
      };
      const job = store.createJob(w.company.id, { order_ids: [order.id], vehicle_ids: [], warehouse_id: null }, at);
      const before = rows();
      const versions = { [order.id]: order.version ?? 0 };
      await commitPlan(store, { jobId: job.id, companyId: w.company.id, at, routes: [{ ...route, jobId: job.id }], unassigned: [], versions });
      expect(rows() - before).toBe(2); // in_route + planning_job.finished, committed with the plan
      // a second plan over the same order fails inside the transaction: no route, no webhook
      const second = store.createJob(w.company.id, { order_ids: [order.id], vehicle_ids: [], warehouse_id: null }, at);
      await expect(commitPlan(store, { jobId: second.id, companyId: w!.company.id, at, routes: [{ ...route, jobId: second.id, vehicleId: w!.vehicles[1]!.id }], unassigned: [], versions })).rejects.toThrow(/not in status new/);
      expect(rows() - before).toBe(2);
      store.updateJob(second.id, { status: 'failed', error: 'x' }, at);
      expect(rows() - before).toBe(3);
      expect(published).toEqual(['order.status_changed', 'planning_job.finished', 'planning_job.finished']);
    });

    it('a subscription to one event gets only that event', async () => {
      receiver = await startWebhookReceiver();
      w = await makeWorld();
      await w.port.webhooks.create({ company_id: w.company.id, url: receiver.url, events: ['planning_job.finished'] }, new Date().toISOString());
      const ids = await w.addOrders(w.someOrders(2));
      await w.plan({ order_ids: ids });
      await receiver.waitFor(1);
      await w.runtime.dispatcher.settled();
      expect(bodies(receiver).map((b) => b.event)).toEqual(['planning_job.finished']);
    });

    it('a failed job is announced too, with status failed and its error', async () => {
      receiver = await startWebhookReceiver();
      w = await makeWorld();
      await w.port.webhooks.create({ company_id: w.company.id, url: receiver.url, events: ['planning_job.finished'] }, new Date().toISOString());
      const ids = await w.addOrders(w.someOrders(1));
      await w.plan({ order_ids: ids });
      const failed = await w.plan({ order_ids: ids });
      expect(failed.status).toBe('failed');
      await receiver.waitFor(2);
      const last = bodies(receiver).find((b) => b.data.job_id === failed.job_id)!;
      expect(last.data).toMatchObject({ status: 'failed', result: {}, error: failed.error });
    });

    // a trigger stands in for a refusing outbox, on either store
    it('a cancel or a dispatch outcome whose webhook row cannot be written does not happen (one transaction)', async () => {
      w = await makeWorld();
      await w.port.webhooks.create({ company_id: w.company.id, url: 'http://127.0.0.1:9/', events: ['order.status_changed'] }, new Date().toISOString());
      const ids = await w.addOrders(w.someOrders(2, 'TX'));
      const job = await w.plan({ order_ids: [ids[0]!] });
      const route = (await w.inject('GET', `${PUBLIC}/routes/${(job.result as { route_ids: number[] }).route_ids[0]}/`)).json();
      const stop = route.stops.find((s: { order_id: number | null }) => s.order_id === ids[0]);
      const rows = () => w!.countRows('webhook_deliveries');
      const sql = async (text: string) => {
        if (w!.port instanceof PgStore) await w!.port.pool.query(text);
        else w!.store.db.exec(text);
      };
      const before = await rows();
      // the outbox refuses every new row, as a full disk or a broken table would
      if (kind === 'sqlite') await sql(`CREATE TRIGGER refuse_outbox BEFORE INSERT ON webhook_deliveries BEGIN SELECT RAISE(ABORT, 'outbox refused'); END`);
      else {
        await sql(`CREATE FUNCTION refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox refused'; END $$`);
        await sql(`CREATE TRIGGER refuse_outbox BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_outbox()`);
      }

      const cancel = await w.inject('POST', `${PUBLIC}/orders/${ids[1]}/cancel/`);
      expect(cancel.statusCode).toBe(500);
      expect(cancel.json()).toEqual({ detail: 'Internal server error.' });
      expect((await w.inject('GET', `${PUBLIC}/orders/${ids[1]}/`)).json().status).toBe('new');

      const outcome = await w.inject('POST', `${INTERNAL}/stops/${stop.id}/status`, { status: 'confirmed' });
      expect(outcome.statusCode).toBe(500);
      expect((await w.inject('GET', `${PUBLIC}/orders/${ids[0]}/`)).json().status).toBe('in_route');
      expect(await rows()).toBe(before);

      // once the outbox takes rows again, both go through, each with its row
      await sql(kind === 'sqlite' ? `DROP TRIGGER refuse_outbox` : `DROP TRIGGER refuse_outbox ON webhook_deliveries; DROP FUNCTION refuse_outbox()`);
      expect((await w.inject('POST', `${PUBLIC}/orders/${ids[1]}/cancel/`)).statusCode).toBe(200);
      expect((await w.inject('POST', `${INTERNAL}/stops/${stop.id}/status`, { status: 'confirmed' })).statusCode).toBe(200);
      expect(await rows()).toBe(before + 2);
    });
  });
});
