import { describe, expect, it } from 'vitest';
import { buildMatrix, NO_ROAD, trunc1 } from '../../src/model/matrix.js';
import { buildProblem } from '../../src/model/problem.js';

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
    expect(m.duration[1]).toBeCloseTo(m.distance[1] / 10, 9); // 36 km/h = 10 m/s
    const plain = buildMatrix({ kind: 'haversine', coordinates: [[52, 13], [53, 13]], speedKmh: 36, detourFactor: 1 });
    expect(m.distance[1] / plain.distance[1]).toBeCloseTo(1.3, 12);
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
});
