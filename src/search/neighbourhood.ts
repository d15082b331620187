/**
 * Granular neighbourhoods: each order's k most promising neighbours. Proximity is travel distance
 * plus penalties for the waiting and the time warp that visiting one right after the other would
 * cause (the PyVRP measure), taken in the better of the two directions, so neighbours are close in
 * space and in time. One local-search pass then costs O(n k), not O(n^2).
 */
import RBush from 'rbush';
import { planeCoordinates } from '../model/matrix.js';
import type { Problem } from '../model/problem.js';

export interface NeighbourParams {
  k: number;
  weightWait: number;
  weightTimeWarp: number;
  /**
   * Rank only the spatially nearest candidates (an rbush index over the coordinates) instead of
   * every order: 'auto' does so from SPATIAL_FROM orders on, for coordinate matrices.
   */
  spatial: boolean | 'auto';
}

export const defaultNeighbourParams: NeighbourParams = { k: 40, weightWait: 0.2, weightTimeWarp: 1, spatial: 'auto' };

/** From this many orders on, candidates come from the spatial index (the n^2 scan grows costly). */
export const SPATIAL_FROM = 1500;

interface Item {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  o: number;
}

/**
 * The m orders nearest to each order in the plane (`planeCoordinates`: Euclidean coordinates, or
 * lat/lon projected equirectangularly), from an rbush index: grow a square until it holds m others, then search
 * the square that contains their bounding circle and keep the m closest. Null without coordinates.
 */
export function spatialCandidates(p: Problem, m: number): Int32Array[] | null {
  const mat = p.input.matrix;
  if (mat.kind === 'explicit') return null;
  const plane = planeCoordinates(mat)!;
  const n = p.nOrders;
  const xy = new Float64Array(2 * n);
  // the input's locations (p.oLoc holds matrix rows, laid out in another order)
  const orders = p.input.orders;
  const items: Item[] = [];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let o = 0; o < n; o++) {
    const [x, y] = plane[orders[o].location];
    xy[2 * o] = x;
    xy[2 * o + 1] = y;
    items.push({ minX: x, minY: y, maxX: x, maxY: y, o });
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const tree = new RBush<Item>();
  tree.load(items);
  const want = Math.min(m, n - 1);
  const area = Math.max((maxX - minX) * (maxY - minY), 1e-12);
  const out: Int32Array[] = [];
  for (let o = 0; o < n; o++) {
    const x = xy[2 * o];
    const y = xy[2 * o + 1];
    let r = Math.sqrt((area * (want + 1)) / n) / 2 || 1e-6;
    let found = tree.search({ minX: x - r, minY: y - r, maxX: x + r, maxY: y + r });
    while (found.length < want + 1) {
      r *= 2;
      found = tree.search({ minX: x - r, minY: y - r, maxX: x + r, maxY: y + r });
    }
    const R = r * Math.SQRT2;
    found = tree.search({ minX: x - R, minY: y - R, maxX: x + R, maxY: y + R });
    const d = (it: Item) => (it.minX - x) * (it.minX - x) + (it.minY - y) * (it.minY - y);
    found.sort((a, b) => d(a) - d(b) || a.o - b.o);
    const list = new Int32Array(want);
    let t = 0;
    for (const it of found) {
      if (it.o === o) continue;
      if (t === want) break;
      list[t++] = it.o;
    }
    out.push(list);
  }
  return out;
}

/** Directed proximity of visiting order j right after order i. */
function directed(p: Problem, i: number, j: number, wWait: number, wWarp: number): number {
  const arc = p.oLoc[i] * p.nLoc + p.oLoc[j];
  const t = p.dur[arc];
  const earliestArrival = p.oEarly[i] + p.oService[i] + t;
  const wait = Math.max(p.oEarly[j] - (p.oLate[i] + p.oService[i] + t), 0);
  const warp = Math.max(earliestArrival - p.oLate[j], 0);
  return p.dist[arc] + wWait * wait + wWarp * warp;
}

/** neighbours[i * k .. i * k + k) holds order i's neighbours, nearest first; k is returned too. */
export function buildNeighbours(p: Problem, params: Partial<NeighbourParams> = {}): { k: number; list: Int32Array } {
  const { k: kWanted, weightWait, weightTimeWarp, spatial } = { ...defaultNeighbourParams, ...params };
  const n = p.nOrders;
  const k = Math.max(0, Math.min(kWanted, n - 1));
  const list = new Int32Array(n * k);
  // bounded selection of the k smallest (sorted insertion into a small buffer): O(n k) worst case
  const topP = new Float64Array(k + 1);
  const topI = new Int32Array(k + 1);
  const candidates = spatial === true || (spatial === 'auto' && n >= SPATIAL_FROM) ? spatialCandidates(p, 3 * k) : null;
  for (let i = 0; i < n; i++) {
    let m = 0;
    const cand = candidates?.[i];
    const count = cand ? cand.length : n;
    for (let c = 0; c < count; c++) {
      const j = cand ? cand[c] : c;
      if (j === i) continue;
      const x = Math.min(directed(p, i, j, weightWait, weightTimeWarp), directed(p, j, i, weightWait, weightTimeWarp));
      if (m === k && (x > topP[k - 1] || (x === topP[k - 1] && j > topI[k - 1]))) continue;
      let t = m < k ? m++ : k - 1;
      while (t > 0 && (topP[t - 1] > x || (topP[t - 1] === x && topI[t - 1] > j))) {
        topP[t] = topP[t - 1];
        topI[t] = topI[t - 1];
        t--;
      }
      topP[t] = x;
      topI[t] = j;
    }
    for (let t = 0; t < k; t++) list[i * k + t] = topI[t];
  }
  return { k, list };
}
