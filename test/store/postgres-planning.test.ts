/**
 * The PlanningStore contract (test/jobs/store-contract.ts) on PgPlanningStore, the real
 * PostgreSQL server (test/helpers/postgres.ts), and what only several processes can show: two
 * stores (two pools, as two processes) claiming, capping and committing at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LeaseLostError, TooManyJobsError, IdempotentReplayError, type NewRoute } from '../../src/jobs/ports.js';
import pg from 'pg';
import { commitPlan } from '../../src/jobs/commit.js';
import { PgStore } from '../../src/store/postgres/index.js';
import { LOCK } from '../../src/store/postgres/db.js';
import { pgMigrations } from '../../src/store/postgres/migrations.js';
import { describePlanningStoreContract, type StoreFixture } from '../jobs/store-contract.js';
import { createTestDatabase, postgres, type TestDatabase } from '../helpers/postgres.js';

const now = '2026-11-30T07:00:00.000Z';
const e6 = (v: number | null) => (v === null ? null : Math.round(v * 1e6));

let database: TestDatabase | undefined;
let store: PgStore | undefined;
const extra: PgStore[] = [];

if (postgres.available) {
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await PgStore.open(database.url);
  });
  // the second stores (pools) of a test are closed after it: the server's connections are shared
  afterEach(async () => {
    for (const s of extra.splice(0)) await s.close();
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
}

async function fixture(): Promise<StoreFixture & { pg: PgStore }> {
  await database!.reset();
  const s = store!;
  s.planning.setPublisher(undefined);
  const q = (sql: string, args: unknown[]) => s.pool.query(sql, args);
  const insert = async (sql: string, args: unknown[]) => Number((await q(`${sql} RETURNING id`, args)).rows[0].id);
  return {
    pg: s,
    store: s.planning,
    addCompany: async (timezone) => ({ id: await insert(`INSERT INTO companies (name, timezone, created_at) VALUES ('Co', $1, $2)`, [timezone, now]), timezone }),
    addWarehouse: async (w) => ({
      ...w,
      id: await insert(`INSERT INTO warehouses (company_id, name, address, lat, lon, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        w.companyId, w.name, w.address, w.lat, w.lon, now,
      ]),
    }),
    addVehicle: async (v) => {
      const [start, end] = v.shift ? v.shift.split('-') : [null, null];
      const id = await insert(
        `INSERT INTO vehicles (company_id, warehouse_id, name, capacity_kg, capacity_m3, shift_start, shift_end, max_distance_km,
           max_duration_min, max_orders, features, active, created_at, max_trips, reload_min) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [v.companyId, v.warehouseId, v.name, v.capacityKg, v.capacityM3, start, end, v.maxDistanceKm, v.maxDurationMin, v.maxOrders, JSON.stringify(v.features), v.active, now, v.maxTrips ?? 1, v.reloadMin ?? 15],
      );
      return { ...v, id };
    },
    addOrder: async (o) => {
      const id = await insert(
        `INSERT INTO orders (company_id, external_id, address, lat_e6, lon_e6, time_window_start, time_window_end, weight_g, volume_l,
           service_time, status, delivery_date, required_features, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
        [o.companyId, o.externalId, o.address, e6(o.lat), e6(o.lon), o.timeWindowStart, o.timeWindowEnd, Math.round(o.weightKg * 1000),
          Math.round(o.volumeM3 * 1000), o.serviceTimeMin, o.status, o.deliveryDate, JSON.stringify(o.requiredFeatures ?? []), now],
      );
      return { ...o, id };
    },
    addRoute: async (companyId, vehicleId, date) => {
      await s.planning.insertRoute({ jobId: 0, companyId, vehicleId, name: 'manual', date, plannedMileageKm: 0, plannedDurationMin: 0, totalWeightKg: 0, totalVolumeM3: 0, stops: [] }, now);
    },
    orderStatus: async (id) => (await q(`SELECT status FROM orders WHERE id = $1`, [id])).rows[0].status,
    orderHistory: async (id) => (await q(`SELECT status, previous_status, at FROM order_status_history WHERE order_id = $1 ORDER BY id`, [id])).rows,
    readRoute: async (id) => {
      const r = (await q(`SELECT * FROM routes WHERE id = $1`, [id])).rows[0];
      if (!r) return undefined;
      const stops = (await q(`SELECT * FROM route_stops WHERE route_id = $1 ORDER BY position`, [id])).rows;
      return {
        jobId: r.job_id, companyId: r.company_id, vehicleId: r.vehicle_id, name: r.name, date: r.date, status: r.status,
        plannedMileageKm: r.planned_mileage_km, plannedDurationMin: r.planned_duration_min, totalWeightKg: r.total_weight_kg, totalVolumeM3: r.total_volume_m3,
        stops: stops.map((st) => ({
          position: st.position, stopType: st.stop_type, status: st.status, orderId: st.order_id, orderExternalId: st.order_external_id, warehouseId: st.warehouse_id,
          address: st.address, lat: st.lat, lon: st.lon, plannedArrivalAt: st.planned_arrival_at, plannedDepartureAt: st.planned_departure_at,
        })),
      };
    },
    countRoutes: async (companyId) => Number((await q(`SELECT COUNT(*) AS n FROM routes WHERE company_id = $1`, [companyId])).rows[0].n),
    editOrder: async (companyId, id, address) => {
      await s.orders.update(companyId, id, { address }, now);
    },
  };
}

describe.skipIf(!postgres.available)('PgPlanningStore', () => {
  describePlanningStoreContract('PgPlanningStore', fixture);

  describe('PgPlanningStore across processes (two pools on one database)', () => {
    const input = { order_ids: [1], vehicle_ids: [], warehouse_id: null };
    const until = (ms: number) => new Date(Date.parse(now) + ms).toISOString();
    async function two() {
      const f = await fixture();
      const other = await PgStore.open(database!.url);
      extra.push(other);
      return { f, a: f.pg, b: other };
    }

    it('concurrent claims from two stores never take the same job, and take every job once', async () => {
      const { f, a, b } = await two();
      const companies = await Promise.all([1, 2, 3].map(() => f.addCompany('UTC')));
      const created: number[] = [];
      for (let i = 0; i < 24; i++) created.push((await a.planning.createJob(companies[i % 3].id, input, now)).id);
      const claim = async (s: PgStore, owner: string) => {
        const got: number[] = [];
        for (;;) {
          const job = await s.planning.claimJob(owner, now, until(30_000));
          if (!job) return got;
          expect(job).toMatchObject({ status: 'running', attempts: 1 });
          got.push(job.id);
        }
      };
      const claimed = await Promise.all([claim(a, 'a1'), claim(a, 'a2'), claim(b, 'b1'), claim(b, 'b2')]);
      const all = claimed.flat();
      expect(all.length).toBe(24);
      expect(new Set(all).size).toBe(24);
      expect(all.sort((x, y) => x - y)).toEqual(created);
      // every job is leased to exactly the owner that got it
      const owners = (await a.pool.query(`SELECT id, lease_owner FROM planning_jobs ORDER BY id`)).rows as Array<{ id: number; lease_owner: string }>;
      const byOwner = new Map(['a1', 'a2', 'b1', 'b2'].map((o, i) => [o, claimed[i]]));
      for (const row of owners) expect(byOwner.get(row.lease_owner)).toContain(row.id);
    });

    it('the per-company cap holds when two stores create jobs at once', async () => {
      const { f, a, b } = await two();
      const company = await f.addCompany('UTC');
      const attempts = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).planning.createJob(company.id, input, now, 3));
      const outcomes = await Promise.allSettled(attempts);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(TooManyJobsError);
      expect((await a.planning.listUnfinishedJobs()).filter((j) => j.companyId === company.id)).toHaveLength(3);
    });

    it('one Idempotency-Key used by two stores at once makes one job; the other call replays it', async () => {
      const { f, a, b } = await two();
      const company = await f.addCompany('UTC');
      const key = { key: 'same', fingerprint: 'fp' };
      const outcomes = await Promise.allSettled([a, b, a, b].map((s) => s.planning.createJob(company.id, input, now, undefined, key)));
      const made = outcomes.filter((o): o is PromiseFulfilledResult<Awaited<ReturnType<typeof a.planning.createJob>>> => o.status === 'fulfilled');
      expect(made).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toEqual(new IdempotentReplayError(made[0].value.id));
    });

    it('two commits of two jobs placing one vehicle on one date: one lands, the other is VehicleBusyError and writes nothing', async () => {
      const { f, a, b } = await two();
      const company = await f.addCompany('UTC');
      const w = await f.addWarehouse({ companyId: company.id, name: 'W', address: 'A', lat: 52.5, lon: 13.4 });
      const v = await f.addVehicle({ companyId: company.id, name: 'V', active: true, warehouseId: w.id, capacityKg: 100, capacityM3: 1, shift: null, maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [] });
      const order = (ext: string) =>
        f.addOrder({ companyId: company.id, externalId: ext, status: 'new', address: 'B', lat: 52.5, lon: 13.4, weightKg: 1, volumeM3: 0.01, serviceTimeMin: 5, timeWindowStart: null, timeWindowEnd: null, deliveryDate: '2026-12-01' });
      const [o1, o2] = [await order('1'), await order('2')];
      const j1 = await a.planning.createJob(company.id, input, now);
      const j2 = await a.planning.createJob(company.id, input, now);
      const route = (jobId: number, orderId: number): NewRoute => ({
        jobId, companyId: company.id, vehicleId: v.id, name: 'r', date: '2026-12-01', plannedMileageKm: 1, plannedDurationMin: 10, totalWeightKg: 1, totalVolumeM3: 0.01,
        stops: [{ position: 1, stopType: 'order', orderId, orderExternalId: null, warehouseId: null, address: 'B', lat: 52.5, lon: 13.4, plannedArrivalAt: now, plannedDepartureAt: now }],
      });
      const outcomes = await Promise.allSettled([
        commitPlan(a.planning, { jobId: j1.id, companyId: company.id, at: now, routes: [route(j1.id, o1.id)], unassigned: [], versions: { [o1.id]: 0 } }),
        commitPlan(b.planning, { jobId: j2.id, companyId: company.id, at: now, routes: [route(j2.id, o2.id)], unassigned: [], versions: { [o2.id]: 0 } }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(failed.reason.name).toBe('VehicleBusyError');
      expect(await f.countRoutes(company.id)).toBe(1);
      const statuses = [await f.orderStatus(o1.id), await f.orderStatus(o2.id)].sort();
      expect(statuses).toEqual(['in_route', 'new']);
    });

    it('a dispatcher assigning a vehicle (check, then assign, in one transaction) and a plan commit for it never both land', async () => {
      const { f, a, b } = await two();
      const company = await f.addCompany('UTC');
      const w = await f.addWarehouse({ companyId: company.id, name: 'W', address: 'A', lat: 52.5, lon: 13.4 });
      const vehicle = () => f.addVehicle({ companyId: company.id, name: 'V', active: true, warehouseId: w.id, capacityKg: 100, capacityM3: 1, shift: null, maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [] });
      const [v, spare] = [await vehicle(), await vehicle()];
      await f.addRoute(company.id, spare.id, '2026-12-01');
      const existing = (await a.routes.list(company.id, { limit: 1, offset: 0 })).rows[0];
      const o = await f.addOrder({ companyId: company.id, externalId: 'X', status: 'new', address: 'B', lat: 52.5, lon: 13.4, weightKg: 1, volumeM3: 0.01, serviceTimeMin: 5, timeWindowStart: null, timeWindowEnd: null, deliveryDate: '2026-12-01' });
      const job = await a.planning.createJob(company.id, input, now);
      let checked!: () => void;
      const checkDone = new Promise<void>((r) => (checked = r));
      const assign = a.transaction(async (tx) => {
        const holder = await tx.routes.routeHoldingVehicle(company.id, v.id, '2026-12-01', existing.id);
        checked();
        await new Promise((r) => setTimeout(r, 200)); // the commit runs meanwhile
        if (holder) return false;
        await tx.routes.assignVehicle(existing.id, v.id, now);
        return true;
      });
      await checkDone;
      const commit = commitPlan(b.planning, {
        jobId: job.id, companyId: company.id, at: now, unassigned: [], versions: { [o.id]: 0 },
        routes: [{ jobId: job.id, companyId: company.id, vehicleId: v.id, name: 'r', date: '2026-12-01', plannedMileageKm: 1, plannedDurationMin: 10, totalWeightKg: 1, totalVolumeM3: 0.01,
          stops: [{ position: 1, stopType: 'order', orderId: o.id, orderExternalId: 'X', warehouseId: null, address: 'B', lat: 52.5, lon: 13.4, plannedArrivalAt: now, plannedDepartureAt: now }] }],
      });
      const [assigned, committed] = await Promise.allSettled([assign, commit]);
      expect(assigned).toEqual({ status: 'fulfilled', value: true });
      expect(committed.status).toBe('rejected');
      expect((committed as PromiseRejectedResult).reason.name).toBe('VehicleBusyError');
      expect(await f.orderStatus(o.id)).toBe('new');
      expect(await a.planning.vehicleIdsWithRouteOn(company.id, '2026-12-01')).toEqual([v.id]);
    });

    it('commitPlan runs the publish hook in its transaction: its rows commit with the plan, and a hook that throws leaves nothing', async () => {
      const { f, a } = await two();
      const company = await f.addCompany('UTC');
      const sub = await a.webhooks.create({ company_id: company.id, url: 'http://127.0.0.1:9/', events: ['planning_job.finished', 'order.status_changed'] }, now);
      const w = await f.addWarehouse({ companyId: company.id, name: 'W', address: 'A', lat: 52.5, lon: 13.4 });
      const v = await f.addVehicle({ companyId: company.id, name: 'V', active: true, warehouseId: w.id, capacityKg: 100, capacityM3: 1, shift: null, maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [] });
      const o = await f.addOrder({ companyId: company.id, externalId: 'X', status: 'new', address: 'B', lat: 52.5, lon: 13.4, weightKg: 1, volumeM3: 0.01, serviceTimeMin: 5, timeWindowStart: null, timeWindowEnd: null, deliveryDate: '2026-12-01' });
      const job = await a.planning.createJob(company.id, input, now);
      const claimed = (await a.planning.claimJob('p', now, until(30_000)))!;
      expect(claimed.id).toBe(job.id);
      const plan = {
        jobId: job.id, companyId: company.id, at: now, owner: 'p', unassigned: [], versions: { [o.id]: 0 },
        routes: [{ jobId: job.id, companyId: company.id, vehicleId: v.id, name: 'r', date: '2026-12-01', plannedMileageKm: 1, plannedDurationMin: 10, totalWeightKg: 1, totalVolumeM3: 0.01,
          stops: [{ position: 1, stopType: 'order' as const, orderId: o.id, orderExternalId: 'X', warehouseId: null, address: 'B', lat: 52.5, lon: 13.4, plannedArrivalAt: now, plannedDepartureAt: now }] }],
      };
      let seq = 0;
      const publish = async (tx: Parameters<NonNullable<Parameters<typeof a.planning.setPublisher>[0]>>[0], companyId: number, event: 'planning_job.finished' | 'order.status_changed' | 'route.updated', data: unknown) => {
        for (const s of await tx.webhooks.forEvent(companyId, event)) {
          const id = `d-${++seq}`;
          await tx.outbox.add([{ id, subscriptionId: s.id, url: s.url, secret: s.secret, event, body: JSON.stringify({ id, event, data }), createdAt: Date.parse(now) + seq }]);
        }
      };
      // the hook throws after writing its first row: the whole commit rolls back
      a.planning.setPublisher(async (tx, companyId, event, data) => {
        await publish(tx, companyId, event, data);
        if (event === 'planning_job.finished') throw new Error('outbox full');
      });
      await expect(commitPlan(a.planning, plan)).rejects.toThrow('outbox full');
      expect(await a.outbox.list()).toEqual([]);
      expect(await f.orderStatus(o.id)).toBe('new');
      expect(await f.countRoutes(company.id)).toBe(0);
      expect((await a.planning.getJob(company.id, job.id))!.status).toBe('running');

      a.planning.setPublisher(publish);
      const done = await commitPlan(a.planning, plan);
      expect(done.job.status).toBe('done');
      const rows = await a.outbox.list();
      expect(rows.map((d) => [d.subscriptionId, d.event])).toEqual([
        [sub.id, 'order.status_changed'],
        [sub.id, 'planning_job.finished'],
      ]);
      expect(JSON.parse(rows[1].body).data).toMatchObject({ job_id: job.id, status: 'done' });

      // a failed job's finished event commits with the failure; a stale owner writes neither
      const failing = await a.planning.createJob(company.id, input, now);
      await a.planning.claimJob('q', now, until(30_000));
      await expect(a.planning.updateJob(failing.id, { status: 'failed', error: 'x' }, now, 'stale')).rejects.toEqual(new LeaseLostError(failing.id));
      expect(await a.outbox.list()).toHaveLength(2);
      await a.planning.updateJob(failing.id, { status: 'failed', error: 'It broke.' }, now, 'q');
      const last = (await a.outbox.list()).at(-1)!;
      expect(JSON.parse(last.body).data).toMatchObject({ job_id: failing.id, status: 'failed' });
      a.planning.setPublisher(undefined);
    });

    it('a store opening while another process migrates waits for it, past its own lock_timeout', async () => {
      const fresh = await createTestDatabase();
      const holder = new pg.Client({ connectionString: fresh.url });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [LOCK.migrations.toString()]);
        let opened = false;
        const opening = PgStore.open(fresh.url, { lockTimeoutMs: 100 }).then((s) => ((opened = true), s));
        await new Promise((r) => setTimeout(r, 500));
        expect(opened).toBe(false);
        await holder.query('SELECT pg_advisory_unlock($1)', [LOCK.migrations.toString()]);
        const s = await opening;
        expect((await s.pool.query(`SELECT count(*)::int AS n FROM schema_migrations`)).rows[0].n).toBe(pgMigrations.length);
        await s.close();
      } finally {
        await holder.end();
        await fresh.drop();
      }
    });

    it('two stores opening one new database at once migrate it once', async () => {
      const fresh = await createTestDatabase();
      try {
        const stores = await Promise.all([PgStore.open(fresh.url), PgStore.open(fresh.url), PgStore.open(fresh.url)]);
        const versions = (await stores[0].pool.query(`SELECT version FROM schema_migrations ORDER BY version`)).rows.map((r) => r.version);
        expect(versions).toEqual(pgMigrations.map((m) => m.version).sort((a, b) => a - b));
        expect(versions.slice(0, 12)).toEqual([1, 2, 3, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
        for (const s of stores) await s.close();
      } finally {
        await fresh.drop();
      }
    });
  });
});
