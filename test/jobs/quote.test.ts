/**
 * The ETA quote (src/jobs/quote.ts) checked by the independent checker (test/helpers/checker.ts):
 * a day in progress of two vans (one under way with done stops and a break still to take, one not
 * started), random candidates with and without windows. Every yes must be a feasible route (the
 * fixed stops unchanged, nothing before now, the break in its window, every kept stop served), with
 * the candidate at the quoted position and ETA; a no names the reason (capacity for an order
 * heavier than any van, else a window no van can make).
 */
import { describe, expect, it } from 'vitest';
import type { SolveResult } from '../../src/model/input.js';
import type { DayRoute, DayStop, PlanningOrder, PlanningVehicle, Warehouse } from '../../src/jobs/ports.js';
import { haversineProvider } from '../../src/jobs/problem.js';
import { quoteWithRoute } from '../../src/jobs/quote.js';
import { checkSolution } from '../helpers/checker.js';
import { lcg } from '../helpers/problems.js';

const DATE = '2026-12-01';
const NOW = `${DATE}T10:30:00Z`;
const at = (hhmm: string) => `${DATE}T${hhmm}:00Z`;
const W: Warehouse = { id: 1, companyId: 1, name: 'Depot', address: 'Depot', lat: 52.5, lon: 13.4 };
const van = (id: number, breaks: PlanningVehicle['breaks'] = []): PlanningVehicle => ({
  id, companyId: 1, name: `Van ${id}`, active: true, warehouseId: 1, capacityKg: 100, capacityM3: 5, shift: '08:00-18:00',
  maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [], breaks,
});

function day(seed: number) {
  const rnd = lcg(seed);
  const orders = new Map<number, PlanningOrder>();
  let stopId = 1;
  const route = (id: number, vehicleId: number, n: number, done: number, startMin: number): DayRoute => {
    const stops: DayStop[] = [];
    const t = (min: number) => new Date(Date.parse(at('08:00')) + min * 60_000).toISOString().replace('.000Z', 'Z');
    const depot = (type: 'start_depot' | 'end_depot', min: number): DayStop => ({
      id: stopId++, position: 0, stopType: type, status: 'pending', orderId: null, orderExternalId: null, warehouseId: 1, address: 'Depot', lat: W.lat, lon: W.lon,
      plannedArrivalAt: t(min), plannedDepartureAt: t(min), actualArrivalAt: null, actualDepartureAt: null,
    });
    stops.push(depot('start_depot', startMin));
    for (let i = 0; i < n; i++) {
      const oid = id * 100 + i;
      const lat = W.lat + (rnd() - 0.5) * 0.08;
      const lon = W.lon + (rnd() - 0.5) * 0.12;
      orders.set(oid, {
        id: oid, companyId: 1, externalId: null, status: 'in_route', address: `S ${oid}`, lat, lon, weightKg: 5, volumeM3: 0.1, serviceTimeMin: 5,
        timeWindowStart: null, timeWindowEnd: i % 3 === 2 ? '17:00:00' : null, deliveryDate: DATE,
      });
      const arrive = startMin + 15 + i * 20;
      const isDone = i < done;
      stops.push({
        id: stopId++, position: 0, stopType: 'order', status: isDone ? 'confirmed' : 'pending', orderId: oid, orderExternalId: null, warehouseId: null, address: `S ${oid}`, lat, lon,
        plannedArrivalAt: t(arrive), plannedDepartureAt: t(arrive + 5), actualArrivalAt: isDone ? t(arrive) : null, actualDepartureAt: isDone ? t(arrive + 5) : null,
      });
    }
    stops.push(depot('end_depot', startMin + 30 + n * 20));
    stops.forEach((s, i) => (s.position = i + 1));
    return { id, jobId: 1, vehicleId, name: `R${id}`, date: DATE, status: done > 0 ? 'active' : 'planned', actualStartAt: done > 0 ? t(startMin) : null, breaks: [], stops };
  };
  // van 1 left at 08:00 and has done 6 stops; van 2 leaves at 11:00
  const routes = [route(1, 1, 12, 6, 0), route(2, 2, 8, 0, 180)];
  const vehicles = [van(1, [{ start: '12:00', end: '13:30', minutes: 30 }]), van(2)];
  return { routes, vehicles, orders };
}

describe('quote', () => {
  it('every yes is a feasible route with the candidate at the quoted place; every no has no feasible position', async () => {
    let yes = 0;
    let no = 0;
    for (let seed = 1; seed <= 4; seed++) {
      const { routes, vehicles, orders } = day(seed);
      const rnd = lcg(seed * 7);
      for (let k = 0; k < 8; k++) {
        const windowed = k % 2 === 1;
        const startH = 11 + Math.floor(rnd() * 6);
        const candidate = {
          lat: W.lat + (rnd() - 0.5) * 0.1, lon: W.lon + (rnd() - 0.5) * 0.15, weightKg: k === 7 ? 500 : 3, volumeM3: 0.1, serviceTimeMin: 5,
          timeWindowStart: windowed ? `${startH}:00:00` : null, timeWindowEnd: windowed ? `${startH}:30:00` : null,
        };
        const input = {
          companyId: 1, timeZone: 'UTC', speedFactor: 1, date: DATE, now: NOW, routes, vehicles, warehouses: new Map([[1, W]]), positions: [],
          ordersOf: async (ids: number[]) => ids.map((id) => orders.get(id)!), candidate,
        };
        const q = await quoteWithRoute(input, haversineProvider());
        if (q.feasible) {
          yes++;
          const result: SolveResult = { routes: [q.route!], distance: q.route!.distance, duration: q.route!.duration, vehicles: 1, unassigned: [], stats: { elapsedMs: 0, iterations: 0 } };
          expect(checkSolution(q.problem!, result)).toEqual([]);
          const mine = q.route!.stops.findIndex((s) => s.orderId === '0');
          expect(mine).toBeGreaterThanOrEqual(0);
          expect(q.eta).toBe(new Date(Date.parse(`${DATE}T00:00:00Z`) + Math.round(q.route!.stops[mine]!.start) * 1000).toISOString().replace('.000Z', 'Z'));
          expect(Date.parse(q.eta)).toBeGreaterThanOrEqual(Date.parse(NOW));
          const route = routes.find((r) => r.id === q.route_id)!;
          // the stop's place in the written route: after the depot, the done stops first
          expect(q.position).toBeGreaterThan(1 + route.stops.filter((s) => s.stopType === 'order' && s.status !== 'pending').length);
        } else {
          no++;
          // 500 kg on 100 kg vans: capacity; otherwise a window none of the vans can make
          expect(q.reason).toBe(k === 7 ? 'capacity' : 'time_window');
          if (k !== 7) expect(windowed).toBe(true);
        }
      }
    }
    expect(yes).toBeGreaterThan(0);
    expect(no).toBeGreaterThan(0);
  });
});
