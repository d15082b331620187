import { describe, expect, it } from 'vitest';
import type { MatrixInput } from '../../src/model/input.js';
import { buildMatrix, compactMatrix, hilbertIndex, locationOrder, NO_ROAD, trunc1 } from '../../src/model/matrix.js';
import { buildProblem } from '../../src/model/problem.js';
import { solve } from '../../src/solver/solve.js';
import { assertFeasible } from '../helpers/checker.js';
import { randomProblem } from '../helpers/problems.js';

describe('matrices', () => {
  it('euclidean, with and without trunc1, at a speed', () => {
    const m = buildMatrix({ kind: 'euclidean', coordinates: [[0, 0], [1, 1], [3, 4]], rounding: 'trunc1', speed: 2 });
    expect(m.distance[0 * 3 + 1]).toBe(1.4);
    expect(m.distance[0 * 3 + 2]).toBe(5);
    expect(m.duration[0 * 3 + 2]).toBe(2.5);
    const raw = buildMatrix({ kind: 'euclidean', coordinates: [[0, 0], [1, 1]] });
    expect(raw.distance[1]).toBeCloseTo(Math.SQRT2, 12);
    expect(trunc1(0.3)).toBe(0.3);
    expect(trunc1(12.99999)).toBe(12.9);
  });

  it('haversine: metres times the detour factor, seconds at the speed', () => {
    // one degree of latitude is about 111.2 km
    const m = buildMatrix({ kind: 'haversine', coordinates: [[52, 13], [53, 13]], speedKmh: 36 });
    expect(m.distance[1] / 1.3).toBeGreaterThan(111_000);
    expect(m.distance[1] / 1.3).toBeLessThan(111_400);
    // 36 km/h = 10 m/s; every value rounded to a 32-bit float (relative error below 2^-24)
    expect(m.duration[1]).toBe(Math.fround(m.distance[1] / 10));
    const plain = buildMatrix({ kind: 'haversine', coordinates: [[52, 13], [53, 13]], speedKmh: 36, detourFactor: 1 });
    expect(Math.abs(m.distance[1] / plain.distance[1] - 1.3)).toBeLessThan(1.3 * 2 ** -23);
  });

  it('haversine and whole-number explicit matrices are stored as 32-bit floats, with the same values', () => {
    const h = buildMatrix({ kind: 'haversine', coordinates: [[52, 13], [53, 13.5], [52.5, 12.1]] });
    expect(h.distance).toBeInstanceOf(Float32Array);
    expect(h.duration).toBeInstanceOf(Float32Array);
    for (let x = 0; x < 9; x++) expect(Math.fround(h.distance[x])).toBe(h.distance[x]);
    // whole metres and seconds, and no road: compact, every value read back as given
    const rows = { kind: 'explicit' as const, distance: [[0, 16_777_215, null], [3, 0, 7], [1, 2, 0]], duration: [[0, 60, null], [0.5, 0, 2.25], [1, 2, 0]] };
    expect(compactMatrix(rows)).toBe(true);
    const e = buildMatrix(rows);
    expect(e.distance).toBeInstanceOf(Float32Array);
    expect([e.distance[1], e.distance[2], e.duration[3], e.duration[5]]).toEqual([16_777_215, NO_ROAD, 0.5, 2.25]);
    // one value a 32-bit float cannot hold (a tenth, or 2^24 + 1): 64-bit floats, exact
    for (const odd of [0.1, 16_777_217]) {
      const wide = { ...rows, duration: [[0, 60, null], [odd, 0, 2], [1, 2, 0]] };
      expect(compactMatrix(wide)).toBe(false);
      const m = buildMatrix(wide);
      expect(m.duration).toBeInstanceOf(Float64Array);
      expect(m.duration[3]).toBe(odd);
    }
    // euclidean (trunc1's tenths, the benchmarks' exact sums): 64-bit floats
    expect(compactMatrix({ kind: 'euclidean', coordinates: [[0, 0], [3, 4]] })).toBe(false);
    expect(buildMatrix({ kind: 'euclidean', coordinates: [[0, 0], [3, 4]], rounding: 'trunc1' }).distance).toBeInstanceOf(Float64Array);
  });

  it('explicit: null is no road, the diagonal is zero', () => {
    const m = buildMatrix({ kind: 'explicit', distance: [[5, null], [2, 0]], duration: [[0, 3], [4, 0]] });
    expect(m.distance[0]).toBe(0);
    expect(m.distance[1]).toBe(NO_ROAD);
    expect(m.duration[1]).toBe(NO_ROAD);
    expect(m.distance[2]).toBe(2);
    expect(m.duration[2]).toBe(4);
  });

  it('the model flags symmetry and vehicle classes', () => {
    const p = buildProblem({
      matrix: { kind: 'explicit', distance: [[0, 1], [2, 0]], duration: [[0, 1], [1, 0]] },
      depots: [{ id: 'd', location: 0 }],
      vehicles: [
        { id: 'a', capacity: { weight: 1, volume: 1 }, shift: [0, 9], startDepot: 'd', endDepot: 'd' },
        { id: 'b', capacity: { weight: 1, volume: 1 }, shift: [0, 9], startDepot: 'd', endDepot: 'd' },
        { id: 'c', capacity: { weight: 2, volume: 1 }, shift: [0, 9], startDepot: 'd', endDepot: 'd', features: ['x'] },
      ],
      orders: [{ id: 'o', location: 1, weight: 1, volume: 0, serviceTime: 0, requiredFeatures: ['x'] }],
    });
    expect(p.symmetric).toBe(false);
    expect(Array.from(p.vClass)).toEqual([0, 0, 1]);
    expect(Array.from(p.compat)).toEqual([0, 0, 1]);
  });

  it('the Hilbert curve visits every cell of the square once, each next to the one before', () => {
    const bits = 4;
    const side = 2 ** bits;
    const at = new Map<number, [number, number]>();
    for (let x = 0; x < side; x++) for (let y = 0; y < side; y++) at.set(hilbertIndex(x, y, bits), [x, y]);
    expect([...at.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: side * side }, (_, d) => d));
    for (let d = 1; d < side * side; d++) {
      const [x0, y0] = at.get(d - 1)!;
      const [x1, y1] = at.get(d)!;
      expect(Math.abs(x1 - x0) + Math.abs(y1 - y0)).toBe(1);
    }
  });

  it('locationOrder: a permutation that puts near locations on near rows; none without coordinates', () => {
    // a shuffled 8 x 8 grid: along the rows, each location is next to the one before
    const cells: Array<[number, number]> = [];
    for (let x = 0; x < 8; x++) for (let y = 0; y < 8; y++) cells.push([x * 10, y * 10]);
    for (let i = cells.length - 1; i > 0; i--) {
      const j = (i * 37 + 11) % (i + 1);
      [cells[i], cells[j]] = [cells[j], cells[i]];
    }
    const index = locationOrder({ kind: 'euclidean', coordinates: cells })!;
    expect([...index].sort((a, b) => a - b)).toEqual(cells.map((_, i) => i));
    const byRow: Array<[number, number]> = [];
    index.forEach((row, loc) => (byRow[row] = cells[loc]));
    for (let r = 1; r < byRow.length; r++) expect(Math.hypot(byRow[r][0] - byRow[r - 1][0], byRow[r][1] - byRow[r - 1][1])).toBe(10);
    // haversine: lat/lon; explicit only with coordinates
    expect(locationOrder({ kind: 'haversine', coordinates: [[52.6, 13.9], [52.4, 13.1]], speedKmh: 30 })).toEqual(new Int32Array([1, 0]));
    expect(locationOrder({ kind: 'explicit', distance: [[0, 1], [1, 0]], duration: [[0, 1], [1, 0]] })).toBeUndefined();
    expect(locationOrder({ kind: 'explicit', distance: [[0, 1], [1, 0]], duration: [[0, 1], [1, 0]], coordinates: [[52.6, 13.9], [52.4, 13.1]] })).toEqual(new Int32Array([1, 0]));
    // all in one place: nothing to lay out
    expect(locationOrder({ kind: 'euclidean', coordinates: [[1, 1], [1, 1]] })).toBeUndefined();
  });

  it('a laid-out matrix holds every entry of the plain one, bit for bit, at its rows', () => {
    const inputs: MatrixInput[] = [
      { kind: 'euclidean', coordinates: [[0, 0], [9, 1], [3, 4], [7, 7], [1, 8]], rounding: 'trunc1', speed: 2 },
      { kind: 'haversine', coordinates: [[52.52, 13.4], [52.4, 13.05], [52.61, 13.2], [52.45, 13.6]], speedKmh: 30 },
      {
        kind: 'explicit',
        distance: [[0, 5, null], [4, 0, 7], [3, 2, 0]],
        duration: [[0, 1, 2], [3, 0, null], [5, 6, 0]],
        coordinates: [[52.5, 13.9], [52.6, 13.9], [52.4, 13.1]],
      },
    ];
    for (const m of inputs) {
      const plain = buildMatrix(m);
      const index = locationOrder(m)!;
      expect(Array.from(index)).not.toEqual(Array.from(index, (_, i) => i));
      const laid = buildMatrix(m, undefined, index);
      expect(laid.index).toBe(index);
      const n = plain.size;
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          expect(laid.distance[index[i] * n + index[j]]).toBe(plain.distance[i * n + j]);
          expect(laid.duration[index[i] * n + index[j]]).toBe(plain.duration[i * n + j]);
        }
    }
  });

  it('a solve on the laid-out matrix reports the input locations and finds the same routes as on the plain one', () => {
    for (const seed of [3, 4]) {
      const input = randomProblem({ orders: 60, vehicles: 4, seed, windows: true });
      const index = locationOrder(input.matrix)!;
      expect(Array.from(index)).not.toEqual(Array.from(index, (_, i) => i));
      const p = buildProblem(input);
      input.orders.forEach((o, i) => expect(p.oLoc[i]).toBe(index[o.location]));
      const laid = solve(input, { iterations: 200, seed });
      const plain = solve(input, { iterations: 200, seed }, { matrix: (m) => buildMatrix(m) });
      assertFeasible(input, laid);
      expect(laid.routes).toEqual(plain.routes);
      expect(laid.distance).toBe(plain.distance);
      const where = new Map(input.orders.map((o) => [o.id, o.location]));
      for (const r of laid.routes) for (const s of r.stops) expect(s.location).toBe(where.get(s.orderId));
    }
  });
});
