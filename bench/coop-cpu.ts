/**
 * The city job's cooperative solve in-process on the CPU clock (issue 42): `cooperate` with every
 * task run on the main thread, one after the other, each timed by this thread's CPU time divided
 * by `--share` (the job as on that share of a core a thread), and the solve's epochs by a clock
 * that moves by each epoch's longest task (a task's start plus its own clock's time), as
 * `bench/jobs.ts --cpu-clock` does through the pool. Two variants compared on the same budget did
 * the same work whatever the load of the machine, and no thread waits for a core while the other
 * one runs: the figure is the search's, not the scheduler's.
 *
 *   npx tsx bench/coop-cpu.ts [--seeds 1-8] [--budget 4.5] [--share 1] [--variants base,single9] [--routes]
 *
 * A `--share` below cooperate's CROWDED_BELOW_SHARE sends every solve on alone after its first
 * epoch, as on a crowded machine, but here the one thread left keeps that share, where on a real
 * machine it gets the core the other gave up: add `plan:crowdedBelowShare=0` to keep both threads.
 *
 * Variants (run in turns for each seed, the order reversed on every other seed):
 * - `base`: cooperate as shipped (the job service's solve).
 * - `two`: two seeds on the whole day, the shorter kept (the service's `seedsPerSolve` 2).
 * - `single`: one thread, the same budget; `single2`: one thread, twice the budget (two threads'
 *   CPU on one): what cooperation is worth against one search given all the CPU.
 * - `plan:k=v;k=v`: cooperate with a CoopPlan (wholeShare, depotShare, sectorEpochSec, crowdedBelowShare),
 *   e.g. `plan:sectorEpochSec=0.8`. (Session 30 also tried, through settings since removed, no depot
 *   halves, whole-day restarts instead of sectors and a hotter or colder cooling: bench/RESULTS.md.)
 * - `task:k=v;k=v` (or `fleet:`): cooperate as shipped, each task's options changed by its kind
 *   (`half`, `whole`, `sector`; on the city the first two tasks are the halves): `whole=0.3` a
 *   fleet stage (solve-core `fleetFirst`) of that share of the task in the whole epoch's tasks,
 *   `keep=1` no new routes after the halves (`keepFleet`), `ta=0;tb=1.2` the tasks' cooling
 *   schedule mapped onto [ta, tb] (tb > 1 ends colder, ta < 0 starts hotter). Session 31 measured
 *   `fleet:whole=0.3`, `task:keep=1`, `task:tb=1.2` this way (bench/RESULTS.md).
 *
 * `--routes` prints each plan's routes (vehicle, depot, van or truck, orders, km). The warm-up
 * solve runs at most 4.5 s, so `--budget 60` (the 60 s reference in-process) costs no extra minutes.
 *
 * Prints each seed's distances and, per variant, the mean, the median, and against the first
 * variant how often it was shorter and the difference of the means. The same seed does not give
 * the same plan twice (the clock's granularity decides where an epoch ends): two runs of one
 * variant on one seed differed by up to 8 km (1.3 %) in session 30, so a comparison needs many
 * seeds.
 *
 * The matrix is built once per solve by its first task (as the shared one); every task's model,
 * neighbour lists and construction count against its clock, as on a worker thread.
 */
import type { Matrix } from '../src/model/matrix.js';
import { buildMatrix, locationOrder } from '../src/model/matrix.js';
import type { ProblemInput, SolveOptions, SolveResult } from '../src/model/input.js';
import { threadCpuMs } from '../src/pool/thread-clock.js';
import { cooperate, type CoopPlan, type CoopRunner } from '../src/solver/cooperate.js';
import { solveStop, solveValid } from '../src/solver/solve-core.js';
import { cityProblem, loadCity } from './jobs-city.js';
import { parseNumbers } from './plan-spec.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const [from, to] = arg('seeds', '1-8').split('-').map(Number);
let budget = Number(arg('budget', '4.5'));
const share = Number(arg('share', '1'));
const variants = arg('variants', 'base,single2').split(',');
const verbose = process.argv.includes('--verbose');
/** `--routes`: each plan's routes, one line each (vehicle, depot, capacity, orders, km). */
const showRoutes = process.argv.includes('--routes');

const problem: ProblemInput = await cityProblem(loadCity());

/** One solve's tasks on this thread; `clock` is the solve's epoch clock. */
function inProcess(taskOptions: (kind: 'half' | 'whole' | 'sector', options: SolveOptions) => SolveOptions = (_, o) => o): { runner: CoopRunner; clock: () => number; tasks: string[] } {
  let virtual = 0;
  let calls = 0;
  let matrix: Matrix | undefined;
  const tasks: string[] = [];
  const env = {
    now: () => threadCpuMs() / share,
    matrix: (input: ProblemInput['matrix']) => (matrix ??= buildMatrix(input, undefined, locationOrder(input))),
  };
  const runner: CoopRunner = {
    free: () => 2,
    run: async (p: ProblemInput, options: SolveOptions) => {
      const startV = virtual;
      const kind = calls++ < 2 ? 'half' : p.orders.length === problem.orders.length ? 'whole' : 'sector';
      options = taskOptions(kind, options);
      // both tasks of an epoch take their start before either runs
      await Promise.resolve();
      const cpu0 = threadCpuMs();
      const stop = solveStop(options, env);
      const r = solveValid(p, { ...options, validate: false }, env, stop);
      const cpuMs = threadCpuMs() - cpu0;
      virtual = Math.max(virtual, startV + r.stats.elapsedMs);
      if (verbose) tasks.push(`${startV.toFixed(0)}+${r.stats.elapsedMs.toFixed(0)} ${p.orders.length}o ${r.stats.iterations}it ${(r.distance / 1000).toFixed(2)}km`);
      return { ...r, cpuMs: cpuMs * 1 };
    },
  };
  return { runner, clock: () => virtual, tasks };
}

async function run(variant: string, seed: number): Promise<{ r: SolveResult; cpuSec: number; tasks: string[] }> {
  const cpu0 = threadCpuMs();
  if (variant === 'two') {
    // the job service's portfolio of two seeds (seedsPerSolve 2): the shorter plan of two whole searches
    const env = { now: () => threadCpuMs() / share };
    const rs = [seed, seed + 1].map((s) => solveValid(problem, { timeLimit: budget, seed: s, validate: false }, env, solveStop({ timeLimit: budget }, env)));
    const r = rs[0].distance <= rs[1].distance ? rs[0] : rs[1];
    return { r: { ...r, stats: { ...r.stats, iterations: rs[0].stats.iterations + rs[1].stats.iterations } }, cpuSec: (threadCpuMs() - cpu0) / 1000, tasks: [] };
  }
  if (variant === 'single' || variant === 'single2') {
    const limit = variant === 'single' ? budget : 2 * budget;
    const env = { now: () => threadCpuMs() / share };
    const r = solveValid(problem, { timeLimit: limit, seed, validate: false }, env, solveStop({ timeLimit: limit }, env));
    return { r, cpuSec: (threadCpuMs() - cpu0) / 1000, tasks: [] };
  }
  if (variant.startsWith('fleet:') || variant.startsWith('task:')) {
    // per kind of task (half, whole, sector): a fleet stage (solve-core `fleetFirst`, that share of
    // the task's budget); keep=1: the search after it adds no route (`keepFleet`); ta, tb: the
    // task's share of the cooling schedule mapped onto [ta, tb] (tb > 1 ends colder than
    // improve.ts's end temperature, ta < 0 starts hotter)
    const f = parseNumbers(variant.slice(variant.indexOf(':') + 1), variant.slice(0, variant.indexOf(':') + 1));
    const ta = f.ta ?? 0;
    const tb = f.tb ?? 1;
    const { runner, clock, tasks } = inProcess((kind, o) => {
      const share = f[kind] ?? 0;
      const out: SolveOptions = { ...o };
      if (share > 0) out.fleetFirst = share;
      if (f.keep === 1 && (share > 0 || kind !== 'half')) out.keepFleet = true;
      if (o.schedule && (ta !== 0 || tb !== 1)) out.schedule = { from: ta + (tb - ta) * o.schedule.from, to: ta + (tb - ta) * o.schedule.to };
      return out;
    });
    const r = await cooperate(problem, { timeLimit: budget, seed }, runner, clock);
    return { r, cpuSec: (threadCpuMs() - cpu0) / 1000, tasks };
  }
  const plan: CoopPlan = variant === 'base' ? {} : parseNumbers(variant.replace(/^plan:/, ''), 'plan:');
  const { runner, clock, tasks } = inProcess();
  const r = await cooperate(problem, { timeLimit: budget, seed }, runner, clock, plan);
  return { r, cpuSec: (threadCpuMs() - cpu0) / 1000, tasks };
}

/** What a plan looks like: per route the vehicle, its depot and class, orders and km, by depot. */
function routeLines(v: string, r: SolveResult): string {
  const byId = new Map(problem.vehicles.map((x) => [x.id, x]));
  const lines = r.routes.map((x) => {
    const veh = byId.get(x.vehicleId)!;
    const kg = veh.capacity.weight;
    return { depot: veh.startDepot, text: `${x.vehicleId}@${veh.startDepot} ${kg >= 1000 ? 'truck' : 'van'} ${x.stops.length}o ${(x.distance / 1000).toFixed(1)}km` };
  });
  lines.sort((a, b) => a.depot.localeCompare(b.depot));
  return `  ${v} routes: ${lines.map((l) => l.text).join(', ')}`;
}

// warm-up: the search's code compiled before the first measured solve
// (at most 4.5 s: a 60 s budget compiles nothing more)
const measured = budget;
budget = Math.min(budget, 4.5);
await run(variants[0], 999);
budget = measured;
const sums = new Map<string, number[]>(variants.map((v) => [v, []]));
for (let seed = from; seed <= to; seed++) {
  const order = seed % 2 === 0 ? [...variants].reverse() : variants;
  const line: string[] = [];
  for (const v of order) {
    const { r, cpuSec, tasks } = await run(v, seed);
    sums.get(v)!.push(r.distance / 1000);
    line.push(`${v} ${(r.distance / 1000).toFixed(2)} km (${r.vehicles} routes, ${r.unassigned.length} out, ${r.stats.iterations} it, ${cpuSec.toFixed(1)} s cpu)`);
    if (verbose) console.log(`  ${v}: ${tasks.join(' | ')}`);
    if (showRoutes) console.log(routeLines(v, r));
  }
  console.log(`seed ${seed}: ${line.join('; ')}`);
}
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const base = sums.get(variants[0])!;
for (const v of variants) {
  const xs = sums.get(v)!;
  const better = xs.filter((x, i) => x < base[i] - 1e-6).length;
  console.log(`${v}: mean ${mean(xs).toFixed(2)} km, median ${median(xs).toFixed(2)}, ${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}${v === variants[0] ? '' : `, shorter than ${variants[0]} on ${better} of ${xs.length}, mean diff ${(mean(xs) - mean(base)).toFixed(2)}`}`);
}
