/**
 * The bodies of the dispatcher's day (operations.md "Re-planning a day"), each once in zod:
 * POST /api/internal/v1/planning/replan, /vehicles/{id}/unavailable and /planning/quote, and the
 * quote's answer. `parseDispatchBody` turns a schema's issues into `{detail, <field>: [message]}`
 * (one message a field, unknown fields named), as the rest of the dispatch API answers.
 */
import { z } from 'zod';
import type { UnassignedReason } from '../model/input.js';
import { describeJsonType, isValidDate } from './order.js';
import type { FieldErrors } from './order.js';
import { MAX_LIST } from './planning.js';
import { timestamp } from './wire.js';

export const TIMESTAMP_IN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$|^24:00(?::00)?$/;

export const DISPATCH_BODY_MESSAGES = {
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  timestamp: 'Timestamp has wrong format. Use ISO 8601 with a time zone, for example 2026-11-23T09:15:00Z.',
  clock: 'Time has wrong format. Use one of these formats instead: hh:mm[:ss].',
  integerList: 'Expected a list of integers.',
  stringList: 'Expected a list of strings.',
  number: 'A valid number is required.',
  integer: 'A valid integer is required.',
  unknown: 'Unknown field.',
  required: 'This field is required.',
} as const;

const date = z.string({ error: DISPATCH_BODY_MESSAGES.date }).max(10).refine(isValidDate, { message: DISPATCH_BODY_MESSAGES.date });
const ids = (message: string) => z.array(z.int({ error: message }), { error: message }).max(MAX_LIST).nullable().optional();
export const number = (min: number, max: number) =>
  z
    .union([z.number(), z.string().max(32).regex(/^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/).transform(Number)], { error: DISPATCH_BODY_MESSAGES.number })
    // the range, for the document (JSON Schema applies minimum and maximum to numbers only)
    .meta({ minimum: min, maximum: max })
    .pipe(z.number().min(min, { message: `Ensure this value is between ${min} and ${max}.` }).max(max, { message: `Ensure this value is between ${min} and ${max}.` }));
const clock = z.string({ error: DISPATCH_BODY_MESSAGES.clock }).max(8).regex(CLOCK, { message: DISPATCH_BODY_MESSAGES.clock });

export const replanRequestSchema = z
  .strictObject({
    date: date.describe('YYYY-MM-DD: the delivery date whose planned and active routes are re-planned'),
    order_ids: ids(DISPATCH_BODY_MESSAGES.integerList).describe('new orders to add (status new, that date); none given: every new order of the date'),
    external_ids: z
      .array(z.string({ error: DISPATCH_BODY_MESSAGES.stringList }).max(128), { error: DISPATCH_BODY_MESSAGES.stringList })
      .max(MAX_LIST)
      .nullable()
      .optional()
      .describe('new orders to add by external_id'),
    vehicle_ids: ids(DISPATCH_BODY_MESSAGES.integerList).describe('free vehicles that may get a new route (default: every free active vehicle)'),
  })
  .meta({ id: 'ReplanRequest', description: 'Re-plans a day in progress (operations.md "Re-planning a day")' });
export type ReplanRequest = z.output<typeof replanRequestSchema>;

export const unavailableRequestSchema = z
  .strictObject({
    from: z.string({ error: DISPATCH_BODY_MESSAGES.timestamp }).max(64).regex(TIMESTAMP_IN, { message: DISPATCH_BODY_MESSAGES.timestamp }).nullable().optional().describe('when the vehicle goes out (default now)'),
  })
  .meta({ id: 'VehicleUnavailableRequest', description: 'The vehicle is out for the rest of its route\'s day; its pending stops move' });
export type UnavailableRequest = z.output<typeof unavailableRequestSchema>;

export const quoteRequestSchema = z
  .strictObject({
    date: date.describe('YYYY-MM-DD'),
    lat: number(-90, 90).describe('latitude, number or decimal string'),
    lon: number(-180, 180).describe('longitude, number or decimal string'),
    weight: number(0, 1e6).nullable().optional().describe('kg (default 0)'),
    volume: number(0, 1e6).nullable().optional().describe('cubic metres (default 0)'),
    service_time: z.int({ error: DISPATCH_BODY_MESSAGES.integer }).min(0).max(24 * 60).nullable().optional().describe('minutes at the door (default 10)'),
    time_window_start: clock.nullable().optional().describe('HH:MM[:SS] local'),
    time_window_end: clock.nullable().optional().describe('HH:MM[:SS] local'),
  })
  .meta({ id: 'QuoteRequest', description: 'One more order on a date: where it would go and when (nothing is changed)' });
export type QuoteRequest = z.output<typeof quoteRequestSchema>;

const REASONS = ['capacity', 'time_window', 'max_distance', 'max_duration', 'max_orders', 'requirements', 'no_vehicle', 'unroutable'] as const satisfies readonly UnassignedReason[];

export const quoteResultSchema = z
  .union([
    z.strictObject({
      feasible: z.literal(true),
      route_id: z.int(),
      position: z.int().min(2).describe("the stop's position in the route if it were added"),
      eta: timestamp.describe('planned start of service'),
      added_km: z.number().describe('extra kilometres of the route'),
      added_min: z.number().describe('extra minutes of the route'),
    }),
    z.strictObject({ feasible: z.literal(false), reason: z.enum(REASONS) }),
  ])
  .meta({ id: 'QuoteResult', description: 'The cheapest place for the order on the date\'s planned and active routes, or why there is none' });
export type QuoteResult = z.output<typeof quoteResultSchema>;

/** A parsed body: null is the same as a field not sent. */
export type Sent<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * A body against one of the schemas above: the parsed value (nulls dropped), or the answer
 * `{detail, <field>: [message]}` (detail alone for a body that is not an object).
 */
export function parseDispatchBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  optional = false,
): { ok: true; value: Sent<z.output<S>> } | { ok: false; detail: string; errors?: FieldErrors } {
  if (body === undefined && optional) body = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, detail: `Invalid data. Expected a JSON object, but got ${body === undefined ? 'an empty body' : describeJsonType(body)}.` };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) {
    const value = {} as Record<string, unknown>;
    for (const [key, v] of Object.entries(parsed.data as Record<string, unknown>)) if (v !== null && v !== undefined) value[key] = v;
    return { ok: true, value: value as Sent<z.output<S>> };
  }
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors[key] = [DISPATCH_BODY_MESSAGES.unknown];
      continue;
    }
    const field = String(issue.path[0] ?? 'non_field_errors');
    if (errors[field]) continue;
    const missing = issue.code === 'invalid_type' && (body as Record<string, unknown>)[field] === undefined;
    errors[field] = [missing ? DISPATCH_BODY_MESSAGES.required : issue.message];
  }
  const fields = Object.keys(errors);
  return { ok: false, detail: `Invalid data: ${fields.map((f) => `${f}: ${errors[f]!.join(' ')}`).join('; ')}`, errors };
}
