/**
 * Room kept for the day's orders (`serve --shift-reserve-min`, src/jobs/day.ts withShiftReserve):
 * a planning job ends each route `shiftReserveSec` before its van's shift ends when every order
 * fits so; an order that fits only in the reserve is still planned (the whole shifts, warm-started
 * from the reserved plan). Checked against the store with the job layer's independent checks and
 * every solve with the independent feasibility checker (world.ts makeService).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseFlowServeArgs } from '../../src/cli/options.js';
import { warmWithWholeShifts, withShiftReserve } from '../../src/jobs/day.js';
import type { JobResult } from '../../src/jobs/ports.js';
import { DayAxis } from '../../src/jobs/time.js';
import type { ProblemInput, VehicleInput } from '../../src/model/input.js';
import { SolverPool } from '../../src/pool/pool.js';
import type { SolveRunner } from '../../src/pool/scheduler.js';
import { assertFeasible } from '../helpers/checker.js';
import { COMPANY, DATE, addOrder, addVehicle, checkJob, makeService, makeStore, near, plan } from './world.js';

const threads = new SolverPool({ threads: 1 });
afterAll(() => threads.destroy());
/** The shift ends (local hours) of the vans of every solve the job service runs. */
let shiftEnds: number[][] = [];
const pool: SolveRunner = {
  size: 1,
  run: (task, options) => {
    shiftEnds.push(task.problem.vehicles.map((v) => v.shift[1] / 3600));
    return threads.run(task, options);
  },
};

const van = (id: string, shift: [number, number], extra: Partial<VehicleInput> = {}): VehicleInput => ({
  id, capacity: { weight: 100, volume: 1 }, shift, startDepot: 'd', endDepot: 'd', ...extra,
});

describe('serve --shift-reserve-min', () => {
  it('takes whole minutes from 0 to 720', () => {
    const usage = (m: string) => new Error(m);
    expect(parseFlowServeArgs({ 'shift-reserve-min': '60' }, usage)).toEqual({ shiftReserveMin: 60 });
    expect(parseFlowServeArgs({ 'shift-reserve-min': '0' }, usage)).toEqual({ shiftReserveMin: 0 });
    expect(parseFlowServeArgs({}, usage)).toEqual({});
    for (const bad of ['-5', '1.5', 'an hour', '721', '']) expect(() => parseFlowServeArgs({ 'shift-reserve-min': bad }, usage)).toThrow(/--shift-reserve-min/);
  });
});

describe('withShiftReserve', () => {
  it('ends each shift the reserve earlier, never by more than half the shift, never before a break can be taken', () => {
    const vehicles = [
      van('a', [8 * 3600, 18 * 3600]),
      van('b', [8 * 3600, 10 * 3600]),
      van('c', [8 * 3600, 18 * 3600], { breaks: [{ window: [16 * 3600, 17.5 * 3600], duration: 1800 }] }),
    ];
    const out = withShiftReserve({ vehicles }, 3600).vehicles;
    expect(out[0].shift).toEqual([8 * 3600, 17 * 3600]);
    expect(out[1].shift).toEqual([8 * 3600, 9 * 3600]);
    expect(out[2].shift).toEqual([8 * 3600, 17 * 3600]);
    expect(withShiftReserve({ vehicles }, 3 * 3600).vehicles.map((v) => v.shift[1])).toEqual([15 * 3600, 9 * 3600, 16.5 * 3600]);
    expect(withShiftReserve({ vehicles }, 0).vehicles).toBe(vehicles);
  });

  it('the whole-shift problem is warm-started from the reserved plan: its orders on their vans in route order, free to move', () => {
    const problem = {
      matrix: { kind: 'euclidean', coordinates: [[0, 0], [1, 0], [2, 0], [3, 0]] },
      depots: [{ id: 'd', location: 0 }],
      vehicles: [van('a', [0, 100]), van('b', [0, 100])],
      orders: ['1', '2', '3'].map((id, i) => ({ id, location: i + 1, weight: 1, volume: 0, serviceTime: 0 })),
    } as ProblemInput;
    const reserved = { routes: [{ vehicleId: 'b', stops: [{ orderId: '3' }, { orderId: '1' }] }], unassigned: [{ orderId: '2' }] } as never;
    const warm = warmWithWholeShifts(problem, reserved);
    expect(warm.orders.map((o) => [o.id, o.currentVehicle, o.keptMoveWeight])).toEqual([
      ['3', 'b', 0],
      ['1', 'b', 0],
      ['2', undefined, undefined],
    ]);
    expect(warm.vehicles).toBe(problem.vehicles);
  });
});

describe('a planning job with a shift reserve', () => {
  const endOf = (routeId: number, store: ReturnType<typeof makeStore>) => Date.parse(store.getRoute(routeId)!.stops.at(-1)!.plannedArrivalAt);
  const axis = new DayAxis('Europe/Berlin', DATE);
  const local = (h: number) => axis.midnightMs + axis.toAxis(h * 3600) * 1000;

  it('ends the routes the reserve before the shift ends when every order fits so', async () => {
    const store = makeStore();
    addVehicle(store, 1, { shift: '08:00-18:00' });
    // 16 orders 5 min each around the depot, one of them at 15:00-17:30: the van waits for it
    for (let id = 1; id <= 16; id++) addOrder(store, { id, ...near((id % 5) - 2, (id % 3) - 1), ...(id === 16 ? { timeWindowStart: '15:00:00', timeWindowEnd: '17:30:00' } : {}) });
    const service = makeService(store, pool, { shiftReserveSec: 3600 });
    shiftEnds = [];
    const done = await plan(service, { order_ids: Array.from({ length: 16 }, (_, i) => i + 1) });
    checkJob(store, done);
    const result = done.result as JobResult;
    expect(result.unassigned).toEqual([]);
    expect(shiftEnds).toEqual([[17]]);
    for (const id of result.route_ids) expect(endOf(id, store)).toBeLessThanOrEqual(local(17) + 1000);
    await service.close();
  });

  it('plans an order that fits only in the reserve (whole shifts, warm-started), every solve checked', async () => {
    const store = makeStore();
    addVehicle(store, 1, { shift: '08:00-18:00' });
    for (let id = 1; id <= 8; id++) addOrder(store, { id, ...near((id % 3) - 1, (id % 4) - 2) });
    // only between 17:20 and 17:40, 1 km from the depot: never back by 17:00
    addOrder(store, { id: 9, ...near(1, 0), timeWindowStart: '17:20:00', timeWindowEnd: '17:40:00' });
    const solves: number[] = [];
    const service = makeService(store, pool, {
      shiftReserveSec: 3600,
      onSolved: ({ problem, result }) => {
        assertFeasible(problem, result);
        solves.push(result.routes.reduce((n, r) => n + r.stops.length, 0));
      },
    });
    shiftEnds = [];
    const done = await plan(service, { order_ids: Array.from({ length: 9 }, (_, i) => i + 1) });
    // the reserved solve first, then the whole shift
    expect(shiftEnds).toEqual([[17], [18]]);
    checkJob(store, done);
    const result = done.result as JobResult;
    expect(result.unassigned).toEqual([]);
    expect(solves).toEqual([9]);
    const route = store.getRoute(result.route_ids[0])!;
    expect(route.stops.filter((s) => s.stopType === 'order').map((s) => s.orderId)).toContain(9);
    expect(endOf(route.id, store)).toBeGreaterThan(local(17));
    await service.close();
  });

  it('without a reserve a route may run to the end of the shift (the default)', async () => {
    const store = makeStore();
    addVehicle(store, 1, { shift: '08:00-18:00' });
    addOrder(store, { id: 1, ...near(1, 0), timeWindowStart: '17:20:00', timeWindowEnd: '17:40:00' });
    const service = makeService(store, pool);
    shiftEnds = [];
    const done = await plan(service, { order_ids: [1] });
    expect(shiftEnds).toEqual([[18]]);
    checkJob(store, done);
    expect((done.result as JobResult).unassigned).toEqual([]);
    await service.close();
  });
});
