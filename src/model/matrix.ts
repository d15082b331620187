/**
 * Distance and duration matrices as flat typed arrays (row-major, `from * size + to`).
 *
 * A missing road is stored as `NO_ROAD`, a finite but enormous value: any route that uses it has a
 * huge time warp and distance, so it can never look feasible or cheap, and arithmetic on it never
 * produces NaN (as Infinity - Infinity would).
 *
 * Compact storage: when every value is a 32-bit float exactly (`compactMatrix`: haversine matrices,
 * whose values this module rounds to 32-bit floats, and explicit matrices of such values, e.g.
 * whole metres and seconds), the arrays are Float32Arrays. Every value reads back as the same
 * number, so the search is the same; the arrays take half the memory, which the search reads at
 * random, and which the two cores share (another process that streams memory on the other core
 * slowed the search by 30-50 %). On the 500-order city (two matrices of 502 x 502) the same search
 * took about 6 % less CPU, and a job of the service ran about 9 % more iterations (bench/RESULTS.md,
 * session 38).
 */
import turfDistance from '@turf/distance';
import type { MatrixInput } from './input.js';
import { travelSeconds } from './travel-time.js';

/** A power of two (about 1.1e12), so that a 32-bit float holds it exactly. */
export const NO_ROAD = 2 ** 40;

/** A matrix's arrays: 64-bit floats, or 32-bit ones when every value fits (`compactMatrix`). */
export type MatrixArray = Float64Array | Float32Array;

export interface Matrix {
  size: number;
  distance: MatrixArray;
  duration: MatrixArray;
  /**
   * Row of each input location (`index[location]`), when the rows are not in input order (see
   * `locationOrder`); absent: location i is row i.
   */
  index?: Int32Array;
}

/** Side of the grid the Hilbert curve of `locationOrder` runs on (2^16 cells a side). */
const HILBERT_BITS = 16;

/** Position of cell (x, y) along the Hilbert curve over a 2^bits square (0 <= x, y < 2^bits). */
export function hilbertIndex(x: number, y: number, bits = HILBERT_BITS): number {
  let d = 0;
  for (let s = 2 ** (bits - 1); s >= 1; s /= 2) {
    const rx = x >= s ? 1 : 0;
    const ry = y >= s ? 1 : 0;
    if (rx) x -= s;
    if (ry) y -= s;
    d += s * s * ((3 * rx) ^ ry);
    // rotate the quadrant so the curve stays continuous
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/**
 * Rows for the locations in the order of a Hilbert curve through their coordinates (`index[loc]`),
 * or undefined when the matrix does not say where its locations are. Locations near each other
 * then have nearby rows, and the entries a search reads (between near locations) sit in a few
 * cache lines of each row instead of all over it: on the 500-order city (two 2 MB matrices,
 * 1 MB of L2 cache a core) the same search runs 8-13 % faster, 17 % on one of its depot halves,
 * 9.5 % on Homberger 1000 (bench/RESULTS.md, session 24). Only the layout changes: every entry
 * keeps its value.
 */
export function locationOrder(m: MatrixInput): Int32Array | undefined {
  const xy = planeCoordinates(m);
  if (xy === null || xy.length < 2) return undefined;
  const n = xy.length;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of xy) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const side = Math.max(maxX - minX, maxY - minY);
  if (!(side > 0) || !Number.isFinite(side)) return undefined;
  const cells = 2 ** HILBERT_BITS;
  const cell = (v: number, lo: number) => Math.min(cells - 1, Math.floor(((v - lo) / side) * cells));
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = hilbertIndex(cell(xy[i][0], minX), cell(xy[i][1], minY));
  const byCurve = Array.from({ length: n }, (_, i) => i).sort((a, b) => key[a] - key[b] || a - b);
  const index = new Int32Array(n);
  byCurve.forEach((loc, row) => (index[loc] = row));
  return index;
}

/**
 * Plane coordinates of every matrix location, x east and y north (lat/lon projected
 * equirectangularly about their mean latitude, for haversine and for an explicit matrix that says
 * where its locations are), or null without coordinates.
 */
export function planeCoordinates(m: MatrixInput): Array<[number, number]> | null {
  if (m.kind === 'euclidean') return m.coordinates.map(([x, y]) => [x, y]);
  const latLon = m.coordinates;
  if (latLon === undefined) return null;
  let lat0 = 0;
  for (const [lat] of latLon) lat0 += lat / Math.max(1, latLon.length);
  const kx = Math.cos((lat0 * Math.PI) / 180);
  return latLon.map(([lat, lon]) => [lon * kx, lat]);
}

/** floor(10 d) / 10, guarded against 0.3 being stored as 0.29999999. */
export function trunc1(d: number): number {
  return Math.floor(10 * d + 1e-9) / 10;
}

/** Whether `x` is a 32-bit float exactly. */
const fits32 = (x: number) => Math.fround(x) === x;

/**
 * Whether every value of the matrix `m` describes is a 32-bit float exactly, so that it may be stored
 * compactly: haversine matrices always (`buildMatrix` rounds their values to 32-bit floats: at most
 * 0.6 mm in 10 km, 0.06 ms in 20 min), explicit ones when every given number is one (whole numbers
 * below 2^24 are: metres and seconds as road engines give them), euclidean ones never (their
 * values, e.g. trunc1's tenths, stay exact as 64-bit floats, as the benchmarks' conventions count
 * them). Scans an explicit matrix once (size^2 values).
 */
export function compactMatrix(m: MatrixInput): boolean {
  if (m.kind === 'haversine') return true;
  if (m.kind === 'euclidean') return false;
  for (const rows of [m.distance, m.duration]) {
    for (const row of rows) {
      for (let j = 0; j < row.length; j++) {
        const x = row[j];
        if (x !== null && x !== undefined && !fits32(x)) return false;
      }
    }
  }
  return true;
}

/** Empty arrays for `size` locations: 32-bit floats when `compact`. */
function matrixArrays(size: number, compact: boolean): { distance: MatrixArray; duration: MatrixArray } {
  const n = size * size;
  const Values = compact ? Float32Array : Float64Array;
  return { distance: new Values(n), duration: new Values(n) };
}

export function matrixSize(m: MatrixInput): number {
  return m.kind === 'explicit' ? m.distance.length : m.coordinates.length;
}

/**
 * Fills `into` (zeroed arrays of size^2, e.g. over a SharedArrayBuffer: see shared-matrix.ts; of
 * 32-bit floats only where `compactMatrix` allows) or new arrays (compact where it allows). Only
 * the diagonal is left unwritten, so it stays 0. With `index` (a permutation of the locations, e.g. `locationOrder`), location i's row and column are index[i]; the values are
 * computed exactly as without it (the same pairs, the same direction).
 */
export function buildMatrix(m: MatrixInput, into?: Matrix, index?: Int32Array): Matrix {
  const n = matrixSize(m);
  if (into !== undefined && into.size !== n) throw new RangeError(`buildMatrix: the target holds ${into.size} locations, the input ${n}`);
  if (index !== undefined && index.length !== n) throw new RangeError(`buildMatrix: the index holds ${index.length} locations, the input ${n}`);
  const { distance, duration } = into ?? matrixArrays(n, compactMatrix(m));
  const at = index ?? identity(n);
  if (m.kind === 'euclidean') {
    const speed = m.speed ?? 1;
    const round = m.rounding === 'trunc1';
    for (let i = 0; i < n; i++) {
      const [xi, yi] = m.coordinates[i];
      for (let j = i + 1; j < n; j++) {
        const [xj, yj] = m.coordinates[j];
        let d = Math.sqrt((xi - xj) * (xi - xj) + (yi - yj) * (yi - yj));
        if (round) d = trunc1(d);
        const ij = at[i] * n + at[j];
        const ji = at[j] * n + at[i];
        distance[ij] = distance[ji] = d;
        duration[ij] = duration[ji] = d / speed;
      }
    }
  } else if (m.kind === 'haversine') {
    const factor = m.detourFactor ?? 1.3;
    const speedKmh = m.speedKmh;
    const timeFactor = m.timeFactor ?? 1;
    for (let i = 0; i < n; i++) {
      const [lati, loni] = m.coordinates[i];
      for (let j = i + 1; j < n; j++) {
        const [latj, lonj] = m.coordinates[j];
        // turf takes [lon, lat]; both values rounded to 32-bit floats, whatever the arrays (compactMatrix)
        const d = Math.fround(turfDistance([loni, lati], [lonj, latj], { units: 'meters' }) * factor);
        const ij = at[i] * n + at[j];
        const ji = at[j] * n + at[i];
        distance[ij] = distance[ji] = d;
        duration[ij] = duration[ji] = Math.fround(travelSeconds(d, speedKmh, timeFactor));
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
        const ij = at[i] * n + at[j];
        distance[ij] = missing ? NO_ROAD : d;
        duration[ij] = missing ? NO_ROAD : t;
      }
    }
  }
  return index === undefined ? { size: n, distance, duration } : { size: n, distance, duration, index };
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}
