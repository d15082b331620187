import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMatrix, compactMatrix } from '../../src/model/matrix.js';
import { curveSeconds, DEFAULT_TRAVEL_CURVE, scaleTravelTimes, travelSeconds } from '../../src/model/travel-time.js';

const metres = fc.double({ min: 0, max: 500_000, noNaN: true });
const slack = (x: number) => 1e-9 * Math.max(1, Math.abs(x));

describe('the travel curve (model/travel-time.ts)', () => {
  it('takes no time for a zero hop and starts at the town speed', () => {
    expect(curveSeconds(0)).toBe(0);
    // a 1 m hop: at the town speed, to a part in a thousand
    expect(curveSeconds(1)).toBeCloseTo(3.6 / DEFAULT_TRAVEL_CURVE.townKmh, 3);
    // a long hop gains the road speed: 100 km well above 50 km/h on average, below the road speed
    const kmh = 100 / (curveSeconds(100_000) / 3600);
    expect(kmh).toBeGreaterThan(55);
    expect(kmh).toBeLessThan(DEFAULT_TRAVEL_CURVE.roadKmh);
  });

  it('is monotone: a longer hop never takes less time', () => {
    fc.assert(
      fc.property(metres, metres, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(curveSeconds(lo)).toBeLessThanOrEqual(curveSeconds(hi) + slack(curveSeconds(hi)));
      }),
    );
  });

  it('is concave: the average speed never falls with length, and the chord lies below', () => {
    fc.assert(
      fc.property(metres, metres, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, w) => {
        const mid = w * a + (1 - w) * b;
        const chord = w * curveSeconds(a) + (1 - w) * curveSeconds(b);
        expect(curveSeconds(mid)).toBeGreaterThanOrEqual(chord - slack(chord));
      }),
    );
  });

  it('is subadditive: t(a + b) <= t(a) + t(b)', () => {
    fc.assert(
      fc.property(metres, metres, (a, b) => {
        const sum = curveSeconds(a) + curveSeconds(b);
        expect(curveSeconds(a + b)).toBeLessThanOrEqual(sum + slack(sum));
      }),
    );
  });

  it('keeps the triangle inequality of a haversine matrix on random points, with any speed factor', () => {
    const point = fc.tuple(fc.double({ min: 40, max: 60, noNaN: true }), fc.double({ min: -5, max: 20, noNaN: true }));
    fc.assert(
      fc.property(fc.array(point, { minLength: 3, maxLength: 8 }), fc.double({ min: 0.5, max: 2, noNaN: true }), (points, factor) => {
        const m = buildMatrix(scaleTravelTimes({ kind: 'haversine', coordinates: points }, factor));
        const n = m.size;
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++)
            for (let k = 0; k < n; k++) {
              const direct = m.duration[i * n + k];
              const via = m.duration[i * n + j] + m.duration[j * n + k];
              expect(direct).toBeLessThanOrEqual(via + slack(via));
            }
      }),
      { numRuns: 200 },
    );
  });

  it('a fixed speed is the old linear model; a factor multiplies every time', () => {
    expect(travelSeconds(10_000, 36)).toBeCloseTo(1000, 9);
    expect(travelSeconds(10_000, 36, 1.25)).toBeCloseTo(1250, 9);
    expect(travelSeconds(7_000, undefined, 2)).toBeCloseTo(2 * curveSeconds(7_000), 9);
    const points: Array<[number, number]> = [[51.34, 12.37], [51.3, 12.5], [51.5, 12.1]];
    const base = buildMatrix({ kind: 'haversine', coordinates: points });
    const slow = buildMatrix(scaleTravelTimes({ kind: 'haversine', coordinates: points }, 1.25));
    for (let x = 0; x < 9; x++) {
      expect(slow.distance[x]).toBe(base.distance[x]);
      // both rounded to 32-bit floats (matrix.ts): within two units of the last place
      expect(Math.abs(slow.duration[x] - 1.25 * base.duration[x])).toBeLessThanOrEqual(2 * 2 ** -23 * slow.duration[x]);
    }
    // a road server's matrix: durations scaled, no road stays no road
    expect(scaleTravelTimes({ kind: 'explicit', distance: [[0, 1], [null, 0]], duration: [[0, 100], [null, 0]] }, 1.5)).toEqual({
      kind: 'explicit',
      distance: [[0, 1], [null, 0]],
      duration: [[0, 150], [null, 0]],
    });
    // scaled times rounded to 32-bit floats (as OSRM's figures are): the engine keeps the matrix compact
    const road = { kind: 'explicit' as const, distance: [[0, 1234.5], [987.25, 0]], duration: [[0, Math.fround(245.3)], [Math.fround(61.7), 0]] };
    expect(compactMatrix(road)).toBe(true);
    const scaled = scaleTravelTimes(road, 1.1);
    expect(scaled.kind === 'explicit' && scaled.duration[0][1]).toBe(Math.fround(Math.fround(245.3) * 1.1));
    expect(compactMatrix(scaled)).toBe(true);
    expect(buildMatrix(scaled).duration).toBeInstanceOf(Float32Array);
  });
});
