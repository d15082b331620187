/**
 * Trips (maxTrips, reloadTime): every solution is checked by the independent checker, which
 * recomputes each trip's load, the reload stops and their times from the raw input.
 */
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import type { OrderInput, ProblemInput, SolveResult } from '../../src/model/input.js';
import { parseProblem, ProblemValidationError } from '../../src/schema/problem.js';
import { assertFeasible, checkSolution } from '../helpers/checker.js';
import { lcg, randomProblem } from '../helpers/problems.js';

const trips = (r: SolveResult) => r.routes.reduce((n, x) => n + 1 + (x.reloads?.length ?? 0), 0);

describe('trips on random instances', () => {
  const cases = [
    { seed: 1, windows: false, limits: false, maxTrips: 3 },
    { seed: 2, windows: true, limits: false, maxTrips: 2 },
    { seed: 3, windows: true, limits: true, maxTrips: 4 },
    { seed: 4, windows: false, limits: true, maxTrips: 3 },
    { seed: 5, windows: true, limits: false, maxTrips: 5 },
  ];
  for (const c of cases)
    it(`seed ${c.seed}: ${c.maxTrips} trips${c.windows ? ', windows' : ''}${c.limits ? ', limits' : ''}`, () => {
      const p = randomProblem({ orders: 70, vehicles: 3, seed: c.seed, capacity: 120, windows: c.windows, limits: c.limits });
      for (const v of p.vehicles) {
        v.maxTrips = c.maxTrips;
        v.reloadTime = 15;
        v.shift = [0, 2500];
        if (c.limits) v.maxOrders = 40;
      }
      const r = solve(p, { iterations: 400, seed: c.seed });
      assertFeasible(p, r);
      // the fleet carries 3 x 120 a trip and the orders weigh about 735: it must reload
      expect(trips(r)).toBeGreaterThan(r.routes.length);
      for (const route of r.routes) expect(route.reloads?.length ?? 0).toBeLessThanOrEqual(c.maxTrips - 1);
    });

  it('serves what one trip a vehicle cannot, and the reloads pay for themselves', () => {
    const p = randomProblem({ orders: 60, vehicles: 2, seed: 9, capacity: 150 });
    for (const v of p.vehicles) v.shift = [0, 5000];
    const one = solve(p, { iterations: 300, seed: 1 });
    assertFeasible(p, one);
    for (const v of p.vehicles) {
      v.maxTrips = 4;
      v.reloadTime = 10;
    }
    const many = solve(p, { iterations: 300, seed: 1 });
    assertFeasible(p, many);
    expect(one.unassigned.length).toBeGreaterThan(0);
    expect(one.unassigned.every((u) => u.reason === 'capacity')).toBe(true);
    expect(many.unassigned).toEqual([]);
    // no reload without an order on each side (the checker enforces non-empty trips)
    for (const route of many.routes) for (const x of route.reloads ?? []) expect(x.departure - x.arrival).toBe(10);
  });
});

/** One van of 600 kg and 20 orders of 60 to 90 kg (about 1,500 kg) around a depot (city units: metres, seconds). */
function van(maxTrips: number): ProblemInput {
  const rnd = lcg(17);
  const coords: Array<[number, number]> = [[52.52, 13.405]];
  const orders: OrderInput[] = [];
  for (let i = 0; i < 20; i++) {
    coords.push([52.52 + (rnd() - 0.5) * 0.08, 13.405 + (rnd() - 0.5) * 0.12]);
    orders.push({ id: `o${i}`, location: i + 1, weight: 60 + Math.round(rnd() * 30), volume: 0.2, serviceTime: 300 });
  }
  return {
    matrix: { kind: 'haversine', coordinates: coords, speedKmh: 25 },
    depots: [{ id: 'wh', location: 0 }],
    vehicles: [{ id: 'van', capacity: { weight: 600, volume: 10 }, shift: [8 * 3600, 18 * 3600], startDepot: 'wh', endDepot: 'wh', maxTrips, reloadTime: 900 }],
    orders,
  };
}

describe('a 600 kg van and about 1,500 kg of orders', () => {
  it('serves them all with reloads, and at most 600 kg of them without', () => {
    const with3 = van(3);
    const total = with3.orders.reduce((s, o) => s + o.weight, 0);
    expect(total).toBeGreaterThan(1400);
    const r = solve(with3, { iterations: 300, seed: 1 });
    assertFeasible(with3, r);
    expect(r.unassigned).toEqual([]);
    expect(r.routes).toHaveLength(1);
    const reloads = r.routes[0].reloads ?? [];
    expect(reloads.length).toBe(2); // 1,500 kg in 600 kg trips: three trips
    for (const x of reloads) {
      expect(x.depotId).toBe('wh');
      expect(x.departure - x.arrival).toBe(900);
      expect(x.load.weight).toBeLessThanOrEqual(600);
      expect(x.load.weight).toBeGreaterThan(0);
    }

    const with1 = van(1);
    const s = solve(with1, { iterations: 300, seed: 1 });
    assertFeasible(with1, s);
    const placed = s.routes.reduce((w, x) => w + x.load.weight, 0);
    expect(placed).toBeLessThanOrEqual(600);
    expect(s.unassigned.length).toBeGreaterThan(10);
    expect(s.unassigned.every((u) => u.reason === 'capacity')).toBe(true);
  });
});

describe('unassigned reasons with trips', () => {
  /** Orders 50 away from the depot (a trip is 100 long), one order fills a trip. */
  function line(n: number, maxTrips: number, shiftEnd: number, extra: Partial<OrderInput> = {}): ProblemInput {
    return {
      matrix: { kind: 'euclidean', coordinates: [[0, 0], ...Array.from({ length: n }, (_, i) => [50, i * 0.001] as [number, number])] },
      depots: [{ id: 'd', location: 0 }],
      vehicles: [{ id: 'v', capacity: { weight: 10, volume: 10 }, shift: [0, shiftEnd], startDepot: 'd', endDepot: 'd', maxTrips, reloadTime: 5 }],
      orders: Array.from({ length: n }, (_, i) => ({ id: `o${i}`, location: i + 1, weight: 10, volume: 1, serviceTime: 0, ...(i === n - 1 ? extra : {}) })),
    };
  }

  it('capacity: no single trip can carry the order', () => {
    const p = line(3, 5, 10_000, { weight: 11 });
    const r = solve(p, { iterations: 100, seed: 1 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([{ orderId: 'o2', reason: 'capacity' }]);
  });

  it('time_window: every trip is full and no further trip fits in the shift', () => {
    // two trips take 100 + 5 + 100 = 205; a third would end at 310 > 250
    const p = line(3, 5, 250);
    const r = solve(p, { iterations: 100, seed: 1 });
    assertFeasible(p, r);
    expect(r.unassigned).toHaveLength(1);
    expect(r.unassigned[0].reason).toBe('time_window');
    expect(r.routes[0].reloads).toHaveLength(1);
  });

  it('max_duration and max_distance block the extra trip where they are the limit', () => {
    const dur = line(3, 5, 10_000);
    dur.vehicles[0].maxDuration = 250;
    const a = solve(dur, { iterations: 100, seed: 1 });
    assertFeasible(dur, a);
    expect(a.unassigned.map((u) => u.reason)).toEqual(['max_duration']);
    const dist = line(3, 5, 10_000);
    dist.vehicles[0].maxDistance = 250;
    const b = solve(dist, { iterations: 100, seed: 1 });
    assertFeasible(dist, b);
    expect(b.unassigned.map((u) => u.reason)).toEqual(['max_distance']);
  });

  it('capacity when the trips the vehicle is allowed are all full and time is left', () => {
    const p = line(3, 2, 10_000);
    const r = solve(p, { iterations: 100, seed: 1 });
    assertFeasible(p, r);
    expect(r.unassigned.map((u) => u.reason)).toEqual(['capacity']);
    expect(r.routes[0].reloads).toHaveLength(1);
  });
});

describe('the checker on trips', () => {
  it('rejects a trip over capacity, a wrong reload time, too many trips and an empty trip', () => {
    const p = van(3);
    const r = solve(p, { iterations: 100, seed: 1 });
    assertFeasible(p, r);
    const copy = () => structuredClone(r);
    const dropped = copy();
    dropped.routes[0].reloads = dropped.routes[0].reloads!.slice(1);
    expect(checkSolution(p, dropped).join('\n')).toMatch(/capacity 600 \(trip/);
    const slow = copy();
    slow.routes[0].reloads![0].departure += 60;
    expect(checkSolution(p, slow).join('\n')).toMatch(/reload 1 times reported/);
    const fewer = structuredClone(p);
    fewer.vehicles[0].maxTrips = 2;
    expect(checkSolution(fewer, r).join('\n')).toMatch(/3 trips > maxTrips 2/);
    const empty = copy();
    empty.routes[0].reloads![1].after = empty.routes[0].reloads![0].after;
    expect(checkSolution(p, empty).join('\n')).toMatch(/empty or out of order/);
  });
});

describe('maxTrips and reloadTime at the boundary', () => {
  const base = () => van(2);
  for (const [field, value, rule] of [
    ['maxTrips', 0, 'must be >= 1'],
    ['maxTrips', 1.5, 'must be an integer'],
    ['maxTrips', 51, 'must be <= 50'],
    ['maxTrips', '2', 'must be a number'],
    ['reloadTime', -1, 'must be >= 0'],
  ] as const)
    it(`${field} = ${JSON.stringify(value)} is refused naming the field`, () => {
      const p = base() as unknown as { vehicles: Array<Record<string, unknown>> };
      p.vehicles[0][field] = value;
      let err: unknown;
      try {
        parseProblem(p);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ProblemValidationError);
      expect((err as Error).message).toContain(`vehicles[0].${field}: ${rule}`);
    });

  it('a warm start keeps the reloads it is given', () => {
    const p = van(3);
    const r = solve(p, { iterations: 100, seed: 1 });
    const initialRoutes = r.routes.map((x) => ({ vehicleId: x.vehicleId, orderIds: x.stops.map((s) => s.orderId), reloadsAfter: x.reloads?.map((y) => y.after) }));
    const again = solve(p, { iterations: 0, seed: 1, initialRoutes });
    assertFeasible(p, again);
    expect(again.unassigned).toEqual([]);
    expect(again.routes[0].reloads).toHaveLength(2);
  });
});

describe('trips on worker threads', () => {
  it('solveParallel shares solutions with their reloads between epochs', async () => {
    const { solveParallel } = await import('../../src/index.js');
    const p = van(3);
    const r = await solveParallel(p, { threads: 2, iterations: 400, seed: 2 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
    expect(r.routes[0]!.reloads).toHaveLength(2);
  });
});
