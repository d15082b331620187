/**
 * The internal problem: what the core works on after validation. Integer indices and flat typed
 * arrays; the input objects stay reachable for export.
 */
import type { Objective, ProblemInput } from './input.js';
import { buildMatrix, locationOrder, NO_ROAD, type Matrix, type MatrixArray } from './matrix.js';

/** Stands in for an absent time window or limit: finite, so segment arithmetic stays exact. */
export const HORIZON = 1e15;

export interface Problem {
  input: ProblemInput;
  matrix: Matrix;
  /** Row-major distance / duration, `from * nLoc + to`. */
  dist: MatrixArray;
  dur: MatrixArray;
  nLoc: number;
  /** dist[i][j] === dist[j][i] everywhere (lets 2-opt price a reversal in O(1)). */
  symmetric: boolean;
  /** dur[i][j] === dur[j][i] everywhere (the insertion scan then reads both new arcs from one row). */
  durSymmetric: boolean;

  nOrders: number;
  /**
   * Orders plus reload nodes. Reload nodes (indices nOrders..nNodes-1) are visits of a vehicle's
   * start depot between two trips: each vehicle with maxTrips m owns m - 1 of them (compatible
   * with that vehicle only, so maxTrips holds by construction), and the search moves them like
   * orders. Their location is the depot, weight and volume 0, service time the reload time; the
   * per-order arrays below are sized nNodes. With no vehicle above one trip, nNodes = nOrders.
   */
  nNodes: number;
  /** Vehicle owning reload node nOrders + i. */
  reloadOwner: Int32Array;
  /**
   * Some node is a vehicle's own pseudo-visit (a reload node or a break node): the routes then
   * keep trip-aware caches (see SearchRoute), which count both kinds out of the orders.
   */
  hasReloads: boolean;
  /**
   * Break nodes (indices nBreakFirst..nNodes-1, after the reload nodes): each vehicle with breaks
   * owns one per break, always on its route (SearchSolution keeps them there). A break node has
   * no place of its own: it is taken where the driver is, so the caches put it at the location
   * before it with no travel, and its window opens earlier by the drive of the arc it sits on
   * (SearchRoute, RouteProbe). Its service time is the break's length, its window the start's.
   */
  nBreakFirst: number;
  hasBreaks: boolean;
  /** First break node of vehicle v and how many it owns. */
  vBreakFirst: Int32Array;
  vBreakCount: Int32Array;
  /**
   * A day in progress. Kept orders (on a route now): the vehicle, -1 for a new order; the search
   * counts a kept order left out as KEPT_WEIGHT new ones (SearchSolution.unassignedCount).
   */
  oKept: Int32Array;
  nKept: number;
  /**
   * What moving kept order o to another vehicle counts, in units of 1/KEPT_MOVE_UNITS of
   * `keptMoveCost` (OrderInput.keptMoveWeight; 0 for a new order), and the largest of them: the
   * search counts moved kept orders by these units (SearchRoute.cumKept, RouteProbe.moved).
   */
  oKeptUnits: Int32Array;
  keptUnitsMax: number;
  /** Latest departure from the start: the shift end, or the start time of a vehicle under way. */
  vDepartLate: Float64Array;
  /** Under way: distance driven, time spent since leaving the depot, fixed stops (-1: not under way). */
  vDistDone: Float64Array;
  vTimeDone: Float64Array;
  vFixed: Int32Array;
  vDepartedAt: Float64Array;
  orderIds: string[];
  /** Matrix row of each node's location (the input's location through `matrix.index`). */
  oLoc: Int32Array;
  /** The input's location of each matrix row (what results report): the inverse of `matrix.index`. */
  rowLocation: Int32Array;
  oW: Float64Array;
  oV: Float64Array;
  oService: Float64Array;
  oEarly: Float64Array;
  oLate: Float64Array;

  nVehicles: number;
  vehicleIds: string[];
  vCapW: Float64Array;
  vCapV: Float64Array;
  vShiftStart: Float64Array;
  vShiftEnd: Float64Array;
  vMaxDist: Float64Array;
  vMaxDur: Float64Array;
  vMaxOrders: Int32Array;
  vMaxTrips: Int32Array;
  vReloadTime: Float64Array;
  /** First reload node of vehicle v (it owns vMaxTrips[v] - 1 consecutive ones). */
  vReloadFirst: Int32Array;
  /**
   * Capacity for the O(1) whole-route load pre-checks of the operators: the capacity for a
   * one-trip vehicle, Infinity otherwise (the probe then checks each trip exactly).
   */
  vPreW: Float64Array;
  vPreV: Float64Array;
  vStartLoc: Int32Array;
  vEndLoc: Int32Array;
  /** Every vehicle starts at the same location and ends at the same location. */
  singleDepot: boolean;
  /** Vehicles with identical parameters share a class; one empty route per class is enough. */
  vClass: Int32Array;
  /** The vehicles are of more than one class (depots, capacities, shifts, limits or features differ). */
  mixedFleet: boolean;

  /** compat[o * nVehicles + v] = 1 when vehicle v has every feature order o requires. */
  compat: Uint8Array;
  /** True when some order requires a feature (otherwise compat is all ones). */
  hasRequirements: boolean;
}

export class ProblemError extends Error {
  override name = 'ProblemError';
}

/**
 * The internal problem of a validated input. Its locations (`oLoc`, `vStartLoc`, `vEndLoc`) are
 * rows of `matrix`: without a matrix given, one laid out by `locationOrder` (near locations on near
 * rows); with one, through its `index` when it has one.
 */
export function buildProblem(input: ProblemInput, matrix: Matrix = buildMatrix(input.matrix, undefined, locationOrder(input.matrix))): Problem {
  const nLoc = matrix.size;
  const row = matrix.index;
  const depotLoc = new Map<string, number>();
  for (const d of input.depots) depotLoc.set(d.id, row === undefined ? d.location : row[d.location]);

  const nOrders = input.orders.length;
  let nReloads = 0;
  let nBreaks = 0;
  for (const v of input.vehicles) nReloads += Math.max(1, v.maxTrips ?? 1) - 1;
  for (const v of input.vehicles) nBreaks += v.breaks?.length ?? 0;
  const nBreakFirst = nOrders + nReloads;
  const nNodes = nBreakFirst + nBreaks;
  const oLoc = new Int32Array(nNodes);
  const oW = new Float64Array(nNodes);
  const oV = new Float64Array(nNodes);
  const oService = new Float64Array(nNodes);
  const oEarly = new Float64Array(nNodes);
  const oLate = new Float64Array(nNodes);
  input.orders.forEach((o, i) => {
    oLoc[i] = row === undefined ? o.location : row[o.location];
    oW[i] = o.weight;
    oV[i] = o.volume;
    oService[i] = o.serviceTime;
    oEarly[i] = o.timeWindow ? o.timeWindow[0] : -HORIZON;
    oLate[i] = o.timeWindow ? o.timeWindow[1] : HORIZON;
  });

  const nVehicles = input.vehicles.length;
  const vCapW = new Float64Array(nVehicles);
  const vCapV = new Float64Array(nVehicles);
  const vShiftStart = new Float64Array(nVehicles);
  const vShiftEnd = new Float64Array(nVehicles);
  const vMaxDist = new Float64Array(nVehicles);
  const vMaxDur = new Float64Array(nVehicles);
  const vMaxOrders = new Int32Array(nVehicles);
  const vMaxTrips = new Int32Array(nVehicles);
  const vReloadTime = new Float64Array(nVehicles);
  const vReloadFirst = new Int32Array(nVehicles);
  const vPreW = new Float64Array(nVehicles);
  const vPreV = new Float64Array(nVehicles);
  const reloadOwner = new Int32Array(nReloads);
  let nextReload = nOrders;
  const vBreakFirst = new Int32Array(nVehicles);
  const vBreakCount = new Int32Array(nVehicles);
  let nextBreak = nBreakFirst;
  const vDepartLate = new Float64Array(nVehicles);
  const vDistDone = new Float64Array(nVehicles);
  const vTimeDone = new Float64Array(nVehicles);
  const vFixed = new Int32Array(nVehicles).fill(-1);
  const vDepartedAt = new Float64Array(nVehicles);
  const now = input.now ?? -HORIZON;
  const vStartLoc = new Int32Array(nVehicles);
  const vEndLoc = new Int32Array(nVehicles);
  const vClass = new Int32Array(nVehicles);
  const classes = new Map<string, number>();
  input.vehicles.forEach((v, i) => {
    const s = depotLoc.get(v.startDepot);
    const e = depotLoc.get(v.endDepot);
    if (s === undefined) throw new ProblemError(`vehicles[${i}].startDepot: unknown depot '${v.startDepot}'`);
    if (e === undefined) throw new ProblemError(`vehicles[${i}].endDepot: unknown depot '${v.endDepot}'`);
    vCapW[i] = v.capacity.weight;
    vCapV[i] = v.capacity.volume;
    vShiftStart[i] = Math.max(v.shift[0], now);
    vShiftEnd[i] = v.shift[1];
    vDepartLate[i] = v.shift[1];
    vMaxDist[i] = v.maxDistance ?? HORIZON;
    vMaxDur[i] = v.maxDuration ?? HORIZON;
    vMaxOrders[i] = v.maxOrders ?? 0x3fffffff;
    vStartLoc[i] = s;
    vDepartedAt[i] = vShiftStart[i];
    const g = v.progress;
    if (g !== undefined) {
      // Under way: the rest of the route starts at g.start, leaving then (its clock runs since
      // departure: waiting there counts like waiting anywhere else); the limits lose what the
      // fixed stops used.
      const at = (loc: number) => (row === undefined ? loc : row[loc]);
      let prev = s;
      let dist = 0;
      for (const f of g.fixedStops) {
        dist += matrix.distance[prev * nLoc + at(f.location)];
        prev = at(f.location);
      }
      const here = at(g.start.location);
      dist += matrix.distance[prev * nLoc + here];
      const first = g.fixedStops[0];
      const departedAt = g.departedAt ?? (first ? first.arrival - matrix.duration[s * nLoc + at(first.location)] : g.start.time);
      const startTime = Math.max(g.start.time, now);
      vStartLoc[i] = here;
      vShiftStart[i] = startTime;
      vDepartLate[i] = startTime;
      vDistDone[i] = dist;
      vTimeDone[i] = startTime - departedAt;
      vDepartedAt[i] = departedAt;
      vFixed[i] = g.fixedStops.length;
      vMaxDist[i] -= dist;
      vMaxDur[i] -= startTime - departedAt;
      vMaxOrders[i] -= g.fixedStops.length;
    }
    vEndLoc[i] = e;
    const trips = Math.max(1, v.maxTrips ?? 1);
    vMaxTrips[i] = trips;
    vReloadTime[i] = v.reloadTime ?? 0;
    vReloadFirst[i] = nextReload;
    vPreW[i] = trips === 1 ? v.capacity.weight : Infinity;
    vPreV[i] = trips === 1 ? v.capacity.volume : Infinity;
    for (let t = 1; t < trips; t++, nextReload++) {
      reloadOwner[nextReload - nOrders] = i;
      oLoc[nextReload] = s;
      oService[nextReload] = vReloadTime[i];
      oEarly[nextReload] = -HORIZON;
      oLate[nextReload] = HORIZON;
    }
    vBreakFirst[i] = nextBreak;
    vBreakCount[i] = v.breaks?.length ?? 0;
    for (const b of v.breaks ?? []) {
      oLoc[nextBreak] = s; // a placeholder: the caches put a break where the driver is
      oService[nextBreak] = b.duration;
      oEarly[nextBreak] = b.window[0];
      oLate[nextBreak] = b.window[1];
      nextBreak++;
    }
    const dayKey = v.breaks !== undefined || g !== undefined ? [v.breaks ?? [], g?.start ?? null, i] : [];
    const key = JSON.stringify([v.capacity, v.shift, s, e, v.maxDistance, v.maxDuration, v.maxOrders, [...(v.features ?? [])].sort(), ...(trips > 1 ? [trips, vReloadTime[i]] : []), ...dayKey]);
    let c = classes.get(key);
    if (c === undefined) classes.set(key, (c = classes.size));
    vClass[i] = c;
  });

  const compat = new Uint8Array(nNodes * nVehicles).fill(1);
  // a reload node rides only on its own vehicle
  for (let r = nOrders; r < nBreakFirst; r++) {
    compat.fill(0, r * nVehicles, (r + 1) * nVehicles);
    compat[r * nVehicles + reloadOwner[r - nOrders]] = 1;
  }
  // and so does a break node
  for (let v = 0; v < nVehicles; v++)
    for (let b = vBreakFirst[v]; b < vBreakFirst[v] + vBreakCount[v]; b++) {
      compat.fill(0, b * nVehicles, (b + 1) * nVehicles);
      compat[b * nVehicles + v] = 1;
    }
  const oKept = new Int32Array(nNodes).fill(-1);
  const oKeptUnits = new Int32Array(nNodes);
  let nKept = 0;
  let keptUnitsMax = 0;
  const vehicleIndex = new Map(input.vehicles.map((v, k) => [v.id, k]));
  input.orders.forEach((o, i) => {
    if (o.currentVehicle === undefined) return;
    const k = vehicleIndex.get(o.currentVehicle);
    if (k === undefined) throw new ProblemError(`orders[${i}].currentVehicle: unknown vehicle '${o.currentVehicle}'`);
    oKept[i] = k;
    oKeptUnits[i] = Math.round(Math.min(1, Math.max(0, o.keptMoveWeight ?? 1)) * KEPT_MOVE_UNITS);
    keptUnitsMax = Math.max(keptUnitsMax, oKeptUnits[i]);
    nKept++;
  });
  let hasRequirements = false;
  input.orders.forEach((o, i) => {
    const req = o.requiredFeatures ?? [];
    if (req.length === 0) return;
    hasRequirements = true;
    input.vehicles.forEach((v, k) => {
      const have = new Set(v.features ?? []);
      compat[i * nVehicles + k] = req.every((f) => have.has(f)) ? 1 : 0;
    });
  });

  const rowLocation = new Int32Array(nLoc);
  for (let i = 0; i < nLoc; i++) rowLocation[row === undefined ? i : row[i]] = i;

  const symmetric = isSymmetric(matrix.distance, nLoc);
  const durSymmetric = isSymmetric(matrix.duration, nLoc);

  return {
    input,
    matrix,
    symmetric,
    durSymmetric,
    singleDepot: vStartLoc.every((x) => x === vStartLoc[0]) && vEndLoc.every((x) => x === vEndLoc[0]),
    mixedFleet: classes.size > 1,
    dist: matrix.distance,
    dur: matrix.duration,
    nLoc,
    nOrders,
    nNodes,
    reloadOwner,
    hasReloads: nNodes > nOrders,
    nBreakFirst,
    hasBreaks: nBreaks > 0,
    vBreakFirst,
    vBreakCount,
    oKept,
    nKept,
    oKeptUnits,
    keptUnitsMax,
    vDepartLate,
    vDistDone,
    vTimeDone,
    vFixed,
    vDepartedAt,
    orderIds: input.orders.map((o) => o.id),
    oLoc,
    rowLocation,
    oW,
    oV,
    oService,
    oEarly,
    oLate,
    nVehicles,
    vehicleIds: input.vehicles.map((v) => v.id),
    vCapW,
    vCapV,
    vShiftStart,
    vShiftEnd,
    vMaxDist,
    vMaxDur,
    vMaxOrders,
    vMaxTrips,
    vReloadTime,
    vReloadFirst,
    vPreW,
    vPreV,
    vStartLoc,
    vEndLoc,
    vClass,
    compat,
    hasRequirements,
  };
}

/** Cost weights derived from the objective. */
export interface CostModel {
  perDistance: number;
  perDuration: number;
  /** Cost of using a vehicle at all (the vehicles-first objective). */
  perVehicle: number;
  /** Penalty per unassigned order: above any routing cost, so serving more always wins. */
  perUnassigned: number;
  /**
   * Infeasible search: when set, broken time windows, loads and limits cost a penalty instead of
   * forbidding the move (the metaheuristic adapts the weights; the returned solution is feasible).
   */
  penalised: boolean;
  /** Per unit of time warp, of excess duration and of excess distance. */
  penaltyTime: number;
  /** Per unit of excess weight plus excess volume. */
  penaltyLoad: number;
  /**
   * Per unit (Problem.oKeptUnits) of kept orders on another vehicle than their own (a day in
   * progress; 0 otherwise): keptMoveCost / KEPT_MOVE_UNITS.
   */
  perMoved: number;
}

/**
 * A kept order's move weight in units (OrderInput.keptMoveWeight): integers keep the per-route sums
 * exact (SearchRoute.cumKept), and a power of two keeps keptMoveCost / KEPT_MOVE_UNITS exact.
 */
export const KEPT_MOVE_UNITS = 64;

/** The duration weight of a distance objective when vehicles take breaks (see costModel). */
export const BREAK_DURATION_WEIGHT = 1e-6;

export function costModel(p: Problem, objective: Objective = 'distance'): CostModel {
  // An upper bound on any solution's routing cost: every order reached and left by its longest
  // finite arc, every vehicle's depot round trip.
  let maxArc = 0;
  const n = p.nLoc;
  for (let i = 0; i < n * n; i++) {
    const d = objective === 'duration' ? p.dur[i] : p.dist[i];
    if (d < NO_ROAD && d > maxArc) maxArc = d;
  }
  let serviceSum = 0;
  // reload nodes are visits too (nNodes = nOrders without them)
  for (let o = 0; o < p.nNodes; o++) serviceSum += p.oService[o];
  const bound = 2 * maxArc * (p.nNodes + p.nVehicles + 1) + (objective === 'duration' ? serviceSum : 0) + 1;
  const perVehicle = objective === 'vehicles' ? bound : 0;
  const perMoved = p.nKept > 0 ? (p.input.keptMoveCost ?? 0) / KEPT_MOVE_UNITS : 0;
  const costs: CostModel = {
    perDistance: objective === 'duration' ? 0.001 : 1,
    // Breaks: a break node has no place of its own, so the arcs priced alone no longer bound a
    // move's distance delta. A duration weight far below any distance turns that pruning off
    // everywhere (it is keyed on perDuration = 0), and among routes of equal distance it prefers
    // the shorter day (a break placed in waiting time rather than on the road). (A cost on moving
    // kept orders keeps the pruning: SearchRoute.penalty holds what a move could shed of it.)
    perDuration: objective === 'duration' ? 1 : p.hasBreaks ? BREAK_DURATION_WEIGHT : 0,
    perVehicle,
    perUnassigned: bound + perVehicle * (p.nVehicles + 1),
    penalised: false,
    // doubles from the start (see DOUBLE in route/search-route.ts): the search sets fractions
    penaltyTime: -0,
    penaltyLoad: -0,
    perMoved,
  };
  costs.penaltyTime = costs.penaltyLoad = 1;
  return costs;
}

/** Whether the n x n row-major matrix a equals its transpose, entry for entry. */
function isSymmetric(a: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (a[i * n + j] !== a[j * n + i]) return false;
  return true;
}
