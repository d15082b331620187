/**
 * Orders, vehicles and warehouses of one delivery date -> the engine's problem, and the engine's
 * result -> routes with stops. Pure: no store, no clock.
 *
 * Units on the engine side: metres, seconds on the date's axis (see time.ts), kg and m3.
 * Ids: a vehicle's id is its numeric id as a string, an order's likewise, a depot's `w<id>`.
 */
import type { MatrixInput, ProblemInput, RouteResult, SolveResult, UnassignedReason, VehicleInput } from '../model/input.js';
import type { NewRoute, NewStop, PlanningOrder, PlanningVehicle, Warehouse } from './ports.js';
import { DayAxis, parseClock, parseShift } from './time.js';

/** Road distances (metres) and durations (seconds) between `[lat, lon]` points; `signal` is the
 *  job's deadline for the whole matrix (a provider that calls out stops when it fires). */
export type MatrixProvider = (points: ReadonlyArray<readonly [lat: number, lon: number]>, signal?: AbortSignal) => MatrixInput | Promise<MatrixInput>;

/**
 * Great-circle distance times a detour factor (default 1.3); travel time from the default travel
 * curve (model/travel-time.ts: town speed on short hops, road speed on long ones), or at one fixed
 * speed with `speedKmh` (docs/contract/operations.md `haversine`, `serve --speed-kmh`, `--detour-factor`).
 */
export function haversineProvider(options: { speedKmh?: number; detourFactor?: number } = {}): MatrixProvider {
  const { speedKmh, detourFactor = 1.3 } = options;
  return (points) => ({
    kind: 'haversine',
    coordinates: points.map(([lat, lon]) => [lat, lon] as [number, number]),
    detourFactor,
    ...(speedKmh === undefined ? {} : { speedKmh }),
  });
}

export interface DatePlanInput {
  jobId: number;
  companyId: number;
  timeZone: string;
  date: string;
  /** Orders of this date, status new, with coordinates. */
  orders: PlanningOrder[];
  /** Vehicles free on this date (at least one). */
  vehicles: PlanningVehicle[];
  /** Every warehouse a vehicle starts from (by id). */
  warehouses: Map<number, Warehouse>;
  /** When set, every vehicle starts and ends here instead of its own warehouse. */
  warehouseOverride: number | null;
}

/** Everything needed to turn the engine's answer back into routes. */
export interface DatePlanContext {
  input: DatePlanInput;
  axis: DayAxis;
  points: Array<[number, number]>;
}

/** The problem without its matrix (the matrix provider fills `matrix` from `context.points`). */
export function buildProblem(input: DatePlanInput): { problem: Omit<ProblemInput, 'matrix'>; context: DatePlanContext } {
  const axis = new DayAxis(input.timeZone, input.date);
  const points: Array<[number, number]> = [];
  const depotIds = new Set<number>();
  for (const v of input.vehicles) depotIds.add(input.warehouseOverride ?? v.warehouseId);
  const depots = [...depotIds].sort((a, b) => a - b).map((id) => {
    const w = input.warehouses.get(id);
    if (!w) throw new Error(`warehouse ${id} missing from the plan input`);
    points.push([w.lat, w.lon]);
    return { id: `w${id}`, location: points.length - 1 };
  });
  const vehicles = input.vehicles.map((v): VehicleInput => {
    const [start, end] = parseShift(v.shift);
    const depot = `w${input.warehouseOverride ?? v.warehouseId}`;
    const vehicle: VehicleInput = {
      id: String(v.id),
      capacity: { weight: v.capacityKg, volume: v.capacityM3 },
      shift: [axis.toAxis(start), axis.toAxis(end)],
      startDepot: depot,
      endDepot: depot,
    };
    if (v.maxDistanceKm !== null) vehicle.maxDistance = v.maxDistanceKm * 1000;
    if (v.maxDurationMin !== null) vehicle.maxDuration = v.maxDurationMin * 60;
    if (v.maxOrders !== null) vehicle.maxOrders = v.maxOrders;
    if (v.features.length > 0) vehicle.features = [...v.features];
    if (v.maxTrips !== undefined && v.maxTrips > 1) {
      // the reloads happen at the vehicle's start depot (its warehouse, or the job's override)
      vehicle.maxTrips = v.maxTrips;
      vehicle.reloadTime = (v.reloadMin ?? 15) * 60;
    }
    if (v.breaks && v.breaks.length > 0) {
      vehicle.breaks = v.breaks.map((b, i) => ({
        id: String(i + 1),
        window: [axis.toAxis(parseClock(b.start)), axis.toAxis(parseClock(b.end))],
        duration: b.minutes * 60,
      }));
    }
    return vehicle;
  });
  const orders = input.orders.map((o) => {
    points.push([o.lat!, o.lon!]);
    const order: ProblemInput['orders'][number] = {
      id: String(o.id),
      location: points.length - 1,
      weight: o.weightKg,
      volume: o.volumeM3,
      serviceTime: o.serviceTimeMin * 60,
    };
    if (o.timeWindowStart !== null || o.timeWindowEnd !== null) {
      const start = o.timeWindowStart === null ? 0 : parseClock(o.timeWindowStart);
      const end = o.timeWindowEnd === null ? 86_400 : parseClock(o.timeWindowEnd);
      order.timeWindow = [axis.toAxis(start), axis.toAxis(end)];
    }
    if (o.requiredFeatures && o.requiredFeatures.length > 0) order.requiredFeatures = [...o.requiredFeatures];
    return order;
  });
  return { problem: { name: `job ${input.jobId} ${input.date}`, depots, vehicles, orders }, context: { input, axis, points } };
}

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

/**
 * A route's planned kilometres (2 decimals) and minutes, from the engine's route: the minutes from
 * the whole-second times the stops show, so that the two always agree. Every route written (a
 * planning job's, a re-plan's) takes its figures from here.
 */
export function routeFigures(r: Pick<RouteResult, 'distance' | 'start' | 'end'>): { plannedMileageKm: number; plannedDurationMin: number } {
  return { plannedMileageKm: round(r.distance / 1000, 2), plannedDurationMin: Math.round((Math.round(r.end) - Math.round(r.start)) / 60) };
}

/** The engine's result -> routes (with stops, UTC times) and the unassigned orders. */
export function toRoutes(result: SolveResult, context: DatePlanContext): { routes: NewRoute[]; unassigned: Array<{ order_id: number; reason: UnassignedReason }> } {
  const { input, axis } = context;
  const orders = new Map(input.orders.map((o) => [String(o.id), o]));
  const vehicles = new Map(input.vehicles.map((v) => [String(v.id), v]));
  const routes: NewRoute[] = [];
  for (const r of result.routes) {
    if (r.stops.length === 0) continue;
    const vehicle = vehicles.get(r.vehicleId);
    if (!vehicle) throw new Error(`the engine returned unknown vehicle ${r.vehicleId}`);
    const warehouse = input.warehouses.get(input.warehouseOverride ?? vehicle.warehouseId)!;
    const depotStop = (position: number, stopType: 'start_depot' | 'mid_depot' | 'end_depot', at: number, leave = at): NewStop => ({
      position,
      stopType,
      orderId: null,
      orderExternalId: null,
      warehouseId: warehouse.id,
      address: warehouse.address,
      lat: warehouse.lat,
      lon: warehouse.lon,
      plannedArrivalAt: axis.toUtc(at),
      plannedDepartureAt: axis.toUtc(leave),
    });
    const stops: NewStop[] = [depotStop(1, 'start_depot', r.start)];
    let weight = 0;
    let volume = 0;
    const reloads = r.reloads ?? [];
    let nextReload = 0;
    for (const [k, s] of r.stops.entries()) {
      // a reload between two trips: back at the warehouse, leaving after the reload time
      while (nextReload < reloads.length && reloads[nextReload].after === k) {
        const x = reloads[nextReload++];
        stops.push(depotStop(stops.length + 1, 'mid_depot', x.arrival, x.departure));
      }
      const order = orders.get(s.orderId);
      if (!order) throw new Error(`the engine returned unknown order ${s.orderId}`);
      weight += order.weightKg;
      volume += order.volumeM3;
      stops.push({
        position: stops.length + 1,
        stopType: 'order',
        orderId: order.id,
        orderExternalId: order.externalId,
        warehouseId: null,
        address: order.address,
        lat: order.lat!,
        lon: order.lon!,
        plannedArrivalAt: axis.toUtc(s.start),
        plannedDepartureAt: axis.toUtc(s.departure),
      });
    }
    stops.push(depotStop(stops.length + 1, 'end_depot', r.end));
    routes.push({
      jobId: input.jobId,
      companyId: input.companyId,
      vehicleId: vehicle.id,
      name: `${input.date} ${vehicle.name}`,
      date: input.date,
      ...routeFigures(r),
      totalWeightKg: round(weight, 3),
      totalVolumeM3: round(volume, 3),
      stops,
      ...(r.breaks && r.breaks.length > 0 ? { breaks: r.breaks.map((b) => ({ start: axis.toUtc(b.start), end: axis.toUtc(b.end) })) } : {}),
    });
  }
  const unassigned = result.unassigned.map((u) => ({ order_id: Number(u.orderId), reason: u.reason }));
  return { routes, unassigned };
}
