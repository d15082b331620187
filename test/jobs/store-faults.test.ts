/**
 * Storage faults while a job runs: a busy or failing database never leaves a job queued or
 * running for ever, never places it twice, never sends two planning_job.finished.
 */
import { Database } from '../../src/store/sqlite/driver.js';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventBus, type PlannerEvent } from '../../src/jobs/events.js';
import { JobService } from '../../src/jobs/service.js';
import { SolverPool } from '../../src/pool/pool.js';
import { makeWorld, PUBLIC } from '../e2e/world.js';
import { COMPANY, FAULTY_WORKER, RecordingStore, addOrder, addVehicle } from './world.js';

const pool = new SolverPool({ filename: FAULTY_WORKER, threads: 1 });
afterAll(() => pool.destroy());

/** A real memory store whose next `failures` writes of a kind throw as a busy SQLite would. */
class FlakyStore extends RecordingStore {
  failRunning = 0;
  failFailed = 0;
  override claimJob(...args: Parameters<RecordingStore['claimJob']>) {
    if (this.failRunning-- > 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    return super.claimJob(...args);
  }
  override updateJob(...args: Parameters<RecordingStore['updateJob']>) {
    const kind = args[1].status;
    if (kind === 'failed' && this.failFailed-- > 0) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return super.updateJob(...args);
  }
}

describe('store faults in the job runner', () => {
  it('the claim and the failed write are retried until they land: one outcome, one event', async () => {
    const store = new FlakyStore();
    store.addCompany({ id: COMPANY, timezone: 'UTC' });
    store.addWarehouse({ id: 1, companyId: COMPANY, name: 'W', address: 'x', lat: 52.5, lon: 13.4 });
    addVehicle(store, 1, { features: ['test:throw'] });
    addOrder(store, { id: 1 });
    store.failRunning = 2;
    store.failFailed = 3;
    const events = new EventBus();
    const finished: PlannerEvent[] = [];
    events.on('planning_job.finished', (e) => finished.push(e));
    const errors: unknown[] = [];
    const service = new JobService({ store, pool, events, timeBudgetSec: 1, storeRetryBaseMs: 5, onError: (e) => errors.push(e) });
    const job = await service.submit(COMPANY, { order_ids: [1] });
    const done = await service.waitFor(COMPANY, job.job_id);
    expect(done.status).toBe('failed');
    expect(store.transitions.get(job.job_id)).toEqual(['queued', 'running', 'failed']);
    expect(finished).toHaveLength(1);
    expect(errors.map((e) => (e as { code: string }).code)).toEqual(['SQLITE_BUSY', 'SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_FULL', 'SQLITE_FULL']);
    await service.close();
  });

  it('close() ends the back-off: the job stays running in the store, to run again on the next start', async () => {
    const store = new FlakyStore();
    store.addCompany({ id: COMPANY, timezone: 'UTC' });
    store.addWarehouse({ id: 1, companyId: COMPANY, name: 'W', address: 'x', lat: 52.5, lon: 13.4 });
    addVehicle(store, 1, { features: ['test:throw'] });
    addOrder(store, { id: 1 });
    store.failFailed = 1_000_000;
    let errors = 0;
    // a short lease: the job this service leaves running is taken over by the next one once it ends
    const service = new JobService({ store, pool, timeBudgetSec: 1, storeRetryBaseMs: 5, leaseMs: 1000, onError: () => errors++ });
    const job = await service.submit(COMPANY, { order_ids: [1] });
    while (errors < 3) await new Promise((r) => setTimeout(r, 10));
    await service.close();
    expect(store.getJob(COMPANY, job.job_id)!.status).toBe('running');
    store.failFailed = 0;
    const again = new JobService({ store, pool, timeBudgetSec: 1 });
    await again.start();
    expect((await again.waitFor(COMPANY, job.job_id)).status).toBe('failed');
    await again.close();
  });

  it('a plan commit that meets another process\'s write lock (real SQLite) waits it out and lands once', async () => {
    let sawBusy!: () => void;
    const busy = new Promise<void>((resolve) => (sawBusy = resolve));
    const quiet = () => {};
    const w = await makeWorld({
      log: {
        info: quiet,
        warn: quiet,
        error: (o) => {
          if ((o as { err?: { code?: string } }).err?.code === 'SQLITE_BUSY') sawBusy();
        },
      },
    });
    const other = new Database(join(w.dir, 'planner.db'));
    try {
      const finished: number[] = [];
      w.runtime.bus.on('planning_job.finished', (e) => finished.push(e.data.job_id));
      const ids = await w.addOrders(w.someOrders(4, 'BUSY'));
      const res = await w.inject('POST', `${PUBLIC}/planning/jobs/`, { order_ids: ids });
      expect(res.statusCode).toBe(202);
      other.exec('BEGIN IMMEDIATE'); // a second connection holds the write lock
      await busy;
      other.exec('COMMIT');
      const done = await w.runtime.jobs.waitFor(w.company.id, res.json().job_id);
      expect(done.status).toBe('done');
      expect(finished).toEqual([res.json().job_id]);
      const inRoute = await w.inject('GET', `${PUBLIC}/orders/?status=in_route`);
      expect(inRoute.json().count).toBe(4);
      const rows = w.store.db.prepare(`SELECT COUNT(*) AS n FROM routes`).get() as { n: number };
      expect(rows.n).toBe(done.result && 'route_ids' in done.result ? done.result.route_ids.length : -1);
    } finally {
      other.close();
      await w.close();
    }
  });
});
