import { describe, expect, it } from 'vitest';
import { buildProblem } from '../../src/model/problem.js';
import { buildNeighbours, spatialCandidates } from '../../src/search/neighbourhood.js';
import { randomProblem } from '../helpers/problems.js';

describe('granular neighbourhoods', () => {
  const p = buildProblem(randomProblem({ orders: 300, vehicles: 5, seed: 21, windows: true }));

  it('lists k others per order, never itself', () => {
    const { k, list } = buildNeighbours(p, { k: 12 });
    expect(k).toBe(12);
    for (let o = 0; o < p.nOrders; o++) {
      const mine = Array.from(list.subarray(o * k, o * k + k));
      expect(mine).not.toContain(o);
      expect(new Set(mine).size).toBe(k);
    }
  });

  it('the rbush candidates are the truly nearest orders', () => {
    const cand = spatialCandidates(p, 20)!;
    const c = (o: number) => (p.input.matrix as { coordinates: Array<[number, number]> }).coordinates[p.input.orders[o].location];
    for (const o of [0, 17, 150, 299]) {
      const d = (j: number) => Math.hypot(c(o)[0] - c(j)[0], c(o)[1] - c(j)[1]);
      const brute = Array.from({ length: p.nOrders }, (_, j) => j)
        .filter((j) => j !== o)
        .sort((a, b) => d(a) - d(b) || a - b)
        .slice(0, 20);
      expect(Array.from(cand[o]).map(d)).toEqual(brute.map(d));
    }
  });

  it('gives the same lists from the spatial index as from the full scan, by distance', () => {
    const full = buildNeighbours(p, { k: 10, weightWait: 0, weightTimeWarp: 0, spatial: false });
    const fast = buildNeighbours(p, { k: 10, weightWait: 0, weightTimeWarp: 0, spatial: true });
    expect(Array.from(fast.list)).toEqual(Array.from(full.list));
  });
});
