/** Odd but valid inputs the planning service can send: every result must pass the checker. */
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import type { ProblemInput } from '../../src/model/input.js';
import { assertFeasible } from '../helpers/checker.js';
import { lcg } from '../helpers/problems.js';

/** Two depots, a heterogeneous fleet (one vehicle ends at the other depot), an asymmetric
 * explicit matrix with missing roads between some orders, windows on some orders only. */
function messy(seed: number): ProblemInput {
  const rnd = lcg(seed);
  const n = 32; // locations 0, 1 are depots
  const xy = Array.from({ length: n }, () => [rnd() * 100, rnd() * 100]);
  const distance: Array<Array<number | null>> = [];
  const duration: Array<Array<number | null>> = [];
  for (let i = 0; i < n; i++) {
    distance.push([]);
    duration.push([]);
    for (let j = 0; j < n; j++) {
      const d = Math.hypot(xy[i][0] - xy[j][0], xy[i][1] - xy[j][1]) * (i < j ? 1 : 1.1);
      const missing = i > 1 && j > 1 && i !== j && rnd() < 0.1;
      distance[i].push(missing ? null : Math.round(d * 10) / 10);
      duration[i].push(missing ? null : Math.round(d * 7));
    }
  }
  return {
    matrix: { kind: 'explicit', distance, duration },
    depots: [
      { id: 'north', location: 0 },
      { id: 'south', location: 1 },
    ],
    vehicles: [
      { id: 'van1', capacity: { weight: 60, volume: 6 }, shift: [0, 3000], startDepot: 'north', endDepot: 'north', maxOrders: 8 },
      { id: 'van2', capacity: { weight: 60, volume: 6 }, shift: [0, 3000], startDepot: 'north', endDepot: 'south', features: ['cold'] },
      { id: 'truck', capacity: { weight: 200, volume: 20 }, shift: [500, 4000], startDepot: 'south', endDepot: 'south', maxDistance: 600, maxDuration: 3000 },
    ],
    orders: Array.from({ length: n - 2 }, (_, k) => {
      const start = Math.round(rnd() * 2500);
      return {
        id: `o${k}`,
        location: k + 2,
        weight: 1 + Math.round(rnd() * 15),
        volume: Math.round(rnd() * 15) / 10,
        serviceTime: 30 + Math.round(rnd() * 60),
        ...(rnd() < 0.5 ? { timeWindow: [start, start + 300 + Math.round(rnd() * 600)] as [number, number] } : {}),
        ...(rnd() < 0.15 ? { requiredFeatures: ['cold'] } : {}),
      };
    }),
  };
}

describe('robustness', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`multi-depot, heterogeneous fleet, missing roads, mixed windows (seed ${seed})`, () => {
      const p = messy(seed);
      for (const objective of ['distance', 'duration', 'vehicles'] as const) {
        const r = solve(p, { iterations: 150, seed, objective });
        assertFeasible(p, r);
        for (const u of r.unassigned) expect(typeof u.reason).toBe('string');
      }
    });
  }

  it('orders at the depot location and zero demand', () => {
    const p: ProblemInput = {
      matrix: { kind: 'euclidean', coordinates: [[0, 0], [5, 5]] },
      depots: [{ id: 'd', location: 0 }],
      vehicles: [{ id: 'v', capacity: { weight: 0, volume: 0 }, shift: [0, 100], startDepot: 'd', endDepot: 'd' }],
      orders: [
        { id: 'here', location: 0, weight: 0, volume: 0, serviceTime: 3 },
        { id: 'there', location: 1, weight: 0, volume: 0, serviceTime: 0 },
      ],
    };
    const r = solve(p, { iterations: 20 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
  });

  it('an empty problem', () => {
    const p: ProblemInput = { matrix: { kind: 'euclidean', coordinates: [[0, 0]] }, depots: [{ id: 'd', location: 0 }], vehicles: [], orders: [] };
    const r = solve(p, { iterations: 5 });
    expect(r).toMatchObject({ routes: [], distance: 0, vehicles: 0, unassigned: [] });
  });
});
