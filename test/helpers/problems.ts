/** Problem builders for tests: small random instances and a Solomon file loader. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OrderInput, ProblemInput, VehicleInput } from '../../src/model/input.js';
import { parseSolomon } from '../../src/io/solomon.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export function solomon(name: string, rounding: 'none' | 'trunc1' = 'trunc1'): ProblemInput {
  const file = `${root}data/solomon/${name}.txt`;
  return parseSolomon(readFileSync(file, 'utf8'), { file, rounding });
}

/** A small deterministic pseudo-random generator for building instances. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export interface RandomOptions {
  orders: number;
  vehicles: number;
  seed: number;
  capacity?: number;
  windows?: boolean;
  features?: boolean;
  limits?: boolean;
}

/** A random instance on a 100 x 100 plane with one depot at the centre. */
export function randomProblem(o: RandomOptions): ProblemInput {
  const rnd = lcg(o.seed);
  const coords: Array<[number, number]> = [[50, 50]];
  const orders: OrderInput[] = [];
  for (let i = 0; i < o.orders; i++) {
    coords.push([Math.round(rnd() * 100), Math.round(rnd() * 100)]);
    const start = Math.round(rnd() * 600);
    orders.push({
      id: `o${i + 1}`,
      location: i + 1,
      weight: 1 + Math.floor(rnd() * 20),
      volume: Math.round(rnd() * 10) / 10,
      serviceTime: 5 + Math.floor(rnd() * 10),
      ...(o.windows ? { timeWindow: [start, start + 60 + Math.round(rnd() * 200)] as [number, number] } : {}),
      ...(o.features && rnd() < 0.2 ? { requiredFeatures: ['cold'] } : {}),
    });
  }
  const vehicles: VehicleInput[] = [];
  for (let k = 0; k < o.vehicles; k++) {
    vehicles.push({
      id: `v${k + 1}`,
      capacity: { weight: o.capacity ?? 100, volume: 20 },
      shift: [0, 1000],
      startDepot: 'd',
      endDepot: 'd',
      ...(o.features && k % 2 === 0 ? { features: ['cold'] } : {}),
      ...(o.limits ? { maxDistance: 400, maxDuration: 700, maxOrders: 12 } : {}),
    });
  }
  return {
    name: `random-${o.seed}`,
    matrix: { kind: 'euclidean', coordinates: coords },
    depots: [{ id: 'd', location: 0 }],
    vehicles,
    orders,
  };
}
