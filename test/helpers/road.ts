/**
 * Asymmetric instances for tests: cuts of the road city (data/city-road, explicit matrices from a
 * road graph with one-way streets) and tiny random ones with a directed matrix.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OrderInput, ProblemInput, VehicleInput } from '../../src/model/input.js';
import { lcg } from './problems.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

type Explicit = { kind: 'explicit'; distance: Array<Array<number | null>>; duration: Array<Array<number | null>> };

let roadCity: ProblemInput | undefined;

/** data/city-road/city-road.json, read once. Do not change it: cut it with `roadCut`. */
export function loadRoadCity(): ProblemInput {
  return (roadCity ??= JSON.parse(readFileSync(`${root}data/city-road/city-road.json`, 'utf8')) as ProblemInput);
}

/**
 * The first `orders` orders of the road city with its depots and the vehicles named (vans are
 * 1-12, trucks with a tail lift 13-20), the matrix cut down to the locations they use (depots
 * first, then the orders).
 */
export function roadCut(orders: number, vehicleIds: string[]): ProblemInput {
  const city = loadRoadCity();
  const m = city.matrix as Explicit;
  const keep = [...city.depots.map((d) => d.location), ...city.orders.slice(0, orders).map((o) => o.location)];
  const index = new Map(keep.map((loc, k) => [loc, k]));
  const cut = (a: Array<Array<number | null>>) => keep.map((i) => keep.map((j) => a[i][j]));
  return {
    name: `road city, ${orders} orders, vehicles ${vehicleIds.join(' ')}`,
    matrix: { kind: 'explicit', distance: cut(m.distance), duration: cut(m.duration) },
    depots: city.depots.map((d) => ({ ...d, location: index.get(d.location)! })),
    vehicles: city.vehicles.filter((v) => vehicleIds.includes(v.id)).map((v) => structuredClone(v)),
    orders: city.orders.slice(0, orders).map((o) => ({ ...structuredClone(o), location: index.get(o.location)! })),
  };
}

/** Distance of visiting `locations` in this order (the matrix read row = from, column = to). */
export function pathDistance(p: ProblemInput, locations: number[]): number {
  const m = p.matrix as Explicit;
  let d = 0;
  for (let k = 1; k < locations.length; k++) d += m.distance[locations[k - 1]][locations[k]]!;
  return d;
}

export interface TinyOptions {
  seed: number;
  orders: number;
  vehicles: number;
  /** Weight capacity per vehicle (orders weigh 1..4); default: no binding capacity. */
  capacity?: number;
  windows?: boolean;
}

/**
 * A tiny instance with a directed matrix: random points, each arc its Euclidean length times its
 * own factor in [1, 1.8] (so i -> j and j -> i differ), then closed under shortest paths (the
 * triangle inequality holds, as on a road graph). Duration = distance. Windows, when asked, are
 * placed around one random schedule so that the instance stays feasible.
 */
export function tinyAsymmetric(o: TinyOptions): ProblemInput {
  const rnd = lcg(o.seed);
  const n = o.orders + 1;
  const xy = Array.from({ length: n }, () => [rnd() * 100, rnd() * 100]);
  const d = xy.map((a, i) => xy.map((b, j) => (i === j ? 0 : Math.round(Math.hypot(a[0] - b[0], a[1] - b[1]) * (1 + 0.8 * rnd())))));
  for (let k = 0; k < n; k++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
  const orders: OrderInput[] = [];
  // windows: around the arrival times of one random tour through all orders, each 40 to 120 wide
  const tour = Array.from({ length: o.orders }, (_, i) => i + 1);
  for (let i = tour.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [tour[i], tour[j]] = [tour[j], tour[i]];
  }
  const arrival = new Map<number, number>();
  let t = 0;
  let at = 0;
  for (const loc of tour) {
    t += d[at][loc];
    arrival.set(loc, t);
    t += 10;
    at = loc;
  }
  for (let i = 1; i < n; i++) {
    const order: OrderInput = { id: `o${i}`, location: i, weight: 1 + Math.floor(rnd() * 4), volume: 0, serviceTime: 10 };
    if (o.windows) {
      const a = arrival.get(i)!;
      const width = 40 + Math.round(rnd() * 80);
      const start = Math.max(0, Math.round(a - rnd() * width));
      order.timeWindow = [start, start + width];
    }
    orders.push(order);
  }
  const vehicles: VehicleInput[] = Array.from({ length: o.vehicles }, (_, k) => ({
    id: `v${k + 1}`,
    capacity: { weight: o.capacity ?? 1000, volume: 1 },
    shift: [0, 100_000],
    startDepot: 'd',
    endDepot: 'd',
  }));
  return {
    name: `tiny asymmetric ${o.seed}`,
    matrix: { kind: 'explicit', distance: d, duration: d.map((row) => row.slice()) },
    depots: [{ id: 'd', location: 0 }],
    vehicles,
    orders,
  };
}

/**
 * The optimal total distance by enumeration: every order sequence, cut into at most `vehicles`
 * consecutive routes (the vehicles are alike), each simulated from time 0 (waiting allowed,
 * service must start by the window's end). Infinity when no plan serves every order.
 */
export function bruteForceOptimum(p: ProblemInput): number {
  const m = p.matrix as Explicit;
  const D = m.distance as number[][];
  const T = m.duration as number[][];
  const depot = p.depots[0].location;
  const v = p.vehicles[0];
  const n = p.orders.length;
  const routeCost = (seq: number[], from: number, to: number): number => {
    if (from === to) return 0;
    let w = 0;
    let t = v.shift[0];
    let d = 0;
    let at = depot;
    for (let k = from; k < to; k++) {
      const o = p.orders[seq[k]];
      w += o.weight;
      if (w > v.capacity.weight) return Infinity;
      t += T[at][o.location];
      d += D[at][o.location];
      if (o.timeWindow) {
        if (t > o.timeWindow[1]) return Infinity;
        t = Math.max(t, o.timeWindow[0]);
      }
      t += o.serviceTime;
      at = o.location;
    }
    t += T[at][depot];
    if (t > v.shift[1]) return Infinity;
    return d + D[at][depot];
  };
  let best = Infinity;
  const seq = Array.from({ length: n }, (_, i) => i);
  const cuts = (k: number, from: number, acc: number): void => {
    if (acc >= best) return;
    if (k === 1) {
      best = Math.min(best, acc + routeCost(seq, from, n));
      return;
    }
    for (let to = from; to <= n; to++) {
      const c = routeCost(seq, from, to);
      if (c < Infinity) cuts(k - 1, to, acc + c);
    }
  };
  const permute = (k: number): void => {
    if (k === n) {
      cuts(p.vehicles.length, 0, 0);
      return;
    }
    for (let i = k; i < n; i++) {
      [seq[k], seq[i]] = [seq[i], seq[k]];
      permute(k + 1);
      [seq[k], seq[i]] = [seq[i], seq[k]];
    }
  };
  permute(0);
  return best;
}
