/**
 * Generates data/city/city.json: a made-up city around Leipzig for the planning-job benchmark.
 * 500 orders with lat/lon in neighbourhood clusters plus scatter, realistic time windows (about
 * 40 % none, 40 % two-hour, 20 % half-day), weights and volumes of parcels to furniture, service
 * times of 3 to 15 minutes; 20 vehicles (12 vans, 8 trucks) from 2 warehouses. Seeded: running
 * it again writes the same file.
 *
 *   npx tsx bench/jobs-city.ts [--seed N]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { MemoryPlanningStore } from '../src/jobs/memory-store.js';
import { JobService } from '../src/jobs/service.js';
import type { ProblemInput } from '../src/model/input.js';
import { SolverPool } from '../src/pool/pool.js';
import { sampleDay, type City } from '../src/jobs/sample-day.js';

export { mulberry32, type City } from '../src/jobs/sample-day.js';

/** The benchmarks' city: src/jobs/sample-day.ts (seed 42 is the shipped file). */
export function generateCity(seed = 42): City {
  return sampleDay(seed);
}

/** The shipped city, data/city/city.json. */
export function loadCity(): City {
  return JSON.parse(readFileSync(new URL('../data/city/city.json', import.meta.url), 'utf8')) as City;
}

/**
 * The city in a memory store: company, warehouses, vehicles and its first `orders` orders (all by
 * default). `companies` > 1 adds copies of the whole city as further companies (ids 2, 3, ...;
 * their own warehouses, vehicles and orders), for jobs that run at the same time without sharing
 * vehicles.
 */
export function cityStore(city: City, orders = city.orders.length, companies = 1): MemoryPlanningStore {
  const store = new MemoryPlanningStore();
  for (let k = 0; k < companies; k++) {
    const companyId = city.company.id + k;
    store.addCompany({ ...city.company, id: companyId });
    for (const w of city.warehouses) store.addWarehouse({ ...w, id: w.id + 1000 * k, companyId });
    for (const v of city.vehicles) store.addVehicle({ ...v, id: v.id + 1000 * k, warehouseId: v.warehouseId + 1000 * k, companyId });
    for (const o of city.orders.slice(0, orders)) store.addOrder({ ...o, id: o.id + 100_000 * k, companyId });
  }
  return store;
}

/** The solver's problem for the city, as the job service builds it (captured from a short job). */
export async function cityProblem(city: City): Promise<ProblemInput> {
  const store = cityStore(city);
  let problem: ProblemInput | undefined;
  const pool = new SolverPool({ threads: 1 });
  try {
    const service = new JobService({ store, pool, timeBudgetSec: 0.2, onSolved: (s) => (problem = s.problem) });
    const job = await service.submit(city.company.id, { external_ids: city.orders.map((o) => o.externalId!) });
    await service.waitFor(city.company.id, job.job_id);
  } finally {
    await pool.destroy();
  }
  if (!problem) throw new Error('the job service did not solve the city');
  return problem;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--seed');
  const city = generateCity(i > 0 ? Number(process.argv[i + 1]) : 42);
  mkdirSync(new URL('../data/city/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../data/city/city.json', import.meta.url), JSON.stringify(city, null, 1) + '\n');
  const tw = city.orders.filter((o) => o.timeWindowStart).length;
  console.log(`data/city/city.json: ${city.orders.length} orders (${tw} with a window), ${city.vehicles.length} vehicles, ${city.warehouses.length} warehouses`);
}
