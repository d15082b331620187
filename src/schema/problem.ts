/**
 * The JSON problem format (`ProblemInput`, see src/model/input.ts), validated with zod at the
 * boundary. Every issue names the field path and the rule it breaks, e.g.
 * `orders[3].timeWindow: start must not be after end`. Inside the core the data is trusted.
 */
import { z } from 'zod';
import type { ProblemInput } from '../model/input.js';

const finite = (what: string) => z.number({ error: `must be a number (${what})` }).refine(Number.isFinite, { message: `must be finite (${what})` });
const nonNegative = (what: string) => finite(what).refine((x) => x >= 0, { message: `must be >= 0 (${what})` });
const positive = (what: string) => finite(what).refine((x) => x > 0, { message: `must be > 0 (${what})` });
const id = z.string({ error: 'must be a string' }).min(1, { message: 'must be a non-empty string' });
const index = z.number({ error: 'must be a location index' }).int({ message: 'must be an integer location index' }).min(0, { message: 'must be >= 0' });
const pair = (what: string) =>
  z.tuple([finite(what), finite(what)], { error: `must be a pair of numbers [${what}]` });

const latLons = z.array(
  z.tuple([
    finite('lat').refine((x) => x >= -90 && x <= 90, { message: 'latitude must be within [-90, 90]' }),
    finite('lon').refine((x) => x >= -180 && x <= 180, { message: 'longitude must be within [-180, 180]' }),
  ], { error: 'must be a pair [lat, lon]' }),
  { error: 'must be an array of [lat, lon] pairs' },
);

export const matrixSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('euclidean'),
      coordinates: z.array(pair('x, y'), { error: 'must be an array of [x, y] pairs' }),
      rounding: z.enum(['none', 'trunc1'], { error: "must be 'none' or 'trunc1'" }).optional(),
      speed: positive('speed').optional(),
    }),
    z.object({
      kind: z.literal('haversine'),
      coordinates: latLons,
      speedKmh: positive('km/h').optional(),
      detourFactor: finite('factor').refine((x) => x >= 1, { message: 'must be >= 1' }).optional(),
      timeFactor: positive('factor').optional(),
    }),
    z.object({
      kind: z.literal('explicit'),
      distance: z.array(z.array(nonNegative('distance').nullable()), { error: 'must be a square array of numbers or null' }),
      duration: z.array(z.array(nonNegative('duration').nullable()), { error: 'must be a square array of numbers or null' }),
      coordinates: latLons.optional(),
    }),
  ],
  { error: "kind must be 'euclidean', 'haversine' or 'explicit'" },
);

/** More trips than this in one shift is a data error, not a plan (it also bounds the model's size). */
export const MAX_TRIPS = 50;

const capacity = z.object(
  { weight: nonNegative('weight'), volume: nonNegative('volume') },
  { error: 'must be an object {weight, volume}' },
);

const breakObject = z.object(
  {
    id: z.string({ error: 'must be a string' }).optional(),
    window: pair('start, end').refine(([a, b]) => a <= b, { message: 'start must not be after end' }),
    duration: nonNegative('duration'),
  },
  { error: 'must be an object {window, duration}' },
);

const fixedStop = z.object(
  { orderId: id, location: index, arrival: finite('arrival'), start: finite('start'), departure: finite('departure') },
  { error: 'must be an object {orderId, location, arrival, start, departure}' },
);

const progressObject = z.object(
  {
    fixedStops: z.array(fixedStop, { error: 'must be an array of fixed stops' }),
    start: z.object({ location: index, time: finite('time') }, { error: 'must be an object {location, time}' }),
    departedAt: finite('departedAt').optional(),
  },
  { error: 'must be an object {fixedStops, start}' },
);

/** More breaks than this for one driver is a data error (it also bounds the model's size). */
export const MAX_BREAKS = 10;

const problemObject = z
  .object({
    name: z.string().optional(),
    matrix: matrixSchema,
    depots: z.array(z.object({ id, location: index }), { error: 'must be an array of depots' }),
    vehicles: z.array(
      z.object({
        id,
        capacity,
        shift: pair('start, end').refine(([a, b]) => a <= b, { message: 'start must not be after end' }),
        startDepot: id,
        endDepot: id,
        maxDistance: nonNegative('maxDistance').optional(),
        maxDuration: nonNegative('maxDuration').optional(),
        maxOrders: z.number().int({ message: 'must be an integer' }).min(0, { message: 'must be >= 0' }).optional(),
        features: z.array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' }).optional(),
        maxTrips: z
          .number({ error: 'must be a number (maxTrips)' })
          .int({ message: 'must be an integer (maxTrips)' })
          .min(1, { message: 'must be >= 1 (maxTrips)' })
          .max(MAX_TRIPS, { message: `must be <= ${MAX_TRIPS} (maxTrips)` })
          .optional(),
        reloadTime: nonNegative('reloadTime').optional(),
        breaks: z.array(breakObject, { error: 'must be an array of breaks' }).max(MAX_BREAKS, { message: `must have at most ${MAX_BREAKS} breaks` }).optional(),
        progress: progressObject.optional(),
      }),
      { error: 'must be an array of vehicles' },
    ),
    orders: z.array(
      z.object({
        id,
        location: index,
        weight: nonNegative('weight'),
        volume: nonNegative('volume'),
        serviceTime: nonNegative('serviceTime'),
        timeWindow: pair('start, end').refine(([a, b]) => a <= b, { message: 'start must not be after end' }).optional(),
        requiredFeatures: z.array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' }).optional(),
        currentVehicle: id.optional(),
        keptMoveWeight: nonNegative('keptMoveWeight').refine((x) => x <= 1, { message: 'must be <= 1 (keptMoveWeight)' }).optional(),
      }),
      { error: 'must be an array of orders' },
    ),
    now: finite('now').optional(),
    keptMoveCost: nonNegative('keptMoveCost').optional(),
  });

type ProblemData = z.infer<typeof problemObject>;

/**
 * The checks across fields. `locations`: the number of matrix locations when the problem's explicit
 * rows were left out (a task that reads the shared matrix, model/shared-matrix.ts): the rows are
 * not checked, the references into them are.
 */
const crossChecks = (locations?: number) => (p: ProblemData, ctx: z.RefinementCtx) => {
  const m = p.matrix;
  const n = locations ?? (m.kind === 'explicit' ? m.distance.length : m.coordinates.length);
  if (m.kind === 'explicit') {
    if (locations === undefined) {
      if (m.duration.length !== n)
        ctx.addIssue({ code: 'custom', path: ['matrix', 'duration'], message: `must have ${n} rows like matrix.distance` });
      for (const key of ['distance', 'duration'] as const)
        m[key].forEach((row, i) => {
          if (row.length !== n) ctx.addIssue({ code: 'custom', path: ['matrix', key, i], message: `row must have ${n} entries (the matrix must be square)` });
        });
    }
    if (m.coordinates !== undefined && m.coordinates.length !== n)
      ctx.addIssue({ code: 'custom', path: ['matrix', 'coordinates'], message: `must have ${n} entries, one per matrix row` });
  }
  const checkLoc = (path: (string | number)[], loc: number) => {
    if (loc >= n) ctx.addIssue({ code: 'custom', path, message: `must be < ${n} (the number of matrix locations)` });
  };
  const depotIds = new Set<string>();
  p.depots.forEach((d, i) => {
    checkLoc(['depots', i, 'location'], d.location);
    if (depotIds.has(d.id)) ctx.addIssue({ code: 'custom', path: ['depots', i, 'id'], message: `duplicate depot id '${d.id}'` });
    depotIds.add(d.id);
  });
  const vehicleIds = new Set<string>();
  p.vehicles.forEach((v, i) => {
    if (vehicleIds.has(v.id)) ctx.addIssue({ code: 'custom', path: ['vehicles', i, 'id'], message: `duplicate vehicle id '${v.id}'` });
    vehicleIds.add(v.id);
    if (!depotIds.has(v.startDepot)) ctx.addIssue({ code: 'custom', path: ['vehicles', i, 'startDepot'], message: `must name a depot (unknown '${v.startDepot}')` });
    if (!depotIds.has(v.endDepot)) ctx.addIssue({ code: 'custom', path: ['vehicles', i, 'endDepot'], message: `must name a depot (unknown '${v.endDepot}')` });
    if (v.progress !== undefined) {
      const from = Math.max(v.progress.start.time, p.now ?? -Infinity);
      (v.breaks ?? []).forEach((b, k) => {
        if (b.window[1] < from)
          ctx.addIssue({ code: 'custom', path: ['vehicles', i, 'breaks', k, 'window'], message: `closes before the route goes on (${from}): give only the breaks still to take` });
      });
      checkLoc(['vehicles', i, 'progress', 'start', 'location'], v.progress.start.location);
      v.progress.fixedStops.forEach((f, k) => checkLoc(['vehicles', i, 'progress', 'fixedStops', k, 'location'], f.location));
    }
  });
  const fixedIds = new Set(p.vehicles.flatMap((v) => (v.progress?.fixedStops ?? []).map((f) => f.orderId)));
  const orderIds = new Set<string>();
  p.orders.forEach((o, i) => {
    checkLoc(['orders', i, 'location'], o.location);
    if (orderIds.has(o.id)) ctx.addIssue({ code: 'custom', path: ['orders', i, 'id'], message: `duplicate order id '${o.id}'` });
    orderIds.add(o.id);
    if (fixedIds.has(o.id)) ctx.addIssue({ code: 'custom', path: ['orders', i, 'id'], message: `'${o.id}' is a fixed stop of a vehicle: it is not planned again` });
    if (o.currentVehicle !== undefined && !vehicleIds.has(o.currentVehicle))
      ctx.addIssue({ code: 'custom', path: ['orders', i, 'currentVehicle'], message: `must name a vehicle (unknown '${o.currentVehicle}')` });
  });
};

export const problemSchema = problemObject.superRefine(crossChecks());

/** Invalid problem input: the message lists every issue as `path: rule`, one per line. */
export class ProblemValidationError extends Error {
  override name = 'ProblemValidationError';
  constructor(readonly issues: Array<{ path: string; message: string }>) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  }
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let s = '';
  for (const k of path) s += typeof k === 'number' ? `[${k}]` : s === '' ? String(k) : `.${String(k)}`;
  return s === '' ? '(root)' : s;
}

/** Validates unknown JSON as a problem; throws ProblemValidationError naming each field and rule. */
export function parseProblem(data: unknown, options: { locations?: number } = {}): ProblemInput {
  const schema = options.locations === undefined ? problemSchema : problemObject.superRefine(crossChecks(options.locations));
  const r = schema.safeParse(data);
  if (r.success) return r.data as ProblemInput;
  throw new ProblemValidationError(r.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })));
}
