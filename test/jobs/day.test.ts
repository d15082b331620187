/**
 * src/jobs/day.ts: what share of the kept-move cost each kept order pays (KeptMoveRule): a van that
 * has not left yet moves its orders at `notStarted`, a van out keeps the whole cost on the stops it
 * does within the horizon and `beyond` on the later ones. The engine's answer on that problem keeps
 * every kept order and every fixed stop (the independent checker).
 */
import { describe, expect, it } from 'vitest';
import { buildDayProblem, type DayInput, type KeptMoveRule } from '../../src/jobs/day.js';
import type { DayRoute, DayStop, PlanningOrder, PlanningVehicle } from '../../src/jobs/ports.js';
import { haversineProvider } from '../../src/jobs/problem.js';
import { solve } from '../../src/solver/solve.js';
import { checkSolution } from '../helpers/checker.js';

const date = '2026-12-01';
// Europe/Berlin in December: UTC+1; now is 09:00 local
const now = '2026-12-01T08:00:00Z';
const at = (hhmm: string) => `2026-12-01T${String(Number(hhmm.slice(0, 2)) - 1).padStart(2, '0')}:${hhmm.slice(3)}:00Z`;

const order = (id: number, lat: number, lon: number): PlanningOrder => ({
  id, companyId: 1, externalId: `o${id}`, status: 'in_route', address: `a${id}`, lat, lon, weightKg: 5, volumeM3: 0.01,
  serviceTimeMin: 3, timeWindowStart: null, timeWindowEnd: null, deliveryDate: date,
});
const vehicle = (id: number): PlanningVehicle => ({
  id, companyId: 1, name: `v${id}`, active: true, warehouseId: 1, capacityKg: 500, capacityM3: 5, shift: '07:00-19:00',
  maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [],
});
let stopId = 100;
const stop = (o: PlanningOrder | null, status: DayStop['status'], arrive: string, type: DayStop['stopType'] = 'order'): DayStop => ({
  id: stopId++, position: 0, stopType: type, status, orderId: o?.id ?? null, orderExternalId: o?.externalId ?? null, warehouseId: o ? null : 1,
  address: 'x', lat: o?.lat ?? 51.34, lon: o?.lon ?? 12.37, plannedArrivalAt: at(arrive), plannedDepartureAt: at(arrive), actualArrivalAt: null, actualDepartureAt: null,
});

/** Van 1 out since 08:00 (one stop done, stops at 09:30, 10:30 and 14:00 to come); van 2 leaves at 09:30. */
function day(rule?: KeptMoveRule): DayInput {
  const orders = [order(1, 51.35, 12.38), order(2, 51.36, 12.39), order(3, 51.33, 12.36), order(4, 51.32, 12.4), order(5, 51.31, 12.35), order(6, 51.3, 12.34)];
  const r1: DayRoute = {
    id: 1, jobId: 1, vehicleId: 1, name: 'r1', date, status: 'active', actualStartAt: at('08:00'), breaks: [],
    stops: [stop(null, 'visited', '08:00', 'start_depot'), stop(orders[0], 'confirmed', '08:30'), stop(orders[1], 'pending', '09:30'), stop(orders[2], 'pending', '10:30'), stop(orders[3], 'pending', '14:00'), stop(null, 'pending', '15:00', 'end_depot')],
  };
  const r2: DayRoute = {
    id: 2, jobId: 1, vehicleId: 2, name: 'r2', date, status: 'planned', actualStartAt: null, breaks: [],
    stops: [stop(null, 'pending', '09:30', 'start_depot'), stop(orders[4], 'pending', '10:00'), stop(orders[5], 'pending', '10:20'), stop(null, 'pending', '11:00', 'end_depot')],
  };
  r1.stops.forEach((s, i) => (s.position = i));
  r2.stops.forEach((s, i) => (s.position = i));
  return {
    jobId: 9, companyId: 1, timeZone: 'Europe/Berlin', date, now, routes: [r1, r2], vehicles: [vehicle(1), vehicle(2), vehicle(3)], busy: new Set([1, 2]),
    warehouses: new Map([[1, { id: 1, companyId: 1, name: 'w', address: 'w', lat: 51.34, lon: 12.37 }]]), positions: [],
    orders: new Map(orders.map((o) => [o.id, o])), fresh: [{ ...order(7, 51.345, 12.375), status: 'new' }], keptMoveCost: 200,
    ...(rule ? { keptMoveRule: rule } : {}),
  };
}

const weights = (input: DayInput) => {
  const { problem } = buildDayProblem(input);
  return Object.fromEntries(problem.orders.map((o) => [o.id, { on: o.currentVehicle, w: o.keptMoveWeight }]));
};

describe('the share of the kept-move cost each kept order pays', () => {
  it('without a rule every kept order pays all of it', () => {
    const w = weights(day());
    expect(w).toEqual({
      2: { on: '1', w: undefined }, 3: { on: '1', w: undefined }, 4: { on: '1', w: undefined },
      5: { on: '2', w: undefined }, 6: { on: '2', w: undefined }, 7: { on: undefined, w: undefined },
    });
  });

  it('a van not yet left moves its orders at notStarted; a van out pays all within the horizon, beyond after it', () => {
    const w = weights(day({ notStarted: 0, horizonSec: 2 * 3600, beyond: 0.25 }));
    expect(w).toEqual({
      // 09:30 and 10:30 are within 2 h of 09:00; 14:00 is not
      2: { on: '1', w: undefined }, 3: { on: '1', w: undefined }, 4: { on: '1', w: 0.25 },
      // van 2 has not left: still kept (never dropped), moving free
      5: { on: '2', w: 0 }, 6: { on: '2', w: 0 },
      7: { on: undefined, w: undefined },
    });
  });

  it('the engine keeps every kept order and fixed stop on the weighted day (the checker)', async () => {
    const { problem, context } = buildDayProblem(day({ notStarted: 0, horizonSec: 3600, beyond: 0 }));
    const input = { ...problem, matrix: await haversineProvider()(context.points) };
    const result = solve(input, { iterations: 200, seed: 3 });
    expect(checkSolution(input, result)).toEqual([]);
    expect(result.unassigned).toEqual([]);
    const placed = result.routes.flatMap((r) => r.stops.map((s) => s.orderId));
    for (const id of ['2', '3', '4', '5', '6', '7']) expect(placed).toContain(id);
  });
});
