/**
 * Trips (vehicles that go back to the depot to load again): two questions.
 *
 * 1. `--part cmtvrptw`: the capacitated multi-trip VRPTW instances of Paradiso et al. (Oper.
 *    Res. 2020) and Yang (Transp. Sci. 2023), built on Solomon's as Hernandez, Feillet, Giroudeau
 *    & Naud (EJOR 2016) built theirs, rebuilt from the files in data/solomon: the first N
 *    customers (25, 40, 50) of the type-2 instances (C2, R2, RC2), 2 vehicles for N = 25 and 4
 *    for N = 40 and 50, capacity 100 per trip, the depot's window as the horizon, no reload time,
 *    distances (and travel times) rounded up to one decimal, service times as in Solomon, total
 *    distance minimised. Trips per vehicle are not limited in the literature; here maxTrips is
 *    min(N, 50). The published optimal values are not on this machine (no paper tables offline),
 *    so the table gives our figures only: distance, trips, unassigned orders.
 * 2. `--part city`: 300 orders of the data/city city (the first 300 of city.json, through the
 *    job layer's problem builder), 6 vans of 450 kg / 3 m3 that must reload (the orders weigh 6.1 t), with and without
 *    reloads, and the fleet it takes without them.
 *
 *   npx tsx bench/trips.ts --part cmtvrptw --time-limit 1 [--only 25] [--skip-single]
 *   npx tsx bench/trips.ts --part city --iterations 3000
 *
 * Every solution is checked by the independent checker (test/helpers/checker.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JobService } from '../src/jobs/service.js';
import type { ProblemInput, SolveResult } from '../src/model/input.js';
import { SolverPool } from '../src/pool/pool.js';
import { solve } from '../src/solver/solve.js';
import { checkSolution } from '../test/helpers/checker.js';
import { cityStore, loadCity } from './jobs-city.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const part = arg('part', 'cmtvrptw');
const timeLimit = arg('time-limit') === undefined ? undefined : Number(arg('time-limit'));
const iterations = arg('iterations') === undefined ? undefined : Number(arg('iterations'));
const seed = Number(arg('seed', '1'));
const only = arg('only');
/** Skip the single-trip comparison solve (halves the run). */
const skipSingle = process.argv.includes('--skip-single');

function checked(p: ProblemInput, r: SolveResult): SolveResult {
  const errs = checkSolution(p, r);
  if (errs.length > 0) throw new Error(`${p.name}: infeasible solution\n${errs.slice(0, 5).join('\n')}`);
  return r;
}

/** Solomon file -> the CMTVRPTW instance with the first n customers. */
function cmtvrptw(name: string, n: number, vehicles: number, maxTrips: number): ProblemInput {
  const lines = readFileSync(`${root}data/solomon/${name}.txt`, 'utf8').split('\n');
  const rows = lines.map((l) => l.trim().split(/\s+/).map(Number)).filter((r) => r.length === 7 && r.every(Number.isFinite));
  const nodes = rows.slice(0, n + 1); // depot first
  const up1 = (x: number) => Math.ceil(x * 10 - 1e-9) / 10;
  const distance = nodes.map((a) => nodes.map((b) => (a === b ? 0 : up1(Math.hypot(a[1] - b[1], a[2] - b[2])))));
  const [, , , , open, close] = nodes[0];
  return {
    name: `${name}-${n}`,
    matrix: { kind: 'explicit', distance, duration: distance },
    depots: [{ id: 'd', location: 0 }],
    vehicles: Array.from({ length: vehicles }, (_, k) => ({
      id: `v${k + 1}`,
      capacity: { weight: 100, volume: 1e9 },
      shift: [open, close] as [number, number],
      startDepot: 'd',
      endDepot: 'd',
      maxTrips,
      reloadTime: 0,
    })),
    orders: nodes.slice(1).map((r, i) => ({
      id: String(r[0]),
      location: i + 1,
      weight: r[3],
      volume: 0,
      serviceTime: r[6],
      timeWindow: [r[4], r[5]] as [number, number],
    })),
  };
}

const budget = { ...(timeLimit !== undefined ? { timeLimit } : {}), ...(iterations !== undefined ? { iterations } : {}), seed };
const trips = (r: SolveResult) => r.routes.reduce((s, x) => s + 1 + (x.reloads?.length ?? 0), 0);

if (part === 'cmtvrptw') {
  const names = [
    ...Array.from({ length: 8 }, (_, i) => `C20${i + 1}`),
    ...Array.from({ length: 11 }, (_, i) => `R2${String(i + 1).padStart(2, '0')}`),
    ...Array.from({ length: 8 }, (_, i) => `RC20${i + 1}`),
  ];
  const sizes = only ? [Number(only)] : [25, 40, 50];
  console.log(`| instance | N | vehicles | distance | trips | unassigned | single-trip: unassigned | ms |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
  const totals = new Map<string, { d: number; u: number; u1: number; n: number; t: number }>();
  for (const n of sizes)
    for (const name of names) {
      const m = n === 25 ? 2 : 4;
      const p = cmtvrptw(name, n, m, Math.min(n, 50));
      const r = checked(p, solve(p, budget));
      const one = cmtvrptw(name, n, m, 1);
      const r1 = skipSingle ? { unassigned: [] as unknown[] } : checked(one, solve(one, budget));
      const single = skipSingle ? '-' : String(r1.unassigned.length);
      console.log(`| ${name} | ${n} | ${m} | ${r.distance.toFixed(1)} | ${trips(r)} | ${r.unassigned.length} | ${single} | ${r.stats.elapsedMs.toFixed(0)} |`);
      const key = `${name.replace(/\d\d$/, '')}-${n}`;
      const t = totals.get(key) ?? { d: 0, u: 0, u1: 0, n: 0, t: 0 };
      t.d += r.distance;
      t.u += r.unassigned.length;
      t.u1 += r1.unassigned.length;
      t.t += trips(r);
      t.n++;
      totals.set(key, t);
    }
  console.log(`\n| class-N | instances | total distance | trips | unassigned (reloads) | unassigned (one trip) |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  for (const [k, t] of totals) console.log(`| ${k} | ${t.n} | ${t.d.toFixed(1)} | ${t.t} | ${t.u} | ${skipSingle ? '-' : t.u1} |`);
} else {
  // the city through the job layer's problem builder: 300 orders, 6 vans of 450 kg
  const city = loadCity();
  const vans = (n: number, maxTrips: number) =>
    Array.from({ length: n }, (_, k) => ({
      ...city.vehicles[0]!,
      id: k + 1,
      name: `Van ${k + 1}`,
      warehouseId: (k % 2) + 1,
      capacityKg: 450,
      capacityM3: 3,
      features: ['tail-lift'],
      shift: '08:00-18:00',
      maxDistanceKm: null,
      maxOrders: null,
      maxTrips,
      reloadMin: 15,
    }));
  async function problemFor(vehicles: ReturnType<typeof vans>): Promise<ProblemInput> {
    const store = cityStore({ ...city, vehicles }, 300);
    let problem: ProblemInput | undefined;
    const pool = new SolverPool({ threads: 1 });
    try {
      const service = new JobService({ store, pool, timeBudgetSec: 0.1, onSolved: (s) => (problem = s.problem) });
      const job = await service.submit(city.company.id, { external_ids: city.orders.slice(0, 300).map((o) => o.externalId!) });
      await service.waitFor(city.company.id, job.job_id);
    } finally {
      await pool.destroy();
    }
    if (!problem) throw new Error('the job service did not solve the city');
    return problem;
  }
  console.log(`| fleet | trips allowed | vans used | trips | km | orders placed | unassigned (reasons) | ms |`);
  console.log(`|---|---:|---:|---:|---:|---:|---|---:|`);
  for (const [n, maxTrips] of [
    [6, 1],
    [6, 4],
    [16, 1],
  ] as const) {
    const p = await problemFor(vans(n, maxTrips));
    const w = p.orders.reduce((s, o) => s + o.weight, 0);
    const r = checked(p, solve(p, budget));
    const reasons = new Map<string, number>();
    for (const u of r.unassigned) reasons.set(u.reason, (reasons.get(u.reason) ?? 0) + 1);
    const why = [...reasons].map(([k, c]) => `${c} ${k}`).join(', ') || '0';
    console.log(
      `| ${n} vans of 450 kg (orders ${w.toFixed(0)} kg) | ${maxTrips} | ${r.routes.length} | ${trips(r)} | ${(r.distance / 1000).toFixed(1)} | ${p.orders.length - r.unassigned.length} | ${why} | ${r.stats.elapsedMs.toFixed(0)} |`,
    );
  }
}
