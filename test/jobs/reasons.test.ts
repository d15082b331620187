import turfDistance from '@turf/distance';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryPlanningStore } from '../../src/jobs/memory-store.js';
import type { JobResult } from '../../src/jobs/ports.js';
import type { MatrixProvider } from '../../src/jobs/problem.js';
import { SolverPool } from '../../src/pool/pool.js';
import { COMPANY, DATE, DETOUR, SPEED_KMH, addOrder, addVehicle, checkJob, makeService, makeStore, near, plan } from './world.js';

// Each of the eight reasons with an instance where it is the only cause, planned through the job
// service on the real solver, with three seeds: the reason must not depend on the seed.
const pool = new SolverPool({ threads: 2 });
afterAll(() => pool.destroy());

const SEEDS = [1, 2, 3];

/** Haversine by road, except that the point `cut` has no road to or from anywhere. */
function matrixWithout(cut: { lat: number; lon: number }): MatrixProvider {
  return (points) => {
    const n = points.length;
    const distance: Array<Array<number | null>> = [];
    const duration: Array<Array<number | null>> = [];
    const isCut = (i: number) => Math.abs(points[i][0] - cut.lat) < 1e-9 && Math.abs(points[i][1] - cut.lon) < 1e-9;
    for (let i = 0; i < n; i++) {
      distance.push([]);
      duration.push([]);
      for (let j = 0; j < n; j++) {
        const d = i === j ? 0 : turfDistance([points[i][1], points[i][0]], [points[j][1], points[j][0]], { units: 'meters' }) * DETOUR;
        const blocked = i !== j && (isCut(i) || isCut(j));
        distance[i].push(blocked ? null : d);
        duration[i].push(blocked ? null : d / (SPEED_KMH / 3.6));
      }
    }
    return { kind: 'explicit', distance, duration };
  };
}

interface Case {
  reason: string;
  /** Builds the world; order 99 is the one that must be left out (and the only one). */
  build(store: MemoryPlanningStore): void;
  matrix?: MatrixProvider;
  /** Any one order may be the one left out. */
  anyOrder?: boolean;
}

const neighbours = (store: MemoryPlanningStore) => {
  for (let id = 1; id <= 4; id++) addOrder(store, { id, ...near(id - 2, 1) });
};

const cases: Case[] = [
  {
    reason: 'unroutable',
    build(store) {
      addVehicle(store, 1);
      neighbours(store);
      addOrder(store, { id: 99, ...near(3, 3) });
    },
    matrix: matrixWithout(near(3, 3)),
  },
  {
    reason: 'requirements',
    build(store) {
      addVehicle(store, 1, { features: ['tail-lift'] });
      addVehicle(store, 2);
      neighbours(store);
      addOrder(store, { id: 99, requiredFeatures: ['fridge'] });
    },
  },
  {
    reason: 'capacity',
    build(store) {
      addVehicle(store, 1, { capacityKg: 500 });
      addVehicle(store, 2, { capacityKg: 800, capacityM3: 2 });
      neighbours(store);
      addOrder(store, { id: 99, weightKg: 900 });
    },
  },
  {
    reason: 'time_window',
    build(store) {
      addVehicle(store, 1, { shift: '08:00-18:00' });
      neighbours(store);
      addOrder(store, { id: 99, timeWindowStart: '06:00:00', timeWindowEnd: '07:00:00' });
    },
  },
  {
    reason: 'max_distance',
    build(store) {
      addVehicle(store, 1, { maxDistanceKm: 40 });
      neighbours(store);
      addOrder(store, { id: 99, ...near(0, 20) }); // 26 km by road each way
    },
  },
  {
    reason: 'max_duration',
    build(store) {
      addVehicle(store, 1, { maxDurationMin: 90 });
      neighbours(store);
      addOrder(store, { id: 99, ...near(0, 20) }); // 52 min each way at 30 km/h
    },
  },
  {
    reason: 'max_orders',
    build(store) {
      addVehicle(store, 1, { maxOrders: 4 });
      neighbours(store);
      addOrder(store, { id: 99, ...near(0, 6) });
    },
    // five equal orders, room for four: which one stays out is the solver's choice
    anyOrder: true,
  },
  {
    reason: 'no_vehicle',
    build(store) {
      addVehicle(store, 1);
      store.addRoute({ jobId: 0, companyId: COMPANY, vehicleId: 1, name: 'earlier', date: DATE, plannedMileageKm: 0, plannedDurationMin: 0, totalWeightKg: 0, totalVolumeM3: 0, stops: [] });
      addOrder(store, { id: 99 });
    },
  },
];

describe('unassigned reasons, each the only cause, stable across seeds', () => {
  for (const c of cases) {
    it(c.reason, async () => {
      for (const seed of SEEDS) {
        const store = makeStore();
        c.build(store);
        const ids = [...new Set([1, 2, 3, 4, 99])].filter((id) => store.getOrder(id));
        const service = makeService(store, pool, { seed, ...(c.matrix ? { matrix: c.matrix } : {}) });
        const done = await plan(service, { order_ids: ids });
        checkJob(store, done);
        const result = done.result as JobResult;
        const expected = c.anyOrder ? result.unassigned[0]?.order_id : 99;
        expect(result.unassigned, `seed ${seed}`).toEqual([{ order_id: expected, reason: c.reason }]);
        expect(result.summary.unassigned_count).toBe(1);
      }
    });
  }

  it('capacity also when the routes are full', async () => {
    for (const seed of SEEDS) {
      const store = makeStore();
      addVehicle(store, 1, { capacityKg: 1000 });
      addOrder(store, { id: 1, weightKg: 600 });
      addOrder(store, { id: 2, weightKg: 600, ...near(1, 1) });
      const done = await plan(makeService(store, pool, { seed }), { order_ids: [1, 2] });
      checkJob(store, done);
      const result = done.result as JobResult;
      expect(result.unassigned.map((u) => u.reason)).toEqual(['capacity']);
    }
  });
});
