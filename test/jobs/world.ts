/**
 * Test worlds for the job layer: a company in Berlin (or any zone), warehouses, vehicles and
 * orders in a MemoryPlanningStore, plus the pool and service wired as in production.
 */
import turfDistance from '@turf/distance';
import { expect } from 'vitest';
import { MemoryPlanningStore } from '../../src/jobs/memory-store.js';
import { haversineProvider } from '../../src/jobs/problem.js';
import { JobService, type JobServiceOptions, type SolveRunner } from '../../src/jobs/service.js';
import { assertFeasible } from '../helpers/checker.js';
import type { SolveResult } from '../../src/model/input.js';
import type { SolveTask } from '../../src/pool/messages.js';
import type { SolverPool } from '../../src/pool/pool.js';
import type { JobView } from '../../src/jobs/view.js';
import type { PlanningOrder, PlanningVehicle, Warehouse } from '../../src/jobs/ports.js';
import { DayAxis, parseClock, parseShift } from '../../src/jobs/time.js';

export const COMPANY = 1;
export const OTHER_COMPANY = 2;
export const DATE = '2026-12-01';
/** Test worker that can misbehave on markers (see the fixture). */
export const FAULTY_WORKER = new URL('../pool/fixtures/faulty-worker.mjs', import.meta.url);
export const SPEED_KMH = 30;
export const DETOUR = 1.3;

export const CENTRE: [number, number] = [52.52, 13.405];

/** A point `northKm` north and `eastKm` east of the centre. */
export function near(northKm: number, eastKm: number, from: [number, number] = CENTRE): { lat: number; lon: number } {
  const lat = from[0] + northKm / 111.2;
  const lon = from[1] + eastKm / (111.2 * Math.cos((from[0] * Math.PI) / 180));
  return { lat, lon };
}

export function makeStore(timezone = 'Europe/Berlin'): RecordingStore {
  const store = new RecordingStore();
  store.addCompany({ id: COMPANY, timezone });
  store.addCompany({ id: OTHER_COMPANY, timezone: 'UTC' });
  store.addWarehouse({ id: 1, companyId: COMPANY, name: 'Mitte', address: 'Alexanderplatz 1', ...near(0, 0) });
  store.addWarehouse({ id: 2, companyId: COMPANY, name: 'Spandau', address: 'Spandau depot', ...near(2, -15) });
  store.addWarehouse({ id: 9, companyId: OTHER_COMPANY, name: 'Elsewhere', address: 'x', ...near(0, 0) });
  return store;
}

let nextOrderId = 1000;

export function addOrder(store: MemoryPlanningStore, fields: Partial<PlanningOrder> = {}): PlanningOrder {
  const id = fields.id ?? nextOrderId++;
  return store.addOrder({
    id,
    companyId: COMPANY,
    externalId: `EXT-${id}`,
    status: 'new',
    address: `Street ${id}`,
    ...near(((id * 7) % 11) - 5, ((id * 13) % 9) - 4),
    weightKg: 10,
    volumeM3: 0.1,
    serviceTimeMin: 5,
    timeWindowStart: null,
    timeWindowEnd: null,
    deliveryDate: DATE,
    ...fields,
  });
}

export function addVehicle(store: MemoryPlanningStore, id: number, fields: Partial<PlanningVehicle> = {}): PlanningVehicle {
  return store.addVehicle({
    id,
    companyId: COMPANY,
    name: `Van ${id}`,
    active: true,
    warehouseId: 1,
    capacityKg: 1000,
    capacityM3: 10,
    shift: '08:00-18:00',
    maxDistanceKm: null,
    maxDurationMin: null,
    maxOrders: null,
    features: [],
    ...fields,
  });
}

const travelSeconds = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  (turfDistance([a.lon, a.lat], [b.lon, b.lat], { units: 'meters' }) * DETOUR) / (SPEED_KMH / 3.6);

const ms = (ts: string) => Date.parse(ts);

/**
 * Independent checks of a finished job against the store (no solver code): every selected order
 * with coordinates is placed once or unassigned once, orders without coordinates are neither;
 * routes and stops are well formed; capacity, max orders, max distance, max duration, shift and
 * time windows hold; travel times between stops are respected (haversine at the test speed);
 * placed orders are in_route with a history entry.
 */
export function checkJob(store: MemoryPlanningStore, view: JobView, timezone = 'Europe/Berlin'): void {
  expect(view.status).toBe('done');
  const result = view.result as Exclude<JobView['result'], Record<string, never>>;
  const placed = new Map<number, number>();
  for (const routeId of result.route_ids) {
    const route = store.getRoute(routeId)!;
    expect(route).toBeDefined();
    expect(route.status).toBe('planned');
    const vehicle = store.getVehiclesByIds(COMPANY, [route.vehicleId])[0];
    const stops = route.stops;
    expect(stops.map((s) => s.position)).toEqual(stops.map((_, i) => i + 1));
    expect(stops[0].stopType).toBe('start_depot');
    expect(stops.at(-1)!.stopType).toBe('end_depot');
    const orderStops = stops.slice(1, -1);
    expect(orderStops.length).toBeGreaterThan(0);
    let weight = 0;
    let volume = 0;
    let metres = 0;
    const axis = new DayAxis(timezone, route.date);
    for (let i = 0; i < stops.length; i++) {
      const s = stops[i];
      expect(s.plannedArrivalAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(ms(s.plannedDepartureAt)).toBeGreaterThanOrEqual(ms(s.plannedArrivalAt));
      if (i > 0) {
        const prev = stops[i - 1];
        metres += (travelSeconds(prev, s) * SPEED_KMH) / 3.6;
        expect(ms(s.plannedArrivalAt)).toBeGreaterThanOrEqual(ms(prev.plannedDepartureAt) + travelSeconds(prev, s) * 1000 - 1500);
      }
      if (s.stopType !== 'order') continue;
      expect(placed.has(s.orderId!)).toBe(false);
      placed.set(s.orderId!, routeId);
      const order = store.getOrder(s.orderId!)!;
      expect(order.deliveryDate).toBe(route.date);
      expect(order.status).toBe('in_route');
      expect(store.getOrderHistory(order.id).at(-1)).toMatchObject({ status: 'in_route', previous_status: 'new' });
      expect(s.orderExternalId).toBe(order.externalId);
      weight += order.weightKg;
      volume += order.volumeM3;
      expect(ms(s.plannedDepartureAt) - ms(s.plannedArrivalAt)).toBeCloseTo(order.serviceTimeMin * 60_000, -3);
      if (order.timeWindowStart) expect(ms(s.plannedArrivalAt)).toBeGreaterThanOrEqual(axis.midnightMs + axis.toAxis(parseClock(order.timeWindowStart)) * 1000);
      if (order.timeWindowEnd) expect(ms(s.plannedArrivalAt)).toBeLessThanOrEqual(axis.midnightMs + axis.toAxis(parseClock(order.timeWindowEnd)) * 1000);
    }
    expect(weight).toBeLessThanOrEqual(vehicle.capacityKg + 1e-9);
    expect(volume).toBeLessThanOrEqual(vehicle.capacityM3 + 1e-9);
    expect(route.totalWeightKg).toBeCloseTo(weight, 3);
    expect(route.totalVolumeM3).toBeCloseTo(volume, 3);
    expect(route.plannedMileageKm).toBeCloseTo(metres / 1000, 1);
    if (vehicle.maxOrders !== null) expect(orderStops.length).toBeLessThanOrEqual(vehicle.maxOrders);
    if (vehicle.maxDistanceKm !== null) expect(route.plannedMileageKm).toBeLessThanOrEqual(vehicle.maxDistanceKm + 0.01);
    const [shiftStart, shiftEnd] = parseShift(vehicle.shift);
    const start = ms(stops[0].plannedDepartureAt);
    const end = ms(stops.at(-1)!.plannedArrivalAt);
    expect(start).toBeGreaterThanOrEqual(axis.midnightMs + axis.toAxis(shiftStart) * 1000 - 1000);
    expect(end).toBeLessThanOrEqual(axis.midnightMs + axis.toAxis(shiftEnd) * 1000 + 1000);
    expect(route.plannedDurationMin).toBe(Math.round((end - start) / 60_000));
    if (vehicle.maxDurationMin !== null) expect(end - start).toBeLessThanOrEqual(vehicle.maxDurationMin * 60_000 + 1000);
  }
  const unassigned = new Set(result.unassigned.map((u) => u.order_id));
  expect(unassigned.size).toBe(result.unassigned.length);
  expect(result.summary).toEqual({ route_count: result.route_ids.length, unassigned_count: result.unassigned.length });
  for (const id of view.input.order_ids) {
    const order = store.getOrder(id)!;
    const located = order.lat !== null && order.lon !== null;
    const count = (placed.has(id) ? 1 : 0) + (unassigned.has(id) ? 1 : 0);
    expect(count, `order ${id}`).toBe(located ? 1 : 0);
    if (unassigned.has(id)) expect(order.status).toBe('new');
  }
}

export type { Warehouse };

/** A memory store that also records every status a job takes, in order. */
export class RecordingStore extends MemoryPlanningStore {
  readonly transitions = new Map<number, string[]>();

  override createJob(...args: Parameters<MemoryPlanningStore['createJob']>) {
    const job = super.createJob(...args);
    this.transitions.set(job.id, [job.status]);
    return job;
  }
  override updateJob(...args: Parameters<MemoryPlanningStore['updateJob']>) {
    const job = super.updateJob(...args);
    this.transitions.get(job.id)?.push(job.status);
    return job;
  }
  override claimJob(...args: Parameters<MemoryPlanningStore['claimJob']>) {
    const job = super.claimJob(...args);
    if (job) this.transitions.get(job.id)?.push(job.status);
    return job;
  }
  override releaseJob(...args: Parameters<MemoryPlanningStore['releaseJob']>) {
    const released = super.releaseJob(...args);
    if (released) this.transitions.get(args[0])?.push('released');
    return released;
  }
  protected override finishJob(...args: Parameters<MemoryPlanningStore['finishJob']>) {
    const job = super.finishJob(...args);
    this.transitions.get(job.id)?.push(job.status);
    return job;
  }
}

/** Waits (polling every 10 ms) until `condition` holds. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

/** Wires the job service as in production (real pool, haversine at the test speed) and checks
 *  every solve with the independent checker of test/helpers. */
export function makeService(store: MemoryPlanningStore, pool: SolveRunner, options: Partial<JobServiceOptions> = {}): JobService {
  return new JobService({
    store,
    pool,
    timeBudgetSec: 0.3,
    matrix: haversineProvider({ speedKmh: SPEED_KMH, detourFactor: DETOUR }),
    onSolved: ({ problem, result }) => assertFeasible(problem, result),
    ...options,
  });
}

/** Submits and waits for the end of the job. */
export async function plan(service: JobService, request: Parameters<JobService['submit']>[1]): Promise<JobView> {
  const job = await service.submit(COMPANY, request);
  return service.waitFor(COMPANY, job.job_id);
}

/** The real pool, with a record of every task (real worker threads; the recorder only notes what goes through them). */
/** One task a Recorder saw. */
export interface Seen {
  seed: number;
  timeLimit: number;
  flag?: Int32Array;
  task: SolveTask;
  /** Order in which the tasks settled (0 first). */
  settled?: number;
  result?: SolveResult;
}

/** The real pool, with a record of every task and the order in which the tasks settled. */
export class Recorder implements SolveRunner {
  readonly size: number;
  readonly seen: Seen[] = [];
  private settledCount = 0;
  /**
   * A virtual clock for the cooperative solve's epochs (`solveClock`): a task that settles moves it
   * to the task's start plus its own time limit, as on an idle machine. The epochs that follow
   * then depend on the budget alone, not on how long a loaded machine took.
   */
  private virtualMs = 0;
  readonly clock = () => this.virtualMs;
  constructor(private readonly inner: SolverPool) {
    this.size = inner.size;
  }
  async run(task: SolveTask, options?: { signal?: AbortSignal }): Promise<SolveResult> {
    const entry: Seen = { seed: task.options.seed!, timeLimit: task.options.timeLimit!, flag: task.stop && new Int32Array(task.stop), task };
    this.seen.push(entry);
    const startedMs = this.virtualMs;
    try {
      entry.result = await this.inner.run(task, options);
      return entry.result;
    } finally {
      entry.settled = this.settledCount++;
      this.virtualMs = Math.max(this.virtualMs, startedMs + entry.timeLimit * 1000);
    }
  }
}
