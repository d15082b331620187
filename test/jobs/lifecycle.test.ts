import { afterAll, describe, expect, it } from 'vitest';
import { EventBus, type PlannerEvent } from '../../src/jobs/events.js';
import { JobService } from '../../src/jobs/service.js';
import { SolverPool } from '../../src/pool/pool.js';
import type { JobView } from '../../src/jobs/view.js';
import { TooManyJobsError } from '../../src/jobs/ports.js';
import { threadCpuKnowable } from '../../src/pool/thread-cpu.js';
import { COMPANY, OTHER_COMPANY, FAULTY_WORKER, addOrder, addVehicle, checkJob, makeService, makeStore, until } from './world.js';

// Pool mechanics and the state machine, with the test worker's markers on the vehicles:
// test:unassign (answers at once, nothing placed), test:crash, test:oom, test:hang, test:throw.
const pool = new SolverPool({ filename: FAULTY_WORKER, threads: 2, maxOldGenerationSizeMb: 64 });
const realPool = new SolverPool({ threads: 1 });
afterAll(() => Promise.all([pool.destroy(), realPool.destroy()]));

function world(marker: string) {
  const store = makeStore();
  addVehicle(store, 1, { features: [marker] });
  for (let id = 1; id <= 3; id++) addOrder(store, { id });
  const events = new EventBus();
  const seen: PlannerEvent[] = [];
  events.onAny((e) => seen.push(e));
  return { store, events, seen };
}

describe('job states and events', () => {
  it('queued -> running -> done, with planning_job.finished carrying the job object', async () => {
    const { store, events, seen } = world('test:unassign');
    const service = new JobService({ store, pool, events, timeBudgetSec: 1 });
    const job = await service.submit(COMPANY, { order_ids: [1, 2, 3] });
    expect(job.status).toBe('queued');
    const done = await service.waitFor(COMPANY, job.job_id);
    expect(store.transitions.get(job.job_id)).toEqual(['queued', 'running', 'done']);
    expect(done.result).toEqual({
      route_ids: [],
      summary: { route_count: 0, unassigned_count: 3 },
      unassigned: [1, 2, 3].map((order_id) => ({ order_id, reason: 'no_vehicle' })),
    });
    expect(done.error).toBe('');
    expect(Date.parse(done.updated_at)).toBeGreaterThanOrEqual(Date.parse(done.created_at));
    const finished = seen.filter((e) => e.event === 'planning_job.finished');
    expect(finished).toHaveLength(1);
    expect(finished[0].data).toEqual(done);
    expect(finished[0].companyId).toBe(COMPANY);
    expect(finished[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.filter((e) => e.event === 'order.status_changed')).toHaveLength(0);
  });

  it('running -> failed when an order is no longer new: nothing placed, readable error, event sent', async () => {
    const { store, events, seen } = world('test:unassign');
    const service = new JobService({ store, pool, events, timeBudgetSec: 1 });
    store.setOrderStatus(2, 'in_route', '2026-11-30T10:00:00Z');
    const job = await service.submit(COMPANY, { order_ids: [1, 2, 3] });
    const failed = await service.waitFor(COMPANY, job.job_id);
    expect(failed.status).toBe('failed');
    expect(store.transitions.get(job.job_id)).toEqual(['queued', 'running', 'failed']);
    expect(failed.result).toEqual({});
    expect(failed.error).toBe(
      'Only orders in status new can be planned; these are not (already in a route or closed): 2 (in_route). Nothing was planned.',
    );
    expect(store.getOrder(1)!.status).toBe('new');
    expect(store.listRoutes(COMPANY)).toEqual([]);
    expect(seen.map((e) => e.event)).toEqual(['planning_job.finished']);
    expect(seen[0].data).toEqual(failed);
  });

  it('a worker that crashes fails its job with a readable error and the next job still runs', async () => {
    const { store } = world('test:crash');
    const service = new JobService({ store, pool, timeBudgetSec: 1 });
    const job = await service.submit(COMPANY, { order_ids: [1, 2] });
    const failed = await service.waitFor(COMPANY, job.job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The planning worker crashed (worker exited with code: 3). Nothing was planned.');
    expect(failed.result).toEqual({});
    addVehicle(store, 1, { features: ['test:unassign'] });
    const next = await service.waitFor(COMPANY, (await service.submit(COMPANY, { order_ids: [1, 2] })).job_id);
    expect(next.status).toBe('done');
  });

  it('a worker that runs out of memory fails its job', async () => {
    const { store } = world('test:oom');
    const service = new JobService({ store, pool, timeBudgetSec: 1 });
    const failed = await service.waitFor(COMPANY, (await service.submit(COMPANY, { order_ids: [1] })).job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The planning worker ran out of memory and was stopped. Nothing was planned; try fewer orders per job.');
  });

  it('a solve that throws fails its job', async () => {
    const { store } = world('test:throw');
    const service = new JobService({ store, pool, timeBudgetSec: 1 });
    const failed = await service.waitFor(COMPANY, (await service.submit(COMPANY, { order_ids: [1] })).job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The planning failed: the test worker threw on purpose. Nothing was planned.');
  });

  it('a solve that ignores its deadline is stopped after budget plus grace', async () => {
    const { store } = world('test:hang');
    const service = new JobService({ store, pool, timeBudgetSec: 0.2, abortGraceSec: 0.3 });
    const failed = await service.waitFor(COMPANY, (await service.submit(COMPANY, { order_ids: [1] })).job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The planning did not finish within its time budget (0.2 s plus 0.3 s grace) and was stopped. Nothing was planned.');
    expect(store.listUnfinishedJobs()).toEqual([]);
  });

  // a thread that has used no CPU past its budget plus the grace is starved (on a busy host, below
  // the event loop's priority), not stuck: it is waited for, up to the cap (pool/thread-cpu.ts)
  it.runIf(threadCpuKnowable)('a starved solve (no CPU used) is waited for past budget plus grace, and finishes', async () => {
    const { store } = world('test:sleep1500');
    const service = new JobService({ store, pool, timeBudgetSec: 0.2, abortGraceSec: 0.3 });
    const done = await service.waitFor(COMPANY, (await service.submit(COMPANY, { order_ids: [1] })).job_id);
    expect(done.status, done.error).toBe('done');
    expect(done.result?.unassigned).toEqual([{ order_id: 1, reason: 'no_vehicle' }]);
  });

  it.runIf(threadCpuKnowable)('a starved solve is stopped at the cap', async () => {
    const { store } = world('test:sleep8000');
    const service = new JobService({ store, pool, timeBudgetSec: 0.2, abortGraceSec: 0.3, abortCapSec: 1 });
    const started = Date.now();
    const failed = await service.waitFor(COMPANY, (await service.submit(COMPANY, { order_ids: [1] })).job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The planning did not finish within its time budget (0.2 s plus 0.3 s grace) and was stopped. Nothing was planned.');
    expect(Date.now() - started).toBeLessThan(7000); // not the thread's own 8 s
    expect(store.listUnfinishedJobs()).toEqual([]);
  });

  it('jobs start in FIFO order, at most `concurrency` at once', async () => {
    const { store } = world('test:unassign');
    const service = new JobService({ store, pool, timeBudgetSec: 1, concurrency: 1 });
    const order: number[] = [];
    service.events.on('planning_job.finished', (e) => order.push(e.data.job_id));
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await service.submit(COMPANY, { order_ids: [1 + (i % 3)] })).job_id);
    // with one slot, only the first can be running; the others wait queued
    expect(ids.slice(1).map((id) => store.getJob(COMPANY, id)!.status)).toEqual(['queued', 'queued', 'queued']);
    await service.idle();
    expect(order).toEqual(ids);
  });

  it('companies take turns: one company\'s queue cannot hold the pool while another waits', async () => {
    const { store } = world('test:unassign');
    for (let id = 50; id <= 52; id++) addOrder(store, { id, companyId: OTHER_COMPANY });
    const service = new JobService({ store, pool, timeBudgetSec: 1, concurrency: 1 });
    const order: number[] = [];
    service.events.on('planning_job.finished', (e) => order.push(e.data.job_id));
    const a = [];
    for (let i = 0; i < 4; i++) a.push((await service.submit(COMPANY, { order_ids: [1 + (i % 3)] })).job_id);
    const b = [];
    for (let i = 0; i < 2; i++) b.push((await service.submit(OTHER_COMPANY, { order_ids: [50 + i] })).job_id);
    await service.idle();
    // a[0] was running when the others came; then the companies alternate (FIFO within each)
    expect(order).toEqual([a[0], b[0], a[1], b[1], a[2], a[3]]);
  });

  it('a company has at most maxJobsPerCompany jobs queued or running; one more is refused, others unaffected', async () => {
    const { store } = world('test:hang');
    addOrder(store, { id: 60, companyId: OTHER_COMPANY });
    const service = new JobService({ store, pool, timeBudgetSec: 60, concurrency: 1, maxJobsPerCompany: 2 });
    const first = await service.submit(COMPANY, { order_ids: [1] });
    await service.submit(COMPANY, { order_ids: [2] });
    await until(() => store.getJob(COMPANY, first.job_id)!.status === 'running');
    const before = store.listUnfinishedJobs().length;
    await expect(service.submit(COMPANY, { order_ids: [3] })).rejects.toThrow(TooManyJobsError);
    await expect(service.submit(COMPANY, { order_ids: [3] })).rejects.toThrow(
      'This company already has 2 planning jobs queued or running, the most it may have at once. Start this job when one of them has finished.',
    );
    expect(store.listUnfinishedJobs()).toHaveLength(before);
    expect((await service.submit(OTHER_COMPANY, { order_ids: [60] })).status).toBe('queued');
    await service.close('abandon');
  });

  it('the default cap is 4 jobs a company', async () => {
    const { store } = world('test:hang');
    const service = new JobService({ store, pool, timeBudgetSec: 60, concurrency: 1 });
    for (let i = 0; i < 4; i++) await service.submit(COMPANY, { order_ids: [1 + (i % 3)] });
    await expect(service.submit(COMPANY, { order_ids: [1] })).rejects.toThrow(TooManyJobsError);
    await service.close('abandon');
  });

  it('jobs run concurrently up to the pool size (default concurrency)', async () => {
    const { store } = world('test:hang');
    const service = new JobService({ store, pool, timeBudgetSec: 60 });
    const jobs: JobView[] = [];
    for (let i = 0; i < 3; i++) jobs.push(await service.submit(COMPANY, { order_ids: [1 + i] }));
    await until(() => store.getJob(COMPANY, jobs[1].job_id)!.status === 'running');
    expect(jobs.map((j) => store.getJob(COMPANY, j.job_id)!.status)).toEqual(['running', 'running', 'queued']);
    await service.close('abandon');
  });

  it('a spare seed that ignores its stop flag loses its thread to the next job', async () => {
    // vehicle 1 makes its job's solves hang (the main one and the spare on the second thread);
    // vehicle 2's job needs a thread: the spare is flagged, ignores it, and is terminated
    const store = makeStore();
    addVehicle(store, 1, { features: ['test:hang'] });
    addVehicle(store, 2, { features: ['test:unassign'] });
    for (let id = 1; id <= 4; id++) addOrder(store, { id });
    const service = new JobService({ store, pool, timeBudgetSec: 60 });
    const stuck = await service.submit(COMPANY, { order_ids: [1, 2], vehicle_ids: [1] });
    await until(() => store.getJob(COMPANY, stuck.job_id)!.status === 'running');
    // both threads taken: the hanging job's own solve and its spare
    await new Promise((r) => setTimeout(r, 300));
    const next = await service.submit(COMPANY, { order_ids: [3, 4], vehicle_ids: [2] });
    const done = await service.waitFor(COMPANY, next.job_id);
    expect(done.status).toBe('done');
    expect(store.getJob(COMPANY, stuck.job_id)!.status).toBe('running');
    await service.close('abandon');
  });

  it('a service whose lease was taken over stops its solve and writes nothing; the new holder finishes the job once', async () => {
    const { store, events, seen } = world('test:hang');
    const lost: number[] = [];
    const stale = new JobService({ store, pool, events, timeBudgetSec: 60, leaseMs: 600, owner: 'stale', onLeaseLost: (id) => lost.push(id) });
    const job = await stale.submit(COMPANY, { order_ids: [1, 2, 3] });
    await until(() => store.getJob(COMPANY, job.job_id)!.status === 'running');
    // another process, its clock past the lease, takes the job over (the stale one stalled)
    const far = new Date(Date.now() + 3_600_000);
    expect(store.claimJob('new-holder', far.toISOString(), new Date(far.getTime() + 30_000).toISOString())).toMatchObject({ id: job.job_id, attempts: 2 });
    await until(() => lost.length > 0);
    expect(lost).toEqual([job.job_id]);
    await stale.idle();
    expect(store.getJob(COMPANY, job.job_id)!.status).toBe('running'); // still the new holder's
    expect(store.transitions.get(job.job_id)).toEqual(['queued', 'running', 'running']);
    expect(seen.filter((e) => e.event === 'planning_job.finished')).toEqual([]);
    await stale.close();
  });

  it('a job claimed more than MAX_JOB_ATTEMPTS times (its process died each time) fails with a readable error', async () => {
    const { store, events, seen } = world('test:unassign');
    const job = store.createJob(COMPANY, { order_ids: [1, 2, 3], vehicle_ids: [], warehouse_id: null }, new Date().toISOString());
    // three processes claimed it and died (their leases ran out long ago)
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 3; i++) {
      const at = base + i * 60_000;
      expect(store.claimJob(`dead-${i}`, new Date(at).toISOString(), new Date(at + 30_000).toISOString())).toMatchObject({ attempts: i + 1 });
    }
    const service = new JobService({ store, pool, events, timeBudgetSec: 1 });
    await service.start();
    const failed = await service.waitFor(COMPANY, job.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The planning was interrupted 3 times (the process running it stopped each time) and was not tried again. Nothing was planned.');
    expect(seen.filter((e) => e.event === 'planning_job.finished')).toHaveLength(1);
    expect(store.getOrder(1)!.status).toBe('new');
    await service.close();
  });

  it('a restart runs again the jobs left running and queued, and they complete', async () => {
    const { store } = world('test:hang');
    const first = new JobService({ store, pool, timeBudgetSec: 60, concurrency: 1 });
    const a = await first.submit(COMPANY, { order_ids: [1] });
    const b = await first.submit(COMPANY, { order_ids: [2] });
    const c = await first.submit(COMPANY, { order_ids: [3] });
    await until(() => store.getJob(COMPANY, a.job_id)!.status === 'running');
    // the process stops at once: its running job is handed back, not counted as an attempt
    await first.close('abandon');
    expect([a, b, c].map((j) => store.getJob(COMPANY, j.job_id)!.status)).toEqual(['running', 'queued', 'queued']);
    expect(store.transitions.get(a.job_id)).toEqual(['queued', 'running', 'released']);
    expect(store.getJob(COMPANY, a.job_id)!.attempts).toBe(0);

    // the next start has the real solver: the three jobs are planned for real
    addVehicle(store, 1);
    const second = makeService(store, realPool);
    const finished: number[] = [];
    second.events.on('planning_job.finished', (e) => finished.push(e.data.job_id));
    await second.start();
    await second.idle();
    expect([a, b, c].map((j) => store.getJob(COMPANY, j.job_id)!.status)).toEqual(['done', 'done', 'done']);
    for (const j of [a, b, c]) checkJob(store, (await second.get(COMPANY, j.job_id))!);
    // a was planned first and took the only vehicle; b and c found it busy
    expect((await second.get(COMPANY, a.job_id))!.result).toMatchObject({ summary: { route_count: 1, unassigned_count: 0 } });
    expect((await second.get(COMPANY, b.job_id))!.result).toMatchObject({ unassigned: [{ order_id: 2, reason: 'no_vehicle' }] });
    expect(finished.sort()).toEqual([a.job_id, b.job_id, c.job_id].sort());
    expect(store.listUnfinishedJobs()).toEqual([]);
  });

  it('close("drain") lets the running job finish and leaves the queued ones for the next start', async () => {
    const { store } = world('test:unassign');
    const service = new JobService({ store, pool, timeBudgetSec: 1, concurrency: 1 });
    const a = await service.submit(COMPANY, { order_ids: [1] });
    const b = await service.submit(COMPANY, { order_ids: [2] });
    await service.close('drain');
    expect(store.getJob(COMPANY, a.job_id)!.status).toBe('done');
    expect(store.getJob(COMPANY, b.job_id)!.status).toBe('queued');
  });

  it('a road matrix that cannot be obtained fails the job', async () => {
    const { store } = world('test:unassign');
    const service = new JobService({
      store,
      pool,
      matrix: () => Promise.reject(new Error('OSRM at http://osrm.internal:5000 answered 503')),
    });
    const failed = await service.waitFor(COMPANY, (await service.submit(COMPANY, { order_ids: [1] })).job_id);
    expect(failed.status).toBe('failed');
    // the tenant never reads an internal address
    expect(failed.error).toBe('The road matrix could not be obtained (the road-matrix service failed). Nothing was planned.');
  });

  it('a closed service refuses new jobs', async () => {
    const { store } = world('test:unassign');
    const service = new JobService({ store, pool });
    await service.close();
    await expect(service.submit(COMPANY, { order_ids: [1] })).rejects.toThrow('shut down');
  });
});
