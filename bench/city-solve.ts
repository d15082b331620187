/**
 * The planning-job benchmark's city, solved in-process (no pool, no store): the quick loop for
 * solver work on long-route, mixed-fleet instances. The problem is the one the job service builds
 * (captured through its `onSolved` hook on a short first job), then `solve` runs once per seed.
 *
 *   npx tsx bench/city-solve.ts [--seeds 1,2,3] [--budget 3] [--iterations N] [--instance city|road]
 *
 * `--instance road` solves data/city-road/city-road.json instead (bench/road-city.ts: the same
 * orders and fleet on a synthetic road graph, explicit asymmetric matrices). Its 2.6 MB of matrix
 * are validated once before the runs, not inside each timed `solve` (that costs about 0.2 s of
 * the budget, which the haversine city does not pay).
 *
 * Prints distance, routes and iterations per seed, and the median distance. With `--iterations`
 * the solve runs that many iterations whatever the time (the same seed gives the same routes, so
 * a change that must not alter the search is checked by the fingerprint), and prints iterations
 * per second: the throughput figure of bench/RESULTS.md.
 */
import { solve } from '../src/solver/solve.js';
import { parseProblem } from '../src/schema/problem.js';
import { cityProblem, loadCity } from './jobs-city.js';
import { loadRoadCity } from './road-city.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const seeds = arg('seeds', '1,2,3').split(',').map(Number);
const budget = Number(arg('budget', '3'));
const iterations = arg('iterations', '') === '' ? undefined : Number(arg('iterations', ''));
const instance = arg('instance', 'city');
if (instance !== 'city' && instance !== 'road') throw new Error(`--instance must be city or road, not ${instance}`);
const city = loadCity();

/** FNV-1a of the routes' order ids: equal fingerprints, equal solutions. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

const problem = instance === 'road' ? parseProblem(loadRoadCity()) : await cityProblem(city);
const km: number[] = [];
for (const seed of seeds) {
  const cpu0 = process.cpuUsage();
  const validate = instance !== 'road';
  const r = solve(problem, iterations === undefined ? { timeLimit: budget, seed, validate } : { iterations, seed, validate });
  km.push(r.distance / 1000);
  const cpu = process.cpuUsage(cpu0);
  const cpuSec = (cpu.user + cpu.system) / 1e6;
  const perSecond = (r.stats.iterations / r.stats.elapsedMs) * 1000;
  console.log(
    `seed ${seed}: ${(r.distance / 1000).toFixed(2)} km, ${r.vehicles} routes, ${r.unassigned.length} unassigned, ${r.stats.iterations} iterations, ` +
      `${perSecond.toFixed(0)} a second, ${(r.stats.elapsedMs / 1000).toFixed(2)} s (cpu ${cpuSec.toFixed(2)} s), routes ${fingerprint(r.routes.map((x) => x.stops.map((st) => st.orderId).join(',')).join('|'))}`,
  );
}
km.sort((a, b) => a - b);
console.log(`${instance}: median ${km[Math.floor(km.length / 2)].toFixed(2)} km over ${km.length} seeds at ${iterations === undefined ? `${budget} s` : `${iterations} iterations`}`);
