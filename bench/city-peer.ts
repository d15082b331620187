/**
 * The planning-job city side by side with PyVRP (issue 42): is the jobs line (a 4.5 s job within
 * 1.0 % of 60 s jobs) a gap of this engine, or what the strongest open solver gets too?
 *
 *   npx tsx bench/city-peer.ts [--budgets 4.5,9] [--seeds 1-6] [--threads 1] [--peer ils|hgs] [--instance city|road] [--pyvrp DIR] [--cli dist/cli.js]
 *
 * The problem is the one the job service builds for data/city/city.json (500 orders, 20 vehicles:
 * 12 vans and 8 trucks from two warehouses, windows on 299 orders, weight and volume, 27 orders
 * that need a tail-lift, vans limited to 180 km and 40 orders). For each budget and seed, in one
 * run, our CLI (`solve FILE --threads N`, cold, pinned to core 0, or to both cores with
 * `--threads 2`) and PyVRP (bench/pyvrp-city.py, `taskset -c 1`; 0.14, or 0.12 with `--peer hgs`)
 * get the same seconds.
 * PyVRP reads the same matrices (metres rounded, seconds rounded up), weights in grams and volumes
 * in cm3 rounded up, a third load dimension that counts orders (the vans' 40), and a second
 * routing profile in which the tail-lift orders are out of a van's reach.
 *
 * `--instance road` runs the same city on its synthetic road graph (data/city-road/city-road.json:
 * explicit, asymmetric distance and duration matrices, bench/road-city.ts).
 *
 * Both answers are judged the same way: each route's orders are put on its vehicle in our model
 * (src/model), every route must be feasible there, and the whole plan then passes the independent
 * checker (test/helpers/checker.ts); the distance reported is our model's, in km. With
 * `--threads 2` both of ours share the two cores with PyVRP's one: run it only to see a job's
 * threads, not as a side by side.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProblemInput, SolveResult } from '../src/model/input.js';
import { buildMatrix } from '../src/model/matrix.js';
import { buildProblem, costModel } from '../src/model/problem.js';
import { SearchSolution } from '../src/route/search-solution.js';
import { buildResult } from '../src/solver/result.js';
import { checkSolution } from '../test/helpers/checker.js';
import { cityProblem, loadCity } from './jobs-city.js';
import { loadRoadCity } from './road-city.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const budgets = arg('budgets', '4.5,9').split(',').map(Number);
const [from, to] = arg('seeds', '1-6').split('-').map(Number);
const threads = Number(arg('threads', '1'));
const pyvrpDir = arg('pyvrp', join(homedir(), '.cache/pyvrp-peer'));
const cli = arg('cli', fileURLToPath(new URL('../dist/cli.js', import.meta.url)));
/** `--peer hgs`: PyVRP 0.12, its hybrid genetic search; default `ils`, 0.14. */
const peerKind = arg('peer', 'ils');
if (peerKind !== 'ils' && peerKind !== 'hgs') throw new Error(`--peer takes ils or hgs, not ${peerKind}`);
const peerName = peerKind === 'ils' ? 'PyVRP 0.14 (ILS)' : 'PyVRP 0.12 (HGS)';
const python = join(pyvrpDir, `venv-${peerKind}/bin/python`);
const script = fileURLToPath(new URL('./pyvrp-city.py', import.meta.url));

/** `--instance road`: the same city on its synthetic road graph (data/city-road: explicit, asymmetric matrices). */
const instance = arg('instance', 'city');
if (instance !== 'city' && instance !== 'road') throw new Error(`--instance takes city or road, not ${instance}`);
const problem: ProblemInput = instance === 'road' ? loadRoadCity() : await cityProblem(loadCity());
const dir = mkdtempSync(join(tmpdir(), 'city-peer-'));
const problemFile = join(dir, 'city.json');
writeFileSync(problemFile, JSON.stringify(problem));

// PyVRP's input: location 0 and 1 the depots' own, then the orders' (as in the problem's matrix)
const matrix = buildMatrix(problem.matrix);
const n = matrix.size;
const depotIndex = new Map(problem.depots.map((d, k) => [d.id, k]));
const orderCountMax = problem.orders.length;
const typeKey = (v: ProblemInput['vehicles'][number]) =>
  JSON.stringify([v.capacity, v.shift, v.startDepot, v.endDepot, v.maxDistance ?? null, v.maxOrders ?? null, v.features ?? []]);
const types = new Map<string, { vehicles: string[]; v: ProblemInput['vehicles'][number] }>();
for (const v of problem.vehicles) {
  if (v.startDepot !== v.endDepot) throw new Error('the export assumes round trips');
  const k = typeKey(v);
  if (!types.has(k)) types.set(k, { vehicles: [], v });
  types.get(k)!.vehicles.push(v.id);
}
const cap = (c: unknown) => c as { weight: number; volume: number };
const exportInput = {
  locations: n,
  coordinates: problem.matrix.kind === 'haversine' || problem.matrix.kind === 'explicit' ? (problem.matrix.coordinates ?? []) : [],
  distance: Array.from(matrix.distance, (d) => Math.round(d)),
  duration: Array.from(matrix.duration, (t) => Math.ceil(t - 1e-9)),
  blocked: problem.orders.filter((o) => (o.requiredFeatures ?? []).includes('tail-lift')).map((o) => o.location),
  depots: problem.depots.map((d) => d.location),
  clients: problem.orders.map((o) => ({
    location: o.location,
    delivery: [Math.ceil(cap(o).weight * 1000 - 1e-6), Math.ceil(cap(o).volume * 1e6 - 1e-6), 1],
    service: Math.ceil(o.serviceTime ?? 0),
    tw: o.timeWindow ?? null,
  })),
  types: [...types.values()].map(({ vehicles, v }) => ({
    num: vehicles.length,
    capacity: [Math.floor(cap(v.capacity).weight * 1000), Math.floor(cap(v.capacity).volume * 1e6), v.maxOrders ?? orderCountMax],
    depot: depotIndex.get(v.startDepot)!,
    tw: v.shift,
    max_distance: v.maxDistance ?? null,
    van: !(v.features ?? []).includes('tail-lift'),
  })),
};
for (const o of problem.orders) {
  const f = o.requiredFeatures ?? [];
  if (f.some((x) => x !== 'tail-lift')) throw new Error(`order ${o.id} needs ${f}: the export knows only tail-lifts`);
}
const exportFile = join(dir, 'pyvrp.json');
writeFileSync(exportFile, JSON.stringify(exportInput));

/** Routes by vehicle id, judged in our model and by the checker: km, or the reason it fails. */
function judge(routes: Array<{ vehicleId: string; orderIds: string[] }>): { km: number; routes: number } | { error: string } {
  const p = buildProblem(problem);
  const sol = new SearchSolution(p, costModel(p, 'distance'));
  const orderIndex = new Map(p.orderIds.map((id, i) => [id, i]));
  const vehicleIndex = new Map(p.vehicleIds.map((id, i) => [id, i]));
  const seen = new Set<string>();
  for (const r of routes) {
    const v = vehicleIndex.get(r.vehicleId);
    if (v === undefined) return { error: `unknown vehicle ${r.vehicleId}` };
    const orders = r.orderIds.map((id) => {
      if (seen.has(id)) throw new Error(`order ${id} twice`);
      seen.add(id);
      return orderIndex.get(id)!;
    });
    const route = sol.routes[v];
    sol.setRoute(route, orders);
    for (const o of orders) if (!sol.compatible(o, route)) return { error: `vehicle ${r.vehicleId} cannot take order ${p.orderIds[o]}` };
    if (!route.feasible()) return { error: `the route of vehicle ${r.vehicleId} is infeasible in our model` };
  }
  if (seen.size !== problem.orders.length) return { error: `${problem.orders.length - seen.size} orders not served` };
  const result: SolveResult = buildResult(p, sol, [], { elapsedMs: 0, iterations: 0 });
  const errors = checkSolution(problem, result);
  if (errors.length > 0) return { error: `checker: ${errors[0]}` };
  return { km: result.distance / 1000, routes: result.routes.length };
}

function run(cmd: string, args: string[]): Promise<{ out: string; wallS: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ out, wallS: (performance.now() - t0) / 1000 }) : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}: ${err.slice(-500)}`))));
  });
}

async function ours(budget: number, seed: number) {
  const out = join(dir, `ours-${budget}-${seed}.json`);
  const cores = threads > 1 ? '0,1' : '0';
  const r = await run('taskset', ['-c', cores, process.execPath, cli, 'solve', problemFile, '--time-limit', String(budget), '--threads', String(threads), '--seed', String(seed), '--out', out]);
  const res = JSON.parse(readFileSync(out, 'utf8')) as { routes: Array<{ vehicle: string; stops: Array<string | number> }>; iterations: number };
  const routes = res.routes.map((x) => ({ vehicleId: String(x.vehicle), orderIds: x.stops.map(String) }));
  return { ...judge(routes), wallS: r.wallS, iterations: res.iterations };
}

async function peer(budget: number, seed: number) {
  const r = await run('taskset', ['-c', '1', python, script, exportFile, String(budget), String(seed)]);
  const res = JSON.parse(r.out.trim().split('\n').pop()!) as { cost: number; feasible: boolean; iterations: number; routes: Array<{ type: number; clients: number[] }> };
  const pool = [...types.values()].map((t) => [...t.vehicles]);
  const routes = res.routes.map((x) => ({ vehicleId: pool[x.type].shift()!, orderIds: x.clients.map((c) => problem.orders[c].id) }));
  return { ...judge(routes), wallS: r.wallS, iterations: res.iterations, pyvrpFeasible: res.feasible, pyvrpKm: res.cost / 1000 };
}

const fmt = (r: { km: number } | { error: string }) => ('km' in r ? r.km.toFixed(2) : `FAIL (${r.error})`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

try {
  console.log(`${instance}: ${problem.orders.length} orders, ${problem.vehicles.length} vehicles in ${types.size} types; ours: ${cli} --threads ${threads}; PyVRP: ${python}`);
  const rows: string[] = [];
  for (const budget of budgets) {
    const a: number[] = [];
    const b: number[] = [];
    let wins = 0;
    for (let seed = from; seed <= to; seed++) {
      const [x, y] = await Promise.all([ours(budget, seed), peer(budget, seed)]);
      console.log(
        `${budget} s seed ${seed}: ours ${fmt(x)} (${'routes' in x ? x.routes : '-'} routes, ${x.iterations} iterations, wall ${x.wallS.toFixed(2)} s)` +
          ` | PyVRP ${fmt(y)} (${'routes' in y ? y.routes : '-'} routes, ${y.iterations} iterations, its own ${y.pyvrpKm.toFixed(2)} km${y.pyvrpFeasible ? '' : ' INFEASIBLE'}, wall ${y.wallS.toFixed(2)} s)`,
      );
      if ('km' in x) a.push(x.km);
      if ('km' in y) b.push(y.km);
      if ('km' in x && 'km' in y && x.km < y.km) wins++;
    }
    rows.push(`| ${budget} s | ${a.length}/${to - from + 1} | ${median(a).toFixed(2)} / ${mean(a).toFixed(2)} | ${b.length}/${to - from + 1} | ${median(b).toFixed(2)} / ${mean(b).toFixed(2)} | ${wins} |`);
  }
  console.log(`\n| budget | ours feasible | ours median / mean km | ${peerName} feasible | PyVRP median / mean km | seeds ours shorter |`);
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
