/**
 * Distance and duration matrices as flat typed arrays (row-major, `from * size + to`).
 *
 * A missing road is stored as `NO_ROAD`, a finite but enormous value: any route that uses it has a
 * huge time warp and distance, so it can never look feasible or cheap, and arithmetic on it never
 * produces NaN (as Infinity - Infinity would).
 */
import turfDistance from '@turf/distance';
import type { MatrixInput } from './input.js';

export const NO_ROAD = 1e12;

export interface Matrix {
  size: number;
  distance: Float64Array;
  duration: Float64Array;
}

/** floor(10 d) / 10, guarded against 0.3 being stored as 0.29999999. */
export function trunc1(d: number): number {
  return Math.floor(10 * d + 1e-9) / 10;
}

export function matrixSize(m: MatrixInput): number {
  return m.kind === 'explicit' ? m.distance.length : m.coordinates.length;
}

/**
 * Fills `into` (zeroed arrays of size^2, e.g. over a SharedArrayBuffer: see shared-matrix.ts) or
 * new arrays. Only the diagonal is left unwritten, so it stays 0.
 */
export function buildMatrix(m: MatrixInput, into?: Matrix): Matrix {
  const n = matrixSize(m);
  if (into !== undefined && into.size !== n) throw new RangeError(`buildMatrix: the target holds ${into.size} locations, the input ${n}`);
  const distance = into?.distance ?? new Float64Array(n * n);
  const duration = into?.duration ?? new Float64Array(n * n);
  if (m.kind === 'euclidean') {
    const speed = m.speed ?? 1;
    const round = m.rounding === 'trunc1';
    for (let i = 0; i < n; i++) {
      const [xi, yi] = m.coordinates[i];
      for (let j = i + 1; j < n; j++) {
        const [xj, yj] = m.coordinates[j];
        let d = Math.sqrt((xi - xj) * (xi - xj) + (yi - yj) * (yi - yj));
        if (round) d = trunc1(d);
        distance[i * n + j] = distance[j * n + i] = d;
        duration[i * n + j] = duration[j * n + i] = d / speed;
      }
    }
  } else if (m.kind === 'haversine') {
    const factor = m.detourFactor ?? 1.3;
    const metresPerSecond = m.speedKmh / 3.6;
    for (let i = 0; i < n; i++) {
      const [lati, loni] = m.coordinates[i];
      for (let j = i + 1; j < n; j++) {
        const [latj, lonj] = m.coordinates[j];
        // turf takes [lon, lat]
        const d = turfDistance([loni, lati], [lonj, latj], { units: 'meters' }) * factor;
        distance[i * n + j] = distance[j * n + i] = d;
        duration[i * n + j] = duration[j * n + i] = d / metresPerSecond;
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      const drow = m.distance[i];
      const trow = m.duration[i];
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const d = drow[j];
        const t = trow[j];
        const missing = d === null || t === null || d === undefined || t === undefined;
        distance[i * n + j] = missing ? NO_ROAD : d;
        duration[i * n + j] = missing ? NO_ROAD : t;
      }
    }
  }
  return { size: n, distance, duration };
}
