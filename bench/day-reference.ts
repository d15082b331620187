/**
 * The all-known line of bench/day.ts alone: the 500-order city planned in the morning with every
 * order known, the planning job's budget on CPU time (as `bench/day.ts --cpu-clock` computes it).
 *
 *   npx tsx bench/day-reference.ts --seed 1 [--seed 2 ...] [--iterations N]
 *
 * --iterations N: N iterations instead of the budget (load-independent: with the re-plans of
 * `bench/day.ts --replan-iterations` a run repeats exactly).
 */
import { buildProblem, haversineProvider } from '../src/jobs/problem.js';
import { defaultBudgetSec } from '../src/jobs/service.js';
import { solve } from '../src/solver/solve.js';
import { loadCity } from './jobs-city.js';

const iterationsAt = process.argv.indexOf('--iterations');
const iterations = iterationsAt > 0 ? Number(process.argv[iterationsAt + 1]) : 0;
const seeds = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--seed' ? [Number(a)] : []));
const city = loadCity();
const { problem, context } = buildProblem({
  jobId: 0, companyId: 1, timeZone: city.company.timezone, date: city.date, orders: city.orders, vehicles: city.vehicles,
  warehouses: new Map(city.warehouses.map((w) => [w.id, w])), warehouseOverride: null,
});
const input = { ...problem, matrix: await haversineProvider()(context.points) };
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (const seed of seeds.length > 0 ? seeds : [1]) {
  const r = solve(input, iterations > 0 ? { iterations, seed } : { timeLimit: defaultBudgetSec(city.orders.length), seed }, { now: cpuNow });
  console.log(`seed ${seed}: all known ${(r.distance / 1000).toFixed(1)} km, ${r.routes.length} routes, ${r.unassigned.length} unassigned, ${r.stats.iterations} iterations`);
}
