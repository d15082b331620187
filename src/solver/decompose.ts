/**
 * Decomposition of a large instance for the threads of one solve (as HGS and FILO do for large
 * instances): the routes of the best solution are cut into sectors around the depot by the polar
 * angle of their centres, each sector (its orders, its vehicles and a share of the unused ones)
 * becomes a problem of its own that one thread searches, and the sectors' results are put back
 * together. Two threads that each search the whole problem keep only the better of their two
 * results; two threads on two sectors keep the work of both. The cut turns by a different angle
 * each time, about every other time around a different point (OFF_CENTRE_SHARE), and about every
 * other time it makes blocks by halving instead of wedges (HALVES_SHARE), so no border stays a
 * border (see isSectorEpoch).
 *
 * Pure: problems in, problems and results out; `solveParallel` runs the parts on its threads.
 */
import type { ProblemInput, SolveOptions, SolveResult } from '../model/input.js';
import { planeCoordinates } from '../model/matrix.js';

/** From this many orders on, the threads of one solve may work on sectors of the routes. */
export const DECOMPOSE_FROM = 600;

/** Fewest routes a sector may hold: below that the sectors are too small to be worth a thread. */
const MIN_ROUTES_PER_PART = 4;

/** Most sectors one thread takes in turn in a sector epoch. */
export const MAX_SECTORS_PER_THREAD = 4;

/** A thread takes more than one sector only while each sector still holds this many routes. */
export const FINE_SECTOR_ROUTES = 10;

/**
 * How many sectors each thread searches in turn, from the solution's route count: finer sectors
 * where the routes are many and short (Homberger 1000 C1, R1, RC1: 90-100 routes, four sectors a
 * thread of about 12 routes each), one a thread where they are few and long (C2, R2, RC2: 20-30
 * routes; four sectors of R2's routes held about 6 each and lost, bench/RESULTS.md, session 12).
 * A solver that is good on 100-200 orders keeps each sector's gain, and a sector's result is only
 * kept when it is no worse, so the gains of many sectors add up where one search over the whole
 * problem would have to hold all of them at once (session 14: R1_10_2, RC1_10_2, R1_10_6 at 60 s on
 * two threads, 2.45 % -> 1.90 % on average).
 */
export function sectorsPerThread(routes: number, threads: number): number {
  let per = 1;
  while (per < MAX_SECTORS_PER_THREAD && routes >= threads * (per + 1) * FINE_SECTOR_ROUTES) per++;
  return per;
}

/**
 * Which epochs of a decomposed solve work on sectors: every one after the first (the first builds
 * the start on the whole problem). The cut turns by a random angle each epoch, so no border stays
 * a border. Until session 15 only every other epoch was a sector epoch, never the last, and the
 * epochs between them searched the whole problem so that routes could cross a border; a trace of
 * R1_10_2 at 60 s showed those whole epochs gaining 10-20 a time against 40-180 for the sector
 * epochs (the two threads of a whole epoch keep only the better of their two results), and the
 * last one nothing. Sector epochs throughout, 60 s on two threads, seeds 1 / 2 (bench/RESULTS.md,
 * session 15): R1, RC1 and C1 (six instances) 1.84 -> 1.61 % and 1.92 -> 1.66 %; R2, RC2 and C2
 * (six instances, one sector a thread) 1.51 -> 1.06 %; all 60 of Homberger 1000, 1.11 -> 1.07 %.
 */
export function isSectorEpoch(epoch: number): boolean {
  return epoch > 0;
}

/**
 * Share of the sector epochs whose cut turns around a point half way between the depots' centre
 * and a random order instead of around the depots' centre. Sectors cut around one fixed point all
 * meet there: two routes close to it but on different sides never share a sector, whatever the
 * angle, and the border always runs straight out from the same point. Moving the pivot every
 * other epoch or so changes what lies on a border. 60 s on two threads, seed 1, the same six
 * instances one after the other (bench/RESULTS.md, session 16): R1, RC1 and C1 (R1_10_2,
 * RC1_10_2, R1_10_6, RC1_10_6, C1_10_8, R1_10_9) 1.79 -> 1.49 %, every instance better; with
 * every cut off centre 1.61 %; seed 2 the same six 1.72 -> 1.73 % (no gain). All 60 of Homberger
 * 1000: 1.07 -> 1.03 %, within the noise of one run. Weak evidence, but none against.
 */
export const OFF_CENTRE_SHARE = 0.5;

export interface Part {
  problem: ProblemInput;
  /** The sector's routes of the solution it was cut from (its warm start). */
  initialRoutes: NonNullable<SolveOptions['initialRoutes']>;
  /** What the sector's routes cost in that solution. */
  distance: number;
  duration: number;
  /** Vehicle ids of the sector (its routes' and its share of the unused ones). */
  vehicleIds: string[];
}

/**
 * The day cut in two by depot, for the first epoch of a cooperating solve (cooperate.ts): when the
 * vehicles start from two depots or more, the two start depots farthest apart anchor the halves and
 * every other start depot joins the nearer anchor; each order goes to the half of its nearest start
 * depot, each vehicle to the half of its own. Null when the vehicles share one start depot, when a
 * half would have no order or no vehicle, or without plane coordinates. A half may not be able to
 * serve all its orders (capacity, features): what it leaves out goes back in on the whole day.
 */
export function depotHalves(input: ProblemInput): [ProblemInput, ProblemInput] | null {
  const xy = planeCoordinates(input.matrix);
  if (xy === null) return null;
  const depotLoc = new Map(input.depots.map((d) => [d.id, d.location]));
  const starts = [...new Set(input.vehicles.map((v) => v.startDepot))].filter((id) => depotLoc.has(id));
  if (starts.length < 2) return null;
  const gap = (a: number, b: number) => Math.hypot(xy[a][0] - xy[b][0], xy[a][1] - xy[b][1]);
  const at = (id: string) => depotLoc.get(id)!;
  let anchors: [string, string] = [starts[0], starts[1]];
  let farthest = -1;
  for (let i = 0; i < starts.length; i++)
    for (let j = i + 1; j < starts.length; j++) {
      const d = gap(at(starts[i]), at(starts[j]));
      if (d > farthest) {
        farthest = d;
        anchors = [starts[i], starts[j]];
      }
    }
  const half = new Map(starts.map((id) => [id, gap(at(id), at(anchors[0])) <= gap(at(id), at(anchors[1])) ? 0 : 1]));
  const orderHalf = (location: number): number => {
    let best = Infinity;
    let side = 0;
    for (const id of starts) {
      const d = gap(location, at(id));
      if (d < best) {
        best = d;
        side = half.get(id)!;
      }
    }
    return side;
  };
  const halves = [0, 1].map((k) => ({
    ...input,
    name: `${input.name ?? 'problem'} (depot half ${k + 1} of 2)`,
    vehicles: input.vehicles.filter((v) => half.get(v.startDepot) === k),
    orders: input.orders.filter((o) => orderHalf(o.location) === k),
  }));
  if (halves.some((h) => h.vehicles.length === 0 || h.orders.length === 0)) return null;
  return [halves[0], halves[1]];
}

/** Whether `solveParallel` should work on sectors for this problem at all. */
export function canDecompose(input: ProblemInput, options: SolveOptions, threads: number, from = DECOMPOSE_FROM): boolean {
  if (threads < 2 || input.orders.length < from) return false;
  if ((options.objective ?? 'distance') === 'vehicles') return false;
  if (input.vehicles.some((v) => (v.maxTrips ?? 1) > 1)) return false;
  // a day in progress: a kept order names its vehicle, which another part may hold
  if (input.orders.some((o) => o.currentVehicle !== undefined)) return false;
  return planeCoordinates(input.matrix) !== null;
}

interface Centred {
  r: SolveResult['routes'][number];
  x: number;
  y: number;
}

/** The used routes of `from` with the centres of their orders; null when the cut cannot be made. */
function routeCentres(input: ProblemInput, from: SolveResult, parts: number): { xy: Array<[number, number]>; routes: Centred[] } | null {
  const xy = planeCoordinates(input.matrix);
  if (xy === null || from.unassigned.length > 0) return null;
  const used = from.routes.filter((r) => r.stops.length > 0);
  if (used.length < parts * MIN_ROUTES_PER_PART) return null;
  const routes = used.map((r) => {
    let x = 0;
    let y = 0;
    for (const s of r.stops) {
      x += xy[s.location][0] / r.stops.length;
      y += xy[s.location][1] / r.stops.length;
    }
    return { r, x, y };
  });
  return { xy, routes };
}

const byVehicleId = (a: Centred, b: Centred) => (a.r.vehicleId < b.r.vehicleId ? -1 : a.r.vehicleId > b.r.vehicleId ? 1 : 0);

/**
 * Cuts the routes of `from` into `parts` sectors of about equal order counts, starting at polar
 * angle `angle` (radians) around the depots' centre, or with `pivotOrder` (an order index) around
 * the point half way between the depots' centre and that order (see OFF_CENTRE_SHARE). Null when
 * the solution leaves orders out or has too few routes to cut.
 */
export function splitRoutes(input: ProblemInput, from: SolveResult, parts: number, angle: number, pivotOrder?: number): Part[] | null {
  const centred = routeCentres(input, from, parts);
  if (centred === null) return null;
  const { xy, routes } = centred;
  let cx = 0;
  let cy = 0;
  for (const d of input.depots) {
    cx += xy[d.location][0] / input.depots.length;
    cy += xy[d.location][1] / input.depots.length;
  }
  if (pivotOrder !== undefined) {
    const loc = input.orders[pivotOrder].location;
    cx = (cx + xy[loc][0]) / 2;
    cy = (cy + xy[loc][1]) / 2;
  }
  const turn = (a: number) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  const keyed = routes.map((c) => ({ c, a: turn(Math.atan2(c.y - cy, c.x - cx) - angle) }));
  keyed.sort((a, b) => a.a - b.a || byVehicleId(a.c, b.c));
  const total = routes.reduce((s, c) => s + c.r.stops.length, 0);
  const groups: Centred[][] = Array.from({ length: parts }, () => []);
  let seen = 0;
  let g = 0;
  for (const { c } of keyed) {
    // move on to the next sector once this one holds its share (leaving every later one a route)
    if (g < parts - 1 && seen >= (total * (g + 1)) / parts && groups[g].length >= MIN_ROUTES_PER_PART) g++;
    groups[g].push(c);
    seen += c.r.stops.length;
  }
  if (groups.some((x) => x.length < MIN_ROUTES_PER_PART)) return null;
  return buildParts(input, groups);
}

/**
 * Share of the sector epochs cut into halves of halves (halveRoutes) instead of wedges: wedges
 * around one point are long and thin where the routes are many, and every one of them reaches
 * that point; halves of halves are compact blocks, and their borders lie elsewhere. 60 s on two
 * threads, the six instances of OFF_CENTRE_SHARE, one run each on one machine (bench/RESULTS.md,
 * session 17): wedges only 1.51 / 1.48 % (seeds 1 / 2), blocks every other epoch 1.40 / 1.42 %,
 * nine of twelve pairs better. All 60 of Homberger 1000: 0.89 % (session 16: 1.03 %, on a machine
 * about 1.5 times slower, so not all of that is this rule's).
 */
export const HALVES_SHARE = 0.5;

/**
 * Cuts the routes of `from` into `parts` blocks of about equal order counts by halving: the route
 * centres are split across direction `angle` (radians) where half the orders lie on each side
 * (for an odd count, in proportion), and each side again across the perpendicular direction,
 * until there are `parts`. Null as for splitRoutes.
 */
export function halveRoutes(input: ProblemInput, from: SolveResult, parts: number, angle: number): Part[] | null {
  const centred = routeCentres(input, from, parts);
  if (centred === null) return null;
  const groups: Centred[][] = [];
  const halve = (items: Centred[], k: number, a: number): void => {
    if (k === 1) {
      groups.push(items);
      return;
    }
    const left = Math.floor(k / 2);
    const dx = Math.cos(a);
    const dy = Math.sin(a);
    const sorted = [...items].sort((p, q) => p.x * dx + p.y * dy - (q.x * dx + q.y * dy) || byVehicleId(p, q));
    const total = sorted.reduce((s, c) => s + c.r.stops.length, 0);
    let cut = 0;
    let seen = 0;
    // the left side takes its share of the orders, and at least its share of the fewest routes;
    // the right side keeps at least its own
    while (cut < sorted.length - (k - left) * MIN_ROUTES_PER_PART && (seen < (total * left) / k || cut < left * MIN_ROUTES_PER_PART)) seen += sorted[cut++].r.stops.length;
    halve(sorted.slice(0, cut), left, a + Math.PI / 2);
    halve(sorted.slice(cut), k - left, a + Math.PI / 2);
  };
  halve(centred.routes, parts, angle);
  if (groups.some((x) => x.length < MIN_ROUTES_PER_PART)) return null;
  return buildParts(input, groups);
}

/** One sector problem per group of routes: its orders, its routes' vehicles and a share of the unused ones. */
function buildParts(input: ProblemInput, groups: Centred[][]): Part[] {
  const parts = groups.length;
  // the unused vehicles, dealt out in turn
  const used = new Set(groups.flat().map((c) => c.r.vehicleId));
  const spare: string[][] = Array.from({ length: parts }, () => []);
  let t = 0;
  for (const v of input.vehicles) if (!used.has(v.id)) spare[t++ % parts].push(v.id);
  const orderById = new Map(input.orders.map((o) => [o.id, o]));
  const vehicleById = new Map(input.vehicles.map((v) => [v.id, v]));
  return groups.map((group, i) => {
    const vehicleIds = [...group.map((c) => c.r.vehicleId), ...spare[i]];
    const orderIds = group.flatMap((c) => c.r.stops.map((s) => s.orderId));
    return {
      problem: {
        ...input,
        name: `${input.name ?? 'problem'} (sector ${i + 1} of ${parts})`,
        vehicles: vehicleIds.map((id) => vehicleById.get(id)!),
        orders: orderIds.map((id) => orderById.get(id)!),
      },
      initialRoutes: group.map((c) => ({ vehicleId: c.r.vehicleId, orderIds: c.r.stops.map((s) => s.orderId) })),
      distance: group.reduce((s, c) => s + c.r.distance, 0),
      duration: group.reduce((s, c) => s + c.r.duration, 0),
      vehicleIds,
    };
  });
}

/**
 * Puts the sectors back together: each sector's result where it serves all its orders and costs
 * no more than the sector did, else the sector's routes as they were. Routes come out in the
 * problem's vehicle order.
 */
export function mergeParts(input: ProblemInput, from: SolveResult, parts: Part[], results: Array<SolveResult | undefined>, objective: SolveOptions['objective']): SolveResult {
  const byVehicle = new Map(from.routes.map((r) => [r.vehicleId, r]));
  const chosen = new Map<string, SolveResult['routes'][number]>();
  parts.forEach((part, i) => {
    const r = results[i];
    const cost = (x: { distance: number; duration: number }) => (objective === 'duration' ? x.duration : x.distance);
    const better = r !== undefined && r.unassigned.length === 0 && cost(r) <= cost(part) + 1e-9;
    if (better) for (const route of r.routes) chosen.set(route.vehicleId, route);
    else for (const id of part.vehicleIds) if (byVehicle.has(id)) chosen.set(id, byVehicle.get(id)!);
  });
  const routes: SolveResult['routes'] = [];
  for (const v of input.vehicles) {
    const r = chosen.get(v.id);
    if (r !== undefined && r.stops.length > 0) routes.push(r);
  }
  let distance = 0;
  let duration = 0;
  for (const r of routes) {
    distance += r.distance;
    duration += r.duration;
  }
  const iterations = results.reduce((s, r) => s + (r?.stats.iterations ?? 0), 0);
  return { routes, distance, duration, vehicles: routes.length, unassigned: [], stats: { elapsedMs: from.stats.elapsedMs, iterations } };
}
