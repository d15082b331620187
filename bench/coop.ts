/**
 * Two threads on one 500-order day, in turns with the better of two seeds (bench/RESULTS.md,
 * session 18): for each seed, the job service's old way (two seeds on the pool's two threads, the
 * shorter plan kept) and then `cooperate` (solver/cooperate.ts: both on the whole day, then a sector
 * each), on the same SolverPool the service uses. Running the two one after the other for each
 * seed lets a machine whose speed drifts hit both alike.
 *
 *   npx tsx bench/coop.ts [--seeds 11-26] [--budget 4.5] [--instance city|road]
 *
 * As in the service, the tasks of one solve share one matrix in shared memory (the first task
 * builds it; with an explicit matrix only the first carries its rows). `--instance road` solves
 * data/city-road/city-road.json (explicit asymmetric matrices, with the locations' coordinates).
 *
 * Prints both distances per seed and the means; the difference of the means is the figure.
 */
import type { ProblemInput, SolveResult } from '../src/model/input.js';
import { SolverPool } from '../src/pool/pool.js';
import { cooperate, type CoopRunner } from '../src/solver/cooperate.js';
import { cityProblem, loadCity } from './jobs-city.js';
import { poolTasks } from './pool-tasks.js';
import { loadRoadCity } from './road-city.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const [from, to] = arg('seeds', '11-26').split('-').map(Number);
const budget = Number(arg('budget', '4.5'));
const instance = arg('instance', 'city');
if (!Number.isInteger(from) || !Number.isInteger(to) || to < from || !(budget > 0)) throw new Error('usage: --seeds FROM-TO --budget SECONDS');
if (instance !== 'city' && instance !== 'road') throw new Error(`--instance must be city or road, not ${instance}`);

const problem: ProblemInput = instance === 'road' ? loadRoadCity() : await cityProblem(loadCity());
const pool = new SolverPool({ threads: 2 });
const solveTasks = () => poolTasks(pool, problem);

/** Two seeds at once, the shorter plan kept (iterations of both). */
async function twoSeeds(seed: number): Promise<SolveResult> {
  const run = solveTasks();
  const [a, b] = await Promise.all([seed, seed + 1].map((s) => run(problem, { timeLimit: budget, seed: s })));
  const best = a.distance <= b.distance ? a : b;
  return { ...best, stats: { ...best.stats, iterations: a.stats.iterations + b.stats.iterations } };
}

function cooperating(seed: number): Promise<SolveResult> {
  const run = solveTasks();
  const runner: CoopRunner = { free: () => 2, run: (p, options) => run(p, options) };
  return cooperate(problem, { timeLimit: budget, seed }, runner);
}

try {
  await twoSeeds(999); // both threads loaded and warm before the first timed solve
  const sums = { two: 0, coop: 0 };
  let n = 0;
  for (let seed = from; seed <= to; seed++) {
    const two = await twoSeeds(seed);
    const coop = await cooperating(seed);
    sums.two += two.distance / 1000;
    sums.coop += coop.distance / 1000;
    n++;
    const show = (r: SolveResult) => `${(r.distance / 1000).toFixed(2)} km (${r.vehicles} routes, ${r.stats.iterations} iterations)`;
    console.log(`seed ${seed}: two seeds ${show(two)}, cooperating ${show(coop)}`);
  }
  console.log(`means over ${n} seeds at ${budget} s: two seeds ${(sums.two / n).toFixed(2)} km, cooperating ${(sums.coop / n).toFixed(2)} km`);
} finally {
  await pool.destroy();
}
