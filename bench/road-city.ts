/**
 * Generates data/city-road/city-road.json: the benchmark city (bench/jobs-city.ts, 500 orders
 * around Leipzig) on a made-up road network, as a problem with explicit, asymmetric distance and
 * duration matrices. The point is a road-like instance: one-way streets, give-way delays when
 * joining a main road, slow ramps onto a fast ring, so that d(i, j) != d(j, i) and the solver's
 * bounds and neighbourhoods are not tuned to symmetric Euclidean data only. Seeded: running it
 * again writes the same file.
 *
 * The network, in a local kilometre frame around the city centre:
 * - a street grid every 400 m over the orders' bounding box, its crossings jittered by up to
 *   30 % of the spacing and each street 0-15 % longer than the straight line (bends);
 * - every sixth grid line is a two-way main street (50 km/h, 8 s a crossing for lights); the
 *   others are residential (30 km/h, 3 s a crossing): 8 % of them are missing (parks, dead ends)
 *   and 25 % are one-way, in a random direction;
 * - a residential street that ends on a main street costs 12 s more towards it (giving way) than
 *   away from it;
 * - an inner one-way ring (radius 1.5 km, clockwise, 40 km/h) joined to the grid at every ring
 *   node; an outer two-way ring road (radius 9 km, 80 km/h) with junctions every ~2.5 km whose
 *   on-ramps take 25 s and off-ramps 10 s (plus 300 m each at 40 km/h);
 * - every location (depots and orders) joins its nearest grid crossing by an access arc each way
 *   (straight, at 20 km/h).
 * Travel from i to j is the fastest path (Dijkstra on duration, FastPriorityQueue); its distance
 * is that path's length. Matrices are whole metres and seconds. The rest of the problem (vehicles,
 * shifts, windows, loads) is what the job service builds for data/city/city.json.
 *
 *   npx tsx bench/road-city.ts [--seed N]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import turfDistance from '@turf/distance';
import FastPriorityQueue from 'fastpriorityqueue';
import { buildProblem } from '../src/jobs/problem.js';
import type { ProblemInput } from '../src/model/input.js';
import { loadCity, mulberry32, type City } from './jobs-city.js';

const CENTRE = { lat: 51.3397, lon: 12.3731 };
const KM_LAT = 111.2;
const KM_LON = 111.2 * Math.cos((CENTRE.lat * Math.PI) / 180);

/** A directed road graph: node positions in km (x east, y north), arcs with metres and milliseconds. */
class Graph {
  x: number[] = [];
  y: number[] = [];
  from: number[] = [];
  to: number[] = [];
  metres: number[] = [];
  ms: number[] = [];

  node(x: number, y: number): number {
    this.x.push(x);
    this.y.push(y);
    return this.x.length - 1;
  }

  km(a: number, b: number): number {
    return Math.hypot(this.x[a] - this.x[b], this.y[a] - this.y[b]);
  }

  /** One directed arc of `metres` at `kmh`, plus a fixed delay in seconds. */
  arc(a: number, b: number, metres: number, kmh: number, delaySec: number): void {
    this.from.push(a);
    this.to.push(b);
    this.metres.push(metres);
    this.ms.push(Math.round(((metres / 1000 / kmh) * 3600 + delaySec) * 1000));
  }

  /** Compressed adjacency (outgoing arcs, or incoming ones when `reverse`). */
  adjacency(reverse = false): { start: Int32Array; arcs: Int32Array } {
    const n = this.x.length;
    const start = new Int32Array(n + 1);
    const tail = reverse ? this.to : this.from;
    for (const a of tail) start[a + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const arcs = new Int32Array(tail.length);
    tail.forEach((a, e) => (arcs[fill[a]++] = e));
    return { start, arcs };
  }
}

export interface RoadNetwork {
  graph: Graph;
  /** Nodes from which every other node of this set can be reached and back (the city's core). */
  connected: Uint8Array;
  stats: { nodes: number; arcs: number; streets: number; oneWay: number; missing: number };
}

/** The road network over the box [minX, maxX] x [minY, maxY] (km). */
export function roadNetwork(seed: number, box: { minX: number; maxX: number; minY: number; maxY: number }): RoadNetwork {
  const rnd = mulberry32(seed);
  const g = new Graph();
  const h = 0.4;
  const cols = Math.ceil((box.maxX - box.minX) / h) + 1;
  const rows = Math.ceil((box.maxY - box.minY) / h) + 1;
  const grid = (r: number, c: number) => r * cols + c;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) g.node(box.minX + c * h + (rnd() - 0.5) * 0.6 * h, box.minY + r * h + (rnd() - 0.5) * 0.6 * h);
  const mainRow = (r: number) => r % 6 === 0;
  const mainCol = (c: number) => c % 6 === 0;
  const onMain = (r: number, c: number) => mainRow(r) || mainCol(c);
  let streets = 0;
  let oneWay = 0;
  let missing = 0;
  const street = (r1: number, c1: number, r2: number, c2: number, main: boolean) => {
    const a = grid(r1, c1);
    const b = grid(r2, c2);
    const metres = g.km(a, b) * 1000 * (1 + 0.15 * rnd());
    streets++;
    if (main) {
      g.arc(a, b, metres, 50, 8);
      g.arc(b, a, metres, 50, 8);
      return;
    }
    if (rnd() < 0.08) {
      missing++;
      return;
    }
    // giving way when a residential street meets a main street
    const intoA = onMain(r1, c1) ? 12 : 0;
    const intoB = onMain(r2, c2) ? 12 : 0;
    const direction = rnd();
    if (direction < 0.25) {
      oneWay++;
      if (direction < 0.125) g.arc(a, b, metres, 30, 3 + intoB);
      else g.arc(b, a, metres, 30, 3 + intoA);
      return;
    }
    g.arc(a, b, metres, 30, 3 + intoB);
    g.arc(b, a, metres, 30, 3 + intoA);
  };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols) street(r, c, r, c + 1, mainRow(r));
      if (r + 1 < rows) street(r, c, r + 1, c, mainCol(c));
    }
  const nearestGrid = (x: number, y: number) => {
    let best = 0;
    let bestD = Infinity;
    for (let v = 0; v < rows * cols; v++) {
      const d = Math.hypot(g.x[v] - x, g.y[v] - y);
      if (d < bestD) [best, bestD] = [v, d];
    }
    return best;
  };
  // inner ring: one way, clockwise, joined to the grid at every node
  const inner: number[] = [];
  const innerCount = Math.round((2 * Math.PI * 1.5) / 0.3);
  for (let k = 0; k < innerCount; k++) {
    const angle = (-2 * Math.PI * k) / innerCount;
    inner.push(g.node(1.5 * Math.cos(angle), 1.5 * Math.sin(angle)));
  }
  inner.forEach((v, k) => {
    const w = inner[(k + 1) % innerCount];
    g.arc(v, w, g.km(v, w) * 1000, 40, 4);
    const s = nearestGrid(g.x[v], g.y[v]);
    const m = g.km(v, s) * 1000 + 30;
    g.arc(s, v, m, 30, 10);
    g.arc(v, s, m, 30, 3);
  });
  // outer ring road: two way, fast, few junctions with slow on-ramps
  const outer: number[] = [];
  const outerCount = Math.round((2 * Math.PI * 9) / 0.5);
  for (let k = 0; k < outerCount; k++) {
    const angle = (2 * Math.PI * k) / outerCount;
    outer.push(g.node(9 * Math.cos(angle), 9 * Math.sin(angle)));
  }
  outer.forEach((v, k) => {
    const w = outer[(k + 1) % outerCount];
    const m = g.km(v, w) * 1000;
    g.arc(v, w, m, 80, 0);
    g.arc(w, v, m, 80, 0);
    if (k % 5 !== 0) return;
    const s = nearestGrid(g.x[v], g.y[v]);
    const ramp = g.km(v, s) * 1000 + 300;
    g.arc(s, v, ramp, 40, 25);
    g.arc(v, s, ramp, 40, 10);
  });
  // the strongly connected part around the centre: reached from it and reaching it
  const centre = nearestGrid(0, 0);
  const reach = (reverse: boolean) => {
    const { start, arcs } = g.adjacency(reverse);
    const seen = new Uint8Array(g.x.length);
    const stack = [centre];
    seen[centre] = 1;
    while (stack.length > 0) {
      const u = stack.pop()!;
      for (let k = start[u]; k < start[u + 1]; k++) {
        const e = arcs[k];
        const w = reverse ? g.from[e] : g.to[e];
        if (!seen[w]) {
          seen[w] = 1;
          stack.push(w);
        }
      }
    }
    return seen;
  };
  const fwd = reach(false);
  const bwd = reach(true);
  const connected = new Uint8Array(g.x.length);
  for (let v = 0; v < rows * cols; v++) connected[v] = fwd[v] & bwd[v];
  return { graph: g, connected, stats: { nodes: g.x.length, arcs: g.from.length, streets, oneWay, missing } };
}

const ACCESS_KMH = 20;

/**
 * Fastest-path matrices between `[lat, lon]` points over the network: metres and seconds, whole
 * numbers, row = from, column = to.
 */
export function roadMatrices(points: ReadonlyArray<readonly [number, number]>, seed: number): { distance: number[][]; duration: number[][]; network: RoadNetwork } {
  const xy = points.map(([lat, lon]) => [(lon - CENTRE.lon) * KM_LON, (lat - CENTRE.lat) * KM_LAT]);
  const pad = 0.8;
  const box = {
    minX: Math.min(...xy.map((p) => p[0])) - pad,
    maxX: Math.max(...xy.map((p) => p[0])) + pad,
    minY: Math.min(...xy.map((p) => p[1])) - pad,
    maxY: Math.max(...xy.map((p) => p[1])) + pad,
  };
  const network = roadNetwork(seed, box);
  const g = network.graph;
  const nNodes = g.x.length;
  if (nNodes >= 1 << 16) throw new Error('too many nodes for the packed queue keys');
  // each location joins its nearest connected grid crossing
  const snap = xy.map(([x, y]) => {
    let best = -1;
    let bestD = Infinity;
    for (let v = 0; v < nNodes; v++) {
      if (!network.connected[v]) continue;
      const d = Math.hypot(g.x[v] - x, g.y[v] - y);
      if (d < bestD) [best, bestD] = [v, d];
    }
    return { node: best, metres: bestD * 1000, seconds: ((bestD / ACCESS_KMH) * 3600) };
  });
  const { start, arcs } = g.adjacency();
  const ms = new Float64Array(nNodes);
  const metres = new Float64Array(nNodes);
  // key = milliseconds * 2^16 + node: integers, exact below 2^53, ordered by time then node
  const queue = new FastPriorityQueue<number>((a, b) => a < b);
  const n = points.length;
  const distance: number[][] = [];
  const duration: number[][] = [];
  for (let i = 0; i < n; i++) {
    ms.fill(Infinity);
    metres.fill(Infinity);
    const s = snap[i].node;
    ms[s] = 0;
    metres[s] = 0;
    queue.add(s);
    while (!queue.isEmpty()) {
      const key = queue.poll()!;
      const u = key % 65536;
      if ((key - u) / 65536 > ms[u]) continue;
      for (let k = start[u]; k < start[u + 1]; k++) {
        const e = arcs[k];
        const w = g.to[e];
        const t = ms[u] + g.ms[e];
        if (t < ms[w]) {
          ms[w] = t;
          metres[w] = metres[u] + g.metres[e];
          queue.add(t * 65536 + w);
        }
      }
    }
    const dRow: number[] = [];
    const tRow: number[] = [];
    for (let j = 0; j < n; j++) {
      if (i === j) {
        dRow.push(0);
        tRow.push(0);
        continue;
      }
      const t = snap[j].node;
      dRow.push(Math.round(snap[i].metres + metres[t] + snap[j].metres));
      tRow.push(Math.round(snap[i].seconds + ms[t] / 1000 + snap[j].seconds));
    }
    distance.push(dRow);
    duration.push(tRow);
  }
  return { distance, duration, network };
}

/** The road city: the job service's problem for the whole city, with the road matrices. */
export function roadCityProblem(city: City, seed: number): { problem: ProblemInput; network: RoadNetwork; points: Array<[number, number]> } {
  const { problem, context } = buildProblem({
    jobId: 0,
    companyId: city.company.id,
    timeZone: city.company.timezone,
    date: city.date,
    orders: [...city.orders].sort((a, b) => a.id - b.id),
    vehicles: city.vehicles.filter((v) => v.active).sort((a, b) => a.id - b.id),
    warehouses: new Map(city.warehouses.map((w) => [w.id, w])),
    warehouseOverride: null,
  });
  const { distance, duration, network } = roadMatrices(context.points, seed);
  return {
    problem: { ...problem, name: `city-road: data/city/city.json on a synthetic road graph (bench/road-city.ts, seed ${seed})`, matrix: { kind: 'explicit', distance, duration, coordinates: context.points } },
    network,
    points: context.points,
  };
}

/** The shipped road city, data/city-road/city-road.json. */
export function loadRoadCity(): ProblemInput {
  return JSON.parse(readFileSync(new URL('../data/city-road/city-road.json', import.meta.url), 'utf8')) as ProblemInput;
}

/** Asymmetry and the comparison with haversine x 1.3 at 30 km/h, over all ordered pairs. */
export function describeMatrices(m: { distance: number[][]; duration: number[][] }, points: ReadonlyArray<readonly [number, number]>): string[] {
  const n = m.distance.length;
  let relSum = 0;
  let over10 = 0;
  let pairs = 0;
  let tRelSum = 0;
  let tOver10 = 0;
  const ratioD: number[] = [];
  const ratioT: number[] = [];
  let roadSum = 0;
  let havSum = 0;
  let roadT = 0;
  let havT = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const d = m.distance[i][j];
      const back = m.distance[j][i];
      const t = m.duration[i][j];
      const tBack = m.duration[j][i];
      pairs++;
      const rel = Math.abs(d - back) / Math.max(d, 1);
      relSum += rel;
      if (rel > 0.1) over10++;
      const tRel = Math.abs(t - tBack) / Math.max(t, 1);
      tRelSum += tRel;
      if (tRel > 0.1) tOver10++;
      const [la1, lo1] = points[i];
      const [la2, lo2] = points[j];
      const hav = turfDistance([lo1, la1], [lo2, la2], { units: 'meters' }) * 1.3;
      if (hav < 50) continue;
      ratioD.push(d / hav);
      ratioT.push(t / (hav / (30 / 3.6)));
      roadSum += d;
      havSum += hav;
      roadT += t;
      havT += hav / (30 / 3.6);
    }
  // the short arcs the search actually works with: each location's 10 nearest (by the round trip)
  let nearRel = 0;
  let nearOver10 = 0;
  let nearPairs = 0;
  for (let i = 0; i < n; i++) {
    const others = [...Array(n).keys()].filter((j) => j !== i).sort((a, b) => m.distance[i][a] + m.distance[a][i] - m.distance[i][b] - m.distance[b][i] || a - b);
    for (const j of others.slice(0, 10)) {
      const rel = Math.abs(m.distance[i][j] - m.distance[j][i]) / Math.max(m.distance[i][j], 1);
      nearRel += rel;
      if (rel > 0.1) nearOver10++;
      nearPairs++;
    }
  }
  // and how much longer than haversine x 1.3 the short arcs are (each location's 10 nearest by it)
  let nearRoad = 0;
  let nearHav = 0;
  for (let i = 0; i < n; i++) {
    const hav = points.map(([la, lo], j) => (j === i ? Infinity : turfDistance([points[i][1], points[i][0]], [lo, la], { units: 'meters' }) * 1.3));
    const nearest = [...hav.keys()].sort((a, b) => hav[a] - hav[b] || a - b).slice(0, 10);
    for (const j of nearest) {
      nearRoad += m.distance[i][j];
      nearHav += hav[j];
    }
  }
  const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  return [
    `asymmetry, distance: mean |d(i,j) - d(j,i)| / d(i,j) ${pct(relSum / pairs)}, pairs differing by > 10 %: ${pct(over10 / pairs)}`,
    `asymmetry, distance, each location's 10 nearest: mean ${pct(nearRel / nearPairs)}, differing by > 10 %: ${pct(nearOver10 / nearPairs)}`,
    `asymmetry, duration: mean |t(i,j) - t(j,i)| / t(i,j) ${pct(tRelSum / pairs)}, pairs differing by > 10 %: ${pct(tOver10 / pairs)}`,
    `against haversine x 1.3 at 30 km/h: distance sum ratio ${(roadSum / havSum).toFixed(3)}, median pair ratio ${median(ratioD).toFixed(3)}; duration sum ratio ${(roadT / havT).toFixed(3)}, median pair ratio ${median(ratioT).toFixed(3)}`,
    `against haversine x 1.3, each location's 10 nearest: distance sum ratio ${(nearRoad / nearHav).toFixed(3)}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--seed');
  const seed = i > 0 ? Number(process.argv[i + 1]) : 42;
  const t0 = performance.now();
  const { problem, network, points } = roadCityProblem(loadCity(), seed);
  const ms = performance.now() - t0;
  const m = problem.matrix as { kind: 'explicit'; distance: number[][]; duration: number[][]; coordinates: Array<[number, number]> };
  // one matrix row a line: readable diffs, no pretty-printing of 250,000 numbers
  const rows = (a: number[][]) => a.map((r) => `   ${JSON.stringify(r)}`).join(',\n');
  const { matrix: _omit, ...rest } = problem;
  const head = JSON.stringify(rest, null, 1).replace(/\n}$/, '');
  // the locations' [lat, lon] too: not for costs, for cutting the day among threads (decompose.ts)
  const text = `${head},\n "matrix": {\n  "kind": "explicit",\n  "distance": [\n${rows(m.distance)}\n  ],\n  "duration": [\n${rows(m.duration)}\n  ],\n  "coordinates": ${JSON.stringify(points)}\n }\n}\n`;
  mkdirSync(new URL('../data/city-road/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../data/city-road/city-road.json', import.meta.url), text);
  const s = network.stats;
  const core = network.connected.reduce((a, b) => a + b, 0);
  console.log(`data/city-road/city-road.json: ${problem.orders.length} orders, ${problem.depots.length} depots, ${problem.vehicles.length} vehicles, ${m.distance.length} locations, ${(text.length / 1e6).toFixed(2)} MB (${ms.toFixed(0)} ms)`);
  console.log(`network: ${s.nodes} nodes (${core} grid crossings in the connected core), ${s.arcs} arcs; residential streets: ${s.streets} (${s.oneWay} one-way, ${s.missing} missing)`);
  for (const line of describeMatrices(m, points)) console.log(line);
}
