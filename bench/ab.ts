/**
 * A/B of two versions of the solver on the benchmark city, run in turns per seed: the way every
 * "in turns" figure of bench/RESULTS.md was made. Version A is this checkout's worker, version B the
 * worker of another checkout (`--b DIR`: its `src/pool/worker-source.mjs`, which loads that tree's
 * TypeScript through its own tsx, so DIR needs a node_modules, for example a symbolic link to this
 * one's). For each seed both versions solve the same problem, A first on odd seeds and B first on
 * even ones, so a machine whose speed drifts hits both alike; the figure is the mean of the
 * per-seed differences (B - A) with its standard error. Seed noise on one 4.5 s city solve is about
 * 4 km: 16 seeds resolve about 2.5 km, 64 seeds about 1.2 km (two standard errors).
 *
 *   git worktree add ../exp HEAD && ln -s "$PWD/node_modules" ../exp/node_modules
 *   (edit the solver in ../exp)
 *   npx tsx bench/ab.ts --b ../exp [--seeds 1-16] [--budget 4.5] [--mode coop|one] [--instance city|road|city:N]
 *
 * `--mode coop` (default): the job service's solve of a large day on two threads
 * (solver/cooperate.ts, each side's own: B's is loaded from DIR like its worker);
 * `--mode one`: one seed on one thread. `--a DIR` takes A from another checkout too. `city:N` is
 * `generateCity(N)` (the shipped city is N = 42), so a change tuned on one city can be checked on
 * others; `road` is data/city-road (explicit asymmetric matrices).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProblemInput, SolveResult } from '../src/model/input.js';
import { SolverPool } from '../src/pool/pool.js';
import { sectorEpochs, type CoopRunner } from '../src/solver/cooperate.js';
import { cityProblem, generateCity, loadCity } from './jobs-city.js';
import { poolTasks } from './pool-tasks.js';
import { loadRoadCity } from './road-city.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const [from, to] = arg('seeds', '1-16').split('-').map(Number);
const budget = Number(arg('budget', '4.5'));
const mode = arg('mode', 'coop');
const instance = arg('instance', 'city');
const dirs = [arg('a', '.'), arg('b', '')];
if (dirs[1] === '') throw new Error('usage: npx tsx bench/ab.ts --b DIR [--a DIR] [--seeds FROM-TO] [--budget S] [--mode coop|one] [--instance city|road|city:N]');
if (!Number.isInteger(from) || !Number.isInteger(to) || to < from || !(budget > 0)) throw new Error('--seeds FROM-TO and --budget SECONDS > 0');
if (mode !== 'coop' && mode !== 'one') throw new Error(`--mode must be coop or one, not ${mode}`);
if (mode === 'coop' && sectorEpochs(budget) === 0) throw new Error(`a ${budget} s budget is too short to cooperate (the service solves it as one seed): use --mode one`);
const workers = dirs.map((d) => resolve(d, 'src/pool/worker-source.mjs'));
for (const w of workers) if (!existsSync(w)) throw new Error(`no solver worker at ${w}`);

async function load(): Promise<ProblemInput> {
  if (instance === 'road') return loadRoadCity();
  if (instance === 'city') return cityProblem(loadCity());
  const m = /^city:(\d{1,9})$/.exec(instance);
  if (m === null) throw new Error(`--instance must be city, road or city:N, not ${instance}`);
  return cityProblem(generateCity(Number(m[1])));
}

const problem = await load();
const pools = workers.map((filename) => new SolverPool({ threads: 2, filename }));
type Cooperate = typeof import('../src/solver/cooperate.js');
const coops = (await Promise.all(dirs.map((d) => import(pathToFileURL(resolve(d, 'src/solver/cooperate.ts')).href)))) as Cooperate[];

function solveWith(side: number, seed: number): Promise<SolveResult> {
  const run = poolTasks(pools[side], problem);
  if (mode === 'one') return run(problem, { timeLimit: budget, seed });
  const runner: CoopRunner = { free: () => 2, run: (p, options) => run(p, options) };
  return coops[side].cooperate(problem, { timeLimit: budget, seed }, runner);
}

const km = (r: SolveResult) => r.distance / 1000;
try {
  // both pools' threads started and their code compiled before the first timed solve
  for (let side = 0; side < 2; side++) await solveWith(side, 999);
  const diffs: number[] = [];
  const sums = [0, 0];
  for (let seed = from; seed <= to; seed++) {
    const order = seed % 2 === 1 ? [0, 1] : [1, 0];
    const results: SolveResult[] = [];
    for (const side of order) results[side] = await solveWith(side, seed);
    const [a, b] = results.map(km);
    sums[0] += a;
    sums[1] += b;
    diffs.push(b - a);
    const show = (r: SolveResult) => `${km(r).toFixed(2)} km (${r.vehicles} routes, ${r.stats.iterations} iterations)`;
    console.log(`seed ${seed}: A ${show(results[0])}, B ${show(results[1])}`);
  }
  const n = diffs.length;
  const mean = diffs.reduce((s, d) => s + d, 0) / n;
  const se = n > 1 ? Math.sqrt(diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1) / n) : NaN;
  const wins = diffs.filter((d) => d < 0).length;
  console.log(
    `${instance}, ${mode}, ${budget} s, seeds ${from}-${to}: A ${(sums[0] / n).toFixed(2)} km, B ${(sums[1] / n).toFixed(2)} km, B - A ${mean.toFixed(2)} ± ${se.toFixed(2)} km (B shorter on ${wins} of ${n})`,
  );
} finally {
  await Promise.all(pools.map((p) => p.destroy()));
}
