/**
 * Granular neighbourhoods: each order's k most promising neighbours. Proximity is travel distance
 * plus penalties for the waiting and the time warp that visiting one right after the other would
 * cause (the PyVRP measure), taken in the better of the two directions, so neighbours are close in
 * space and in time. One local-search pass then costs O(n k), not O(n^2).
 */
import type { Problem } from '../model/problem.js';

export interface NeighbourParams {
  k: number;
  weightWait: number;
  weightTimeWarp: number;
}

export const defaultNeighbourParams: NeighbourParams = { k: 40, weightWait: 0.2, weightTimeWarp: 1 };

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
  const { k: kWanted, weightWait, weightTimeWarp } = { ...defaultNeighbourParams, ...params };
  const n = p.nOrders;
  const k = Math.max(0, Math.min(kWanted, n - 1));
  const list = new Int32Array(n * k);
  const prox = new Float64Array(n);
  const idx = new Int32Array(n);
  // Windows given as absent are huge; clamp them so wait/warp terms stay meaningful.
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const a = directed(p, i, j, weightWait, weightTimeWarp);
      const b = directed(p, j, i, weightWait, weightTimeWarp);
      prox[j] = Math.min(a, b);
      idx[m++] = j;
    }
    const cand = Array.from(idx.subarray(0, m));
    cand.sort((x, y) => prox[x] - prox[y] || x - y);
    for (let t = 0; t < k; t++) list[i * k + t] = cand[t];
  }
  return { k, list };
}
