/**
 * Travel time from a hop's road length when no road server answers (the `haversine` matrix).
 *
 * Short hops run on town streets, long ones reach faster roads, so time grows less than linearly
 * with length. The curve
 *
 *     t(d) = d / roadSpeed + c * (1 - exp(-d / transition)),   c = transition * (1/townSpeed - 1/roadSpeed)
 *
 * starts at townSpeed (its slope at 0 is 1 / townSpeed), tends to roadSpeed, and has passed 63 %
 * of the way after `transition` metres. It is zero for a zero hop, increasing and concave, hence
 * subadditive: t(a + b) <= t(a) + t(b). Distances that satisfy the triangle inequality (great
 * circle times a detour factor) give times that satisfy it too, since t(d(i,k)) <= t(d(i,j) +
 * d(j,k)) <= t(d(i,j)) + t(d(j,k)); the engine's bounds rely on it.
 *
 * The default is fitted (bench/travel-curve.ts, bench/RESULTS.md "Travel times") to published
 * road travel times of a city (Lyon), a metropolitan area (Copenhagen) and a rural coastal region
 * (Central Dalmatia), with the detour factor 1.3: the fit is flat in the town speed between 24 and
 * 28 km/h, and 28 keeps every hop of 1.5 km and more at least as fast as the old 30 km/h line, so
 * that no plan of a town loses feasibility to the change. It halves the old line's error on hops
 * of 10 km and more, where that line was 70-90 % too slow.
 */
import type { MatrixInput } from './input.js';

export interface TravelCurve {
  /** km/h on the shortest hops (town streets). */
  townKmh: number;
  /** km/h the curve tends to on long hops (roads between towns). */
  roadKmh: number;
  /** Metres over which the speed moves from town to road (63 % of the way). */
  transitionM: number;
}

export const DEFAULT_TRAVEL_CURVE: Readonly<TravelCurve> = Object.freeze({ townKmh: 28, roadKmh: 70, transitionM: 6000 });

/** Seconds for `metres` of road on `curve` (0 for 0). */
export function curveSeconds(metres: number, curve: Readonly<TravelCurve> = DEFAULT_TRAVEL_CURVE): number {
  const town = curve.townKmh / 3.6;
  const road = curve.roadKmh / 3.6;
  const extra = curve.transitionM * (1 / town - 1 / road);
  // -expm1(-x) = 1 - exp(-x) without the cancellation for short hops
  return metres / road - extra * Math.expm1(-metres / curve.transitionM);
}

/**
 * How a `haversine` matrix turns road metres into seconds: a fixed speed (`speedKmh`, the linear
 * model) or the default curve, then times `timeFactor` (a company's speed factor).
 */
export function travelSeconds(metres: number, speedKmh: number | undefined, timeFactor = 1): number {
  const t = speedKmh === undefined ? curveSeconds(metres) : metres / (speedKmh / 3.6);
  return t * timeFactor;
}

/**
 * The same matrix with every travel time times `factor` (a company's speed factor): a haversine
 * matrix carries it as `timeFactor`; a given matrix (a road server's) gets its durations scaled and
 * rounded to 32-bit floats, as the road server's own figures are (src/matrix/osrm.ts: so that the
 * engine keeps storing it compactly, model/matrix.ts `compactMatrix`), `null` (no road) staying
 * null. Distances never change.
 */
export function scaleTravelTimes(matrix: MatrixInput, factor: number): MatrixInput {
  if (factor === 1) return matrix;
  if (matrix.kind === 'haversine') return { ...matrix, timeFactor: (matrix.timeFactor ?? 1) * factor };
  if (matrix.kind === 'euclidean') return { ...matrix, speed: (matrix.speed ?? 1) / factor };
  return { ...matrix, duration: matrix.duration.map((row) => row.map((t) => (t === null || t === undefined ? t : Math.fround(t * factor)))) };
}
