/**
 * A made-up delivery day of a city around Leipzig: 500 orders (by default) in neighbourhood clusters
 * plus scatter, time windows as a parcel company's (about 40 % none, 40 % two hours, 20 % half a
 * day), parcels to furniture, 3 to 15 minutes of service; 20 vehicles (12 vans, 8 trucks with a
 * tail-lift) from 2 warehouses. Seeded: the same seed gives the same day.
 *
 * Two users: the solver warm-up of a starting service (warm-up.ts plans such a day so that the
 * first real job runs on compiled code), and the benchmarks (bench/jobs-city.ts: seed 42 is the
 * shipped data/city/city.json).
 */
import type { ProblemInput } from '../model/input.js';
import type { Company, PlanningOrder, PlanningVehicle, Warehouse } from './ports.js';
import { buildProblem, haversineProvider } from './problem.js';

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

export function sampleDay(seed = 42, orderCount = 500): City {
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
  for (let id = 1; id <= orderCount; id++) {
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

/** The engine's problem of a whole day, built as a job builds its own (every order and vehicle, a haversine matrix). */
export async function dayProblem(day: City): Promise<ProblemInput> {
  const { problem, context } = buildProblem({
    jobId: 0,
    companyId: day.company.id,
    timeZone: day.company.timezone,
    date: day.date,
    orders: day.orders,
    vehicles: day.vehicles,
    warehouses: new Map(day.warehouses.map((w) => [w.id, w])),
    warehouseOverride: null,
  });
  return { ...problem, matrix: await haversineProvider()(context.points) };
}
