import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PlanningInputError, problemDetail } from '../../src/jobs/errors.js';
import { JobService } from '../../src/jobs/service.js';
import type { MemoryPlanningStore } from '../../src/jobs/memory-store.js';
import { SolverPool } from '../../src/pool/pool.js';
import { COMPANY, FAULTY_WORKER, OTHER_COMPANY, addOrder, addVehicle, makeStore } from './world.js';

// The jobs accepted here are solved by the test worker's `unassign` marker: validation is the topic.
const pool = new SolverPool({ filename: FAULTY_WORKER, threads: 1 });
afterAll(() => pool.destroy());

let store: MemoryPlanningStore;
let service: JobService;

beforeEach(() => {
  store = makeStore();
  addVehicle(store, 1, { features: ['test:unassign'] });
  addVehicle(store, 2, { features: ['test:unassign'] });
  addVehicle(store, 3, { active: false });
  store.addVehicle({ ...store.getVehiclesByIds(COMPANY, [1])[0], id: 8, companyId: OTHER_COMPANY });
  for (let id = 1; id <= 5; id++) addOrder(store, { id, externalId: `A-${id}` });
  addOrder(store, { id: 90, companyId: OTHER_COMPANY, externalId: 'THEIRS' });
  service = new JobService({ store, pool, timeBudgetSec: 1 });
});

async function refused(request: Parameters<JobService['submit']>[1]): Promise<PlanningInputError> {
  const jobsBefore = store.listUnfinishedJobs().length;
  try {
    await service.submit(COMPANY, request);
  } catch (error) {
    expect(error).toBeInstanceOf(PlanningInputError);
    expect(store.listUnfinishedJobs().length).toBe(jobsBefore); // all-or-nothing: no job
    return error as PlanningInputError;
  }
  throw new Error('expected the request to be refused');
}

describe('submit: the detail texts of section 7.5', () => {
  it('order ids that do not exist or belong to another company', async () => {
    const error = await refused({ order_ids: [1, 7, 90, 3, 7] });
    expect(error.detail).toBe('Orders not found for this tenant: [7, 90].');
  });

  it('external_ids that match no order of the company', async () => {
    const error = await refused({ external_ids: ['A-1', 'NOPE', 'THEIRS', 'say "hi"'] });
    expect(error.detail).toBe('Orders not found for external_ids: ["NOPE", "THEIRS", "say \\"hi\\""].');
  });

  it('an empty selection', async () => {
    expect((await refused({})).detail).toBe('The order selection is empty.');
    expect((await refused({ order_ids: [], external_ids: [] })).detail).toBe('The order selection is empty.');
    expect((await refused({ vehicle_ids: [1] })).detail).toBe('The order selection is empty.');
  });

  it('more than 500 orders', async () => {
    for (let id = 6; id <= 501; id++) addOrder(store, { id, externalId: `A-${id}` });
    const ids = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await refused({ order_ids: ids })).detail).toBe('A planning job may select at most 500 orders (got 501).');
    // the union counts: 300 ids and 201 other external ids
    const error = await refused({ order_ids: ids.slice(0, 300), external_ids: ids.slice(300).map((i) => `A-${i}`) });
    expect(error.detail).toBe('A planning job may select at most 500 orders (got 501).');
    // the size comes first, whether or not the ids exist: 501 made-up ids, and 499 known ids with
    // two unknown external_ids
    const made = await refused({ order_ids: Array.from({ length: 501 }, (_, i) => 10_000 + i) });
    expect(made.detail).toBe('A planning job may select at most 500 orders (got 501).');
    expect(made.problems.map((p) => p.kind)).toEqual(['too_many_orders', 'orders_not_found']);
    const mixed = await refused({ order_ids: ids.slice(0, 499), external_ids: ['nope-1', 'nope-2'] });
    expect(mixed.detail).toBe('A planning job may select at most 500 orders (got 501).');
    expect(mixed.problems.map(problemDetail)[1]).toBe('Orders not found for external_ids: ["nope-1", "nope-2"].');
    // exactly 500 is accepted
    const job = await service.submit(COMPANY, { order_ids: ids.slice(0, 500) });
    expect(job.input.order_ids).toHaveLength(500);
  });

  it('vehicles that are missing, inactive or of another company', async () => {
    const error = await refused({ order_ids: [1], vehicle_ids: [9, 2, 3, 8] });
    expect(error.detail).toBe('Vehicles not found or inactive for this tenant: [3, 8, 9].');
  });

  it('a warehouse that is missing or of another company', async () => {
    expect((await refused({ order_ids: [1], warehouse_id: 4 })).detail).toBe('Warehouse not found for this tenant: 4.');
    expect((await refused({ order_ids: [1], warehouse_id: 9 })).detail).toBe('Warehouse not found for this tenant: 9.');
  });

  it('collects every problem of the request; detail is the first', async () => {
    const error = await refused({ order_ids: [77], external_ids: ['X'], vehicle_ids: [99], warehouse_id: 55 });
    expect(error.problems.map(problemDetail)).toEqual([
      'Orders not found for this tenant: [77].',
      'Orders not found for external_ids: ["X"].',
      'Vehicles not found or inactive for this tenant: [99].',
      'Warehouse not found for this tenant: 55.',
    ]);
    expect(error.message).toBe(error.detail);
  });
});

describe('submit: accepted selections', () => {
  it('order_ids and external_ids select their union; input holds the resolved ids', async () => {
    const job = await service.submit(COMPANY, { order_ids: [4, 2, 2], external_ids: ['A-2', 'A-5'], vehicle_ids: [2, 1, 2], warehouse_id: 2 });
    expect(job.status).toBe('queued');
    expect(job.input).toEqual({ order_ids: [2, 4, 5], vehicle_ids: [1, 2], warehouse_id: 2 });
    expect(job.result).toEqual({});
    expect(job.error).toBe('');
    expect(job.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(job.updated_at).toBe(job.created_at);
    expect(typeof job.job_id).toBe('number');
  });

  it('without vehicle_ids and warehouse_id the input says [] and null', async () => {
    const job = await service.submit(COMPANY, { external_ids: ['A-3'] });
    expect(job.input).toEqual({ order_ids: [3], vehicle_ids: [], warehouse_id: null });
  });

  it('an external_id shared by several orders selects those still new', async () => {
    addOrder(store, { id: 20, externalId: 'DUP' });
    addOrder(store, { id: 21, externalId: 'DUP', status: 'archived' });
    addOrder(store, { id: 22, externalId: 'DUP' });
    addOrder(store, { id: 23, externalId: 'OLD', status: 'in_route' });
    const job = await service.submit(COMPANY, { external_ids: ['DUP', 'OLD'] });
    // OLD has no new order: it is selected anyway, and the job will fail on it
    expect(job.input.order_ids).toEqual([20, 22, 23]);
  });

  it('another company cannot see the job', async () => {
    const job = await service.submit(COMPANY, { order_ids: [1] });
    expect(await service.get(OTHER_COMPANY, job.job_id)).toBeUndefined();
    expect((await service.get(COMPANY, job.job_id))?.job_id).toBe(job.job_id);
    expect(await service.get(COMPANY, 123_456)).toBeUndefined();
  });
});
