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
  // bounded selection of the k smallest (sorted insertion into a small buffer): O(n k) worst case
  const topP = new Float64Array(k + 1);
  const topI = new Int32Array(k + 1);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let j = 0; j < n; j++) {
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
