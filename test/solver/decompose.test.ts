/**
 * Sectors for the threads of one solve: the cut hands every order and vehicle to exactly one
 * sector, the merge keeps a sector's result only when it is no worse, and a decomposed solve on
 * real worker threads gives feasible, reproducible solutions.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ProblemInput, SolveResult } from '../../src/model/input.js';
import { canDecompose, depotHalves, halveRoutes, isSectorEpoch, mergeParts, sectorsPerThread, splitRoutes, type Part } from '../../src/solver/decompose.js';
import { closeParallelPools, solveParallel } from '../../src/pool/parallel.js';
import { solve } from '../../src/solver/solve.js';
import { assertFeasible } from '../helpers/checker.js';
import { randomProblem, solomon } from '../helpers/problems.js';

describe('splitRoutes / mergeParts', () => {
  const input = solomon('R101');
  const start = solve(input, { iterations: 200, seed: 3 });

  /** Two sectors that share no order and no vehicle, each within one route of half the orders, warm-started on its own routes. */
  const expectSectors = (parts: Part[] | null) => {
    expect(parts).not.toBeNull();
    expect(parts).toHaveLength(2);
    const orders = parts!.flatMap((p) => p.problem.orders.map((o) => o.id));
    expect(new Set(orders).size).toBe(input.orders.length);
    expect(orders).toHaveLength(input.orders.length);
    const vehicles = parts!.flatMap((p) => p.vehicleIds);
    expect(new Set(vehicles).size).toBe(input.vehicles.length);
    expect(vehicles).toHaveLength(input.vehicles.length);
    const longest = Math.max(...start.routes.map((r) => r.stops.length));
    for (const p of parts!) {
      // within one route of half the orders
      expect(Math.abs(p.problem.orders.length - input.orders.length / 2)).toBeLessThanOrEqual(longest);
      // the warm start is the sector's routes, on the sector's own vehicles
      expect(p.initialRoutes.flatMap((r) => r.orderIds).sort()).toEqual(p.problem.orders.map((o) => o.id).sort());
      for (const r of p.initialRoutes) expect(p.vehicleIds).toContain(r.vehicleId);
      expect(p.distance).toBeCloseTo(start.routes.filter((r) => p.vehicleIds.includes(r.vehicleId)).reduce((s, r) => s + r.distance, 0), 6);
    }
  };

  it('cuts the routes into sectors that share no order and no vehicle, of about equal order counts', () => {
    expect(start.unassigned).toEqual([]);
    for (const angle of [0, 1, 2.5, 4, 6]) expectSectors(splitRoutes(input, start, 2, angle));
  });

  it('cuts around a point towards an order when asked: still such sectors, but other ones', () => {
    const groups = (parts: Part[]) => parts.map((p) => p.initialRoutes.map((r) => r.vehicleId).sort().join(',')).join('|');
    const aroundDepot = groups(splitRoutes(input, start, 2, 1)!);
    let differ = 0;
    for (const pivot of [0, 17, 42, 63, 99]) {
      const parts = splitRoutes(input, start, 2, 1, pivot);
      expectSectors(parts);
      if (groups(parts!) !== aroundDepot) differ++;
    }
    // the pivot moves the borders: most pivots give other sectors than the depot-centred cut
    expect(differ).toBeGreaterThanOrEqual(3);
  });

  it('halves the routes into blocks: such sectors too, split by a line across the direction, then across the perpendicular one', () => {
    const groups = (parts: Part[]) => parts.map((p) => p.initialRoutes.map((r) => r.vehicleId).sort().join(',')).join('|');
    let differ = 0;
    for (const angle of [0, 1, 2.5, 4, 6]) {
      const parts = halveRoutes(input, start, 2, angle);
      expectSectors(parts);
      if (groups(parts!) !== groups(splitRoutes(input, start, 2, angle)!)) differ++;
    }
    expect(differ).toBeGreaterThanOrEqual(3);
    // four blocks: every route of blocks 0-1 lies before every route of blocks 2-3 along the
    // direction, and inside each pair the first before the second along the perpendicular one
    const xy = input.matrix.kind === 'euclidean' ? input.matrix.coordinates : [];
    const centre = (orderIds: string[]) => {
      const locs = orderIds.map((id) => input.orders.find((o) => o.id === id)!.location);
      return [locs.reduce((s, l) => s + xy[l][0], 0) / locs.length, locs.reduce((s, l) => s + xy[l][1], 0) / locs.length];
    };
    for (const angle of [0.3, 2, 5]) {
      const parts = halveRoutes(input, start, 4, angle);
      expect(parts).not.toBeNull();
      expect(parts!.flatMap((p) => p.problem.orders.map((o) => o.id)).sort()).toEqual(input.orders.map((o) => o.id).sort());
      for (const p of parts!) expect(p.initialRoutes.length).toBeGreaterThanOrEqual(4);
      const along = (a: number) => (p: Part) => p.initialRoutes.map((r) => centre(r.orderIds)).map(([x, y]) => x * Math.cos(a) + y * Math.sin(a));
      const first = along(angle);
      expect(Math.max(...first(parts![0]), ...first(parts![1]))).toBeLessThanOrEqual(Math.min(...first(parts![2]), ...first(parts![3])) + 1e-9);
      const second = along(angle + Math.PI / 2);
      expect(Math.max(...second(parts![0]))).toBeLessThanOrEqual(Math.min(...second(parts![1])) + 1e-9);
      expect(Math.max(...second(parts![2]))).toBeLessThanOrEqual(Math.min(...second(parts![3])) + 1e-9);
    }
  });

  it('declines solutions that leave orders out, too few routes, and matrices without coordinates', () => {
    expect(splitRoutes(input, { ...start, unassigned: [{ orderId: input.orders[0].id, reason: 'capacity' }] }, 2, 0)).toBeNull();
    expect(splitRoutes(input, { ...start, routes: start.routes.slice(0, 5) }, 2, 0)).toBeNull();
    expect(halveRoutes(input, { ...start, routes: start.routes.slice(0, 5) }, 2, 0)).toBeNull();
    expect(halveRoutes(input, { ...start, unassigned: [{ orderId: input.orders[0].id, reason: 'capacity' }] }, 2, 0)).toBeNull();
    const explicit = { ...input, matrix: { kind: 'explicit' as const, distance: [[0]], duration: [[0]] } };
    expect(canDecompose(explicit, {}, 2, 0)).toBe(false);
    // an explicit matrix that says where its locations are can be cut
    expect(canDecompose({ ...input, matrix: { ...explicit.matrix, coordinates: [[51.3, 12.4]] } }, {}, 2, 0)).toBe(true);
    expect(canDecompose(input, {}, 2, 0)).toBe(true);
    expect(canDecompose(input, {}, 2)).toBe(false); // 100 orders: below DECOMPOSE_FROM
    expect(canDecompose(input, {}, 1, 0)).toBe(false);
    expect(canDecompose(input, { objective: 'vehicles' }, 2, 0)).toBe(false);
  });

  it('takes a sector solved better, keeps a sector whose result is worse or leaves orders out', () => {
    const parts = splitRoutes(input, start, 2, 1)!;
    const solved = parts.map((p) => solve(p.problem, { iterations: 300, seed: 5, initialRoutes: p.initialRoutes }));
    for (const [i, r] of solved.entries()) {
      assertFeasible(parts[i].problem, r);
      expect(r.distance).toBeLessThanOrEqual(parts[i].distance + 1e-9);
    }
    const merged = mergeParts(input, start, parts, solved, 'distance');
    assertFeasible(input, merged);
    expect(merged.unassigned).toEqual([]);
    expect(merged.distance).toBeCloseTo(solved[0].distance + solved[1].distance, 6);
    expect(merged.vehicles).toBe(merged.routes.length);
    // a worse result for sector 0, one that leaves an order out for sector 1: both keep their routes
    const worse: SolveResult = { ...solved[0], distance: parts[0].distance + 1 };
    const partial: SolveResult = { ...solved[1], unassigned: [{ orderId: parts[1].problem.orders[0].id, reason: 'capacity' }] };
    const kept = mergeParts(input, start, parts, [worse, partial], 'distance');
    assertFeasible(input, kept);
    expect(kept.distance).toBeCloseTo(start.distance, 6);
    expect(kept.routes.map((r) => r.stops.map((s) => s.orderId)).sort()).toEqual(start.routes.map((r) => r.stops.map((s) => s.orderId)).sort());
  });
});

describe('depotHalves', () => {
  // random orders on a 100 x 100 plane; depots at (10, 10) and (90, 90), a third at (20, 30)
  const base = randomProblem({ orders: 120, vehicles: 9, seed: 11, windows: true });
  const n = base.matrix.kind === 'euclidean' ? base.matrix.coordinates.length : 0;
  const coordinates: Array<[number, number]> = base.matrix.kind === 'euclidean' ? [...base.matrix.coordinates, [10, 10], [90, 90], [20, 30]] : [];
  const threeDepots: ProblemInput = {
    ...base,
    matrix: { kind: 'euclidean', coordinates },
    depots: [{ id: 'd', location: 0 }, { id: 'sw', location: n }, { id: 'ne', location: n + 1 }, { id: 'w', location: n + 2 }],
    vehicles: base.vehicles.map((v, k) => {
      const depot = ['sw', 'ne', 'w'][k % 3];
      return { ...v, startDepot: depot, endDepot: depot };
    }),
  };
  const dist = (a: number, b: number) => Math.hypot(coordinates[a][0] - coordinates[b][0], coordinates[a][1] - coordinates[b][1]);

  it('cuts by start depot: the farthest two anchor the halves, a third joins the nearer; each order goes with its nearest start depot', () => {
    const halves = depotHalves(threeDepots);
    expect(halves).not.toBeNull();
    const [a, b] = halves!;
    // every order and vehicle in exactly one half
    expect([...a.orders, ...b.orders].map((o) => o.id).sort()).toEqual(threeDepots.orders.map((o) => o.id).sort());
    expect([...a.vehicles, ...b.vehicles].map((v) => v.id).sort()).toEqual(threeDepots.vehicles.map((v) => v.id).sort());
    // 'd' starts no vehicle and plays no part; 'w' (20, 30) is nearer 'sw' (10, 10) than 'ne'
    const depotsOf = (h: ProblemInput) => [...new Set(h.vehicles.map((v) => v.startDepot))].sort();
    expect([depotsOf(a), depotsOf(b)]).toEqual([['sw', 'w'], ['ne']]);
    // each order's nearest start depot is one of its half's
    const loc = { sw: n, ne: n + 1, w: n + 2 } as Record<string, number>;
    for (const h of [a, b])
      for (const o of h.orders) {
        const nearest = ['sw', 'ne', 'w'].reduce((x, y) => (dist(o.location, loc[y]) < dist(o.location, loc[x]) ? y : x));
        expect(depotsOf(h)).toContain(nearest);
      }
    expect(a.orders.length).toBeGreaterThan(0);
    expect(b.orders.length).toBeGreaterThan(0);
  });

  it('declines one start depot, a half without orders, and matrices without coordinates', () => {
    expect(depotHalves(base)).toBeNull();
    // all orders next to 'sw': the 'ne' half would have none
    const huddled: ProblemInput = { ...threeDepots, orders: threeDepots.orders.map((o) => ({ ...o, location: n + 2 })) };
    expect(depotHalves(huddled)).toBeNull();
    const explicit: ProblemInput = {
      ...threeDepots,
      matrix: { kind: 'explicit', distance: coordinates.map((_, i) => coordinates.map((__, j) => dist(i, j))), duration: coordinates.map((_, i) => coordinates.map((__, j) => dist(i, j))) },
    };
    expect(depotHalves(explicit)).toBeNull();
  });

  it('cuts an explicit (road) matrix by its coordinates: the same halves as the plane it came from', () => {
    const rows = coordinates.map((_, i) => coordinates.map((__, j) => dist(i, j)));
    // [lat, lon] of a small patch near the equator: its projection is the plane, scaled
    const latLon = coordinates.map(([x, y]): [number, number] => [y / 1000, x / 1000]);
    const road: ProblemInput = { ...threeDepots, matrix: { kind: 'explicit', distance: rows, duration: rows, coordinates: latLon } };
    const ids = (h: ProblemInput) => [h.orders.map((o) => o.id), h.vehicles.map((v) => v.id)];
    expect(depotHalves(road)!.map(ids)).toEqual(depotHalves(threeDepots)!.map(ids));
    // each half keeps the whole matrix, coordinates and all (the same locations)
    for (const h of depotHalves(road)!) expect(h.matrix).toBe(road.matrix);
  });
});

describe('isSectorEpoch', () => {
  it('every epoch after the first works on sectors, the last one too', () => {
    expect([0, 1, 2, 3, 22, 23].map(isSectorEpoch)).toEqual([false, true, true, true, true, true]);
  });
});

describe('sectorsPerThread', () => {
  it('gives a thread up to four sectors while each holds ten routes, one where the routes are few', () => {
    const cases: Array<[number, number, number]> = [
      // routes, threads, sectors a thread
      [250, 2, 4],
      [95, 2, 4], // Homberger 1000 R1 / RC1 / C1
      [80, 2, 4],
      [79, 2, 3],
      [60, 2, 3],
      [59, 2, 2],
      [40, 2, 2],
      [39, 2, 1],
      [26, 2, 1], // Homberger 1000 R2 / RC2
      [30, 2, 1], // C2
      [0, 2, 1],
      [95, 4, 2],
      [95, 8, 1],
    ];
    for (const [routes, threads, per] of cases) expect([routes, threads, sectorsPerThread(routes, threads)]).toEqual([routes, threads, per]);
  });
});

describe('solveParallel on sectors', () => {
  afterAll(() => closeParallelPools());

  it('many short routes: each thread takes several sectors in turn; feasible, every order once, reproducible', async () => {
    // about 55 routes of 3-4 orders (capacity 40, weights 1-20): two or more sectors a thread.
    // A budget of work, not time (three epochs of 300 iterations), small enough that the test
    // takes a few seconds of CPU however busy the machine is; the second run reuses the threads.
    const input = randomProblem({ orders: 200, vehicles: 80, seed: 41, capacity: 40, windows: true });
    const run = async () => {
      const epochs: Array<{ index: number; sectors: number; distance: number }> = [];
      const r = await solveParallel(input, { threads: 2, iterations: 900, seed: 4 }, { decompose: 'always', epochs: 3, keepThreads: true, onEpoch: (e) => epochs.push(e) });
      return { r, epochs };
    };
    const a = await run();
    assertFeasible(input, a.r);
    expect(a.r.unassigned).toEqual([]);
    expect(a.epochs).toHaveLength(3);
    const per = sectorsPerThread(a.r.vehicles, 2);
    expect(per).toBeGreaterThan(1);
    // every epoch after the first works on sectors
    expect(a.epochs[0].sectors).toBe(1);
    for (const e of a.epochs.slice(1)) {
      expect(e.sectors).toBeGreaterThan(2);
      expect(e.sectors % 2).toBe(0);
    }
    for (let i = 1; i < a.epochs.length; i++) expect(a.epochs[i].distance).toBeLessThanOrEqual(a.epochs[i - 1].distance + 1e-9);
    const b = await run();
    expect(b.epochs).toEqual(a.epochs);
    expect(b.r.routes.map((r) => r.stops.map((s) => s.orderId))).toEqual(a.r.routes.map((r) => r.stops.map((s) => s.orderId)));
  });


  it('runs sector epochs after the first on worker threads: feasible, reproducible, never worse than its first epoch', async () => {
    const input = solomon('RC101');
    const run = async () => {
      const epochs: Array<{ index: number; sectors: number; distance: number }> = [];
      // a budget of work (three epochs of 500 iterations), on the threads the file keeps
      const r = await solveParallel(input, { threads: 2, iterations: 1500, seed: 2 }, { decompose: 'always', epochs: 3, keepThreads: true, onEpoch: (e) => epochs.push(e) });
      return { r, epochs };
    };
    const a = await run();
    const b = await run();
    assertFeasible(input, a.r);
    expect(a.r.unassigned).toEqual([]);
    expect(a.epochs.map((e) => e.sectors)).toEqual([1, 2, 2]);
    // the best never gets worse from one epoch to the next
    for (let i = 1; i < a.epochs.length; i++) expect(a.epochs[i].distance).toBeLessThanOrEqual(a.epochs[i - 1].distance + 1e-9);
    expect(a.r.distance).toBe(b.r.distance);
    expect(a.r.routes.map((r) => r.stops.map((s) => s.orderId))).toEqual(b.r.routes.map((r) => r.stops.map((s) => s.orderId)));
  });
});
