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
import type { Company, PlanningOrder, PlanningVehicle, Warehouse } from '../src/jobs/ports.js';

export interface City {
  company: Company;
  date: string;
  warehouses: Warehouse[];
  vehicles: PlanningVehicle[];
  orders: PlanningOrder[];
}

/** A seeded generator (mulberry32) for the benchmark instances. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateCity(seed = 42): City {
  const rnd = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const centre = { lat: 51.3397, lon: 12.3731 };
  const kmLat = 1 / 111.2;
  const kmLon = 1 / (111.2 * Math.cos((centre.lat * Math.PI) / 180));
  const at = (northKm: number, eastKm: number) => ({ lat: round(centre.lat + northKm * kmLat, 6), lon: round(centre.lon + eastKm * kmLon, 6) });
  const companyId = 1;
  const date = '2026-12-01';
  const warehouses: Warehouse[] = [
    { id: 1, companyId, name: 'Nord', address: 'Lagerstrasse 1, Leipzig-Nord', ...at(6, -2) },
    { id: 2, companyId, name: 'Sued', address: 'Depotweg 9, Leipzig-Sued', ...at(-7, 3) },
  ];
  const vehicles: PlanningVehicle[] = [];
  for (let i = 1; i <= 20; i++) {
    const truck = i > 12;
    vehicles.push({
      id: i,
      companyId,
      name: truck ? `Truck ${i - 12}` : `Van ${i}`,
      active: true,
      warehouseId: i % 2 === 1 ? 1 : 2,
      capacityKg: truck ? 1500 : 800,
      capacityM3: truck ? 14 : 6,
      shift: i % 4 === 0 ? '07:00-16:00' : '08:00-18:00',
      maxDistanceKm: truck ? null : 180,
      maxDurationMin: null,
      maxOrders: truck ? null : 40,
      features: truck ? ['tail-lift'] : [],
    });
  }
  // neighbourhoods: centre (dense), four districts, plus scatter over the whole city
  const clusters = [
    { n: 0, e: 0, sd: 2.0, w: 0.35 },
    { n: 5, e: 5, sd: 1.5, w: 0.15 },
    { n: -4, e: 6, sd: 1.5, w: 0.15 },
    { n: -5, e: -5, sd: 1.8, w: 0.12 },
    { n: 4, e: -6, sd: 1.5, w: 0.1 },
  ];
  const orders: PlanningOrder[] = [];
  const clock = (h: number) => `${String(Math.floor(h)).padStart(2, '0')}:${String(Math.round((h % 1) * 60)).padStart(2, '0')}:00`;
  for (let id = 1; id <= 500; id++) {
    let r = rnd();
    let place = { n: (rnd() - 0.5) * 24, e: (rnd() - 0.5) * 24 };
    for (const c of clusters) {
      if (r < c.w) {
        place = { n: c.n + gauss() * c.sd, e: c.e + gauss() * c.sd };
        break;
      }
      r -= c.w;
    }
    const kind = rnd();
    let window: [string | null, string | null] = [null, null];
    if (kind < 0.4) {
      const start = 8 + Math.floor(rnd() * 9); // 08:00 .. 16:00 start, two hours
      window = [clock(start), clock(start + 2)];
    } else if (kind < 0.6) {
      window = rnd() < 0.5 ? ['08:00:00', '13:00:00'] : ['13:00:00', '18:00:00'];
    }
    const big = rnd() < 0.08;
    const weight = big ? 60 + rnd() * 90 : Math.exp(gauss() * 0.8 + 2.2);
    orders.push({
      id,
      companyId,
      externalId: `LPZ-${String(id).padStart(4, '0')}`,
      status: 'new',
      address: `Musterstrasse ${id}, Leipzig`,
      ...at(place.n, place.e),
      weightKg: round(Math.min(weight, 150), 3),
      volumeM3: round(big ? 0.4 + rnd() * 0.8 : Math.min(weight, 40) * 0.004 + rnd() * 0.02, 3),
      serviceTimeMin: big ? 15 : 3 + Math.floor(rnd() * 6),
      timeWindowStart: window[0],
      timeWindowEnd: window[1],
      deliveryDate: date,
      requiredFeatures: big && rnd() < 0.5 ? ['tail-lift'] : [],
    });
  }
  return { company: { id: companyId, timezone: 'Europe/Berlin' }, date, warehouses, vehicles, orders };
}

function round(x: number, d: number): number {
  return Math.round(x * 10 ** d) / 10 ** d;
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
