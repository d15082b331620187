/**
 * The order wire format (docs/contract/public-api.md 2.1): zod schemas for input and output, the messages of
 * validation errors (field name -> array of messages), and the serializer. Decimals: weight and
 * volume with 3 decimals, lat and lon with 6 (about 0.1 m), always as strings on output, a JSON
 * number or a decimal string on input, rounded half away from zero to those decimals.
 */
import { z } from 'zod';
import { formatScaled, parseScaled } from '../service/decimal.js';
import { ORDER_STATUSES, ORDER_TYPES, type Order, type OrderFields } from '../store/types.js';
import { fieldErrorsSchema } from './errors.js';
import { decimalString, localTime, pageSchema, timestamp, wireDate } from './wire.js';

export const LIMITS = {
  address: 512,
  external_id: 128,
  name: 255,
  recipient: 255,
  phone: 30,
  /** Not fixed by the contract; our own cap so no single field can grow without bound. */
  notes: 10_000,
  service_time_max: 240,
  /** Not fixed by the contract: weight 0 to 100,000 kg, volume 0 to 1,000 m3. */
  weight_max_kg: 100_000,
  volume_max_m3: 1_000,
} as const;

export const MESSAGES = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  blank: 'This field may not be blank.',
  string: 'Not a valid string.',
  number: 'A valid number is required.',
  integer: 'A valid integer is required.',
  time: 'Time has wrong format. Use one of these formats instead: hh:mm:ss, hh:mm.',
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  readOnly: 'This field is read-only.',
  unknown: 'Unknown field.',
  latLonTogether: 'lat and lon must be sent together.',
  latLonStored: 'lat and lon must both be set or both be null (the stored {other}).',
  windowOrder: 'time_window_end must be later than time_window_start.',
  /** U+0000: PostgreSQL's text cannot hold it, so neither store takes it (Django REST framework's message). */
  nullCharacters: 'Null characters are not allowed.',
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  min: (n: number | string) => `Ensure this value is greater than or equal to ${n}.`,
  max: (n: number | string) => `Ensure this value is less than or equal to ${n}.`,
  choice: (v: unknown) => `"${typeof v === 'string' ? v.slice(0, 64) : JSON.stringify(v)}" is not a valid choice.`,
} as const;

export type FieldErrors = Record<string, string[]>;

const typeError = (expected: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? MESSAGES.required : iss.input === null ? MESSAGES.null : expected;

function text(max: number, options: { blank: boolean }) {
  const base = z.string({ error: typeError(MESSAGES.string) }).trim();
  const nonBlank = options.blank ? base : base.min(1, { error: MESSAGES.blank });
  return nonBlank.max(max, { error: MESSAGES.maxLength(max) }).refine((value) => !value.includes('\u0000'), { error: MESSAGES.nullCharacters });
}

function decimal(decimals: number, min: number, max: number, description: string) {
  return z
    .union([z.number(), z.string()], { error: typeError(MESSAGES.number) })
    .transform((value, ctx) => {
      const scaled = parseScaled(value, decimals);
      if (scaled === undefined) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.number, input: value });
        return z.NEVER;
      }
      const factor = 10 ** decimals;
      if (scaled < min * factor) ctx.addIssue({ code: 'custom', message: MESSAGES.min(min), input: value });
      else if (scaled > max * factor) ctx.addIssue({ code: 'custom', message: MESSAGES.max(max), input: value });
      return scaled;
    })
    .describe(description);
}

const integer = (min: number, max: number) =>
  z
    .union([z.number(), z.string()], { error: typeError(MESSAGES.integer) })
    .transform((value, ctx) => {
      const n = typeof value === 'number' ? value : /^\s*[+-]?\d{1,12}\s*$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isSafeInteger(n)) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.integer, input: value });
        return z.NEVER;
      }
      if (n < min) ctx.addIssue({ code: 'custom', message: MESSAGES.min(min), input: value });
      else if (n > max) ctx.addIssue({ code: 'custom', message: MESSAGES.max(max), input: value });
      return n;
    });

const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const time = z
  .string({ error: typeError(MESSAGES.time) })
  .transform((value, ctx) => {
    const m = TIME.exec(value.trim());
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.time, input: value });
      return z.NEVER;
    }
    return `${m[1]}:${m[2]}:${m[3] ?? '00'}`;
  })
  .describe('HH:MM:SS (HH:MM accepted), local to the company timezone');

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isValidDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}
const date = z
  .string({ error: typeError(MESSAGES.date) })
  .refine((v) => isValidDate(v), { error: MESSAGES.date })
  .describe('YYYY-MM-DD');

const orderType = z.enum(ORDER_TYPES, {
  error: (iss) => (iss.input === undefined ? MESSAGES.required : iss.input === null ? MESSAGES.null : MESSAGES.choice(iss.input)),
});

/** The changeable fields (PATCH); create adds external_id and requires address. */
export const orderFieldsSchema = {
  name: text(LIMITS.name, { blank: true }),
  recipient: text(LIMITS.recipient, { blank: true }),
  phone: text(LIMITS.phone, { blank: true }),
  address: text(LIMITS.address, { blank: false }),
  lat: decimal(6, -90, 90, 'latitude, decimal degrees').nullable(),
  lon: decimal(6, -180, 180, 'longitude, decimal degrees').nullable(),
  time_window_start: time.nullable(),
  time_window_end: time.nullable(),
  weight: decimal(3, 0, LIMITS.weight_max_kg, 'kg'),
  volume: decimal(3, 0, LIMITS.volume_max_m3, 'cubic metres'),
  service_time: integer(0, LIMITS.service_time_max).describe('minutes'),
  notes: text(LIMITS.notes, { blank: true }),
  order_type: orderType,
  delivery_date: date,
};

export const orderCreateSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(orderFieldsSchema).map(([k, s]) => [k, s.optional()])),
  address: orderFieldsSchema.address,
  external_id: text(LIMITS.external_id, { blank: true }).nullable().optional(),
} as { [K in keyof typeof orderFieldsSchema]: z.ZodOptional<(typeof orderFieldsSchema)[K]> } & {
  address: typeof orderFieldsSchema.address;
  external_id: z.ZodOptional<z.ZodNullable<ReturnType<typeof text>>>;
});

export const orderPatchSchema = z.strictObject(
  Object.fromEntries(Object.entries(orderFieldsSchema).map(([k, s]) => [k, s.optional()])) as {
    [K in keyof typeof orderFieldsSchema]: z.ZodOptional<(typeof orderFieldsSchema)[K]>;
  },
);

export const READ_ONLY_ON_CREATE = ['id', 'status', 'created_at', 'updated_at'] as const;
export const READ_ONLY_ON_PATCH = ['id', 'external_id', 'status', 'created_at', 'updated_at'] as const;

type Parsed = z.output<typeof orderPatchSchema>;

/** The message list of a field (own property only: a field may be called `constructor`). */
function messagesOf(errors: FieldErrors, field: string): string[] {
  if (!Object.hasOwn(errors, field)) errors[field] = [];
  return errors[field]!;
}

function collect(issues: readonly z.core.$ZodIssue[], errors: FieldErrors): void {
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) messagesOf(errors, key).push(MESSAGES.unknown);
      continue;
    }
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'non_field_errors';
    const list = messagesOf(errors, field);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Converts parsed wire values to store fields (scaled decimals already). */
function toFields(p: Parsed): Partial<OrderFields> {
  const out: Partial<OrderFields> = {};
  if (p.name !== undefined) out.name = p.name;
  if (p.recipient !== undefined) out.recipient = p.recipient;
  if (p.phone !== undefined) out.phone = p.phone;
  if (p.address !== undefined) out.address = p.address;
  if (p.lat !== undefined) out.lat_e6 = p.lat;
  if (p.lon !== undefined) out.lon_e6 = p.lon;
  if (p.time_window_start !== undefined) out.time_window_start = p.time_window_start;
  if (p.time_window_end !== undefined) out.time_window_end = p.time_window_end;
  if (p.weight !== undefined) out.weight_g = p.weight;
  if (p.volume !== undefined) out.volume_l = p.volume;
  if (p.service_time !== undefined) out.service_time = p.service_time;
  if (p.notes !== undefined) out.notes = p.notes;
  if (p.order_type !== undefined) out.order_type = p.order_type;
  if (p.delivery_date !== undefined) out.delivery_date = p.delivery_date;
  return out;
}

export type CreateInput = { external_id: string | null; fields: OrderFields };
export type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/**
 * Validates one order of a create or bulk request. `today` is the company's local date (the
 * default delivery_date). Errors name every offending field, read-only and unknown ones included.
 */
export function parseOrderCreate(body: unknown, today: string): Result<CreateInput> {
  if (!isPlainObject(body)) {
    return { ok: false, errors: { non_field_errors: [`Invalid data. Expected a JSON object, but got ${describeJsonType(body)}.`] } };
  }
  const errors: FieldErrors = {};
  const rest: Record<string, unknown> = { ...body };
  for (const key of READ_ONLY_ON_CREATE) {
    if (Object.hasOwn(rest, key)) {
      errors[key] = [MESSAGES.readOnly];
      delete rest[key];
    }
  }
  const parsed = orderCreateSchema.safeParse(rest);
  if (!parsed.success) collect(parsed.error.issues, errors);
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  const p = parsed.data;
  const fields = toFields(p as Parsed);
  if ((p.lat === undefined || p.lat === null) !== (p.lon === undefined || p.lon === null)) {
    return { ok: false, errors: { lat: [MESSAGES.latLonTogether], lon: [MESSAGES.latLonTogether] } };
  }
  if (p.time_window_start && p.time_window_end && p.time_window_end <= p.time_window_start) {
    return { ok: false, errors: { time_window_end: [MESSAGES.windowOrder] } };
  }
  let lat = fields.lat_e6 ?? null;
  let lon = fields.lon_e6 ?? null;
  if (lat === 0 && lon === 0) lat = lon = null;
  const externalId = p.external_id === undefined || p.external_id === null || p.external_id === '' ? null : p.external_id;
  return {
    ok: true,
    value: {
      external_id: externalId,
      fields: {
        name: fields.name ?? '',
        recipient: fields.recipient ?? '',
        phone: fields.phone ?? '',
        address: fields.address!,
        lat_e6: lat,
        lon_e6: lon,
        time_window_start: fields.time_window_start ?? null,
        time_window_end: fields.time_window_end ?? null,
        weight_g: fields.weight_g ?? 0,
        volume_l: fields.volume_l ?? 0,
        service_time: fields.service_time ?? 10,
        notes: fields.notes ?? '',
        order_type: fields.order_type ?? 'one_time',
        delivery_date: fields.delivery_date ?? today,
      },
    },
  };
}

export type PatchInput = { body: 'empty' } | { body: 'changes'; changes: Partial<OrderFields> };

/**
 * Validates a PATCH body on its own (the checks against stored values come later, in the
 * service): not an object or empty -> detail; read-only, unknown or invalid fields -> field errors.
 */
export function parseOrderPatch(body: unknown): Result<Partial<OrderFields>> | { ok: false; detail: string } {
  if (body === undefined || body === null || (isPlainObject(body) && Object.keys(body).length === 0)) {
    return { ok: false, detail: 'No mutable fields were supplied.' };
  }
  if (!isPlainObject(body)) {
    return { ok: false, detail: `Invalid data. Expected a JSON object, but got ${describeJsonType(body)}.` };
  }
  const errors: FieldErrors = {};
  const rest: Record<string, unknown> = { ...body };
  for (const key of READ_ONLY_ON_PATCH) {
    if (Object.hasOwn(rest, key)) {
      errors[key] = [MESSAGES.readOnly];
      delete rest[key];
    }
  }
  const parsed = orderPatchSchema.safeParse(rest);
  if (!parsed.success) collect(parsed.error.issues, errors);
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, value: toFields(parsed.data) };
}

/** The order as the API shows it (contract 2.1): the document's `Order`, and serializeOrder's type. */
export const orderSchema = z
  .strictObject({
    id: z.int(),
    external_id: z.string().nullable().describe("the client's document number"),
    name: z.string(),
    recipient: z.string(),
    phone: z.string(),
    address: z.string(),
    lat: decimalString(6, 'latitude').nullable(),
    lon: decimalString(6, 'longitude').nullable(),
    time_window_start: localTime.nullable(),
    time_window_end: localTime.nullable(),
    weight: decimalString(3, 'kg'),
    volume: decimalString(3, 'cubic metres'),
    service_time: z.int().min(0).max(LIMITS.service_time_max).describe('minutes at the stop'),
    notes: z.string(),
    order_type: z.enum(ORDER_TYPES),
    status: z.enum(ORDER_STATUSES),
    delivery_date: wireDate,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Order', description: 'An order (contract 2.1); lat and lon are null until geocoding has found the address' });

export const orderPageSchema = pageSchema(orderSchema, 'orders');

/** One item's outcome in a bulk upload (contract 4.2). */
export const bulkItemResultSchema = z
  .strictObject({
    index: z.int().min(0).describe('position in the request array'),
    external_id: z.string().nullable().describe('echo'),
    status: z.enum(['created', 'exists', 'error']),
    id: z.int().nullable().describe('null on error'),
    errors: z.union([fieldErrorsSchema, z.strictObject({}), z.null()]).describe('null unless status is error'),
  })
  .meta({ id: 'BulkItemResult' });

export const bulkResultSchema = z.strictObject({
  results: z.array(bulkItemResultSchema),
  summary: z.strictObject({ created: z.int().min(0), existing: z.int().min(0), failed: z.int().min(0) }),
});

export type BulkResultView = z.output<typeof bulkResultSchema>;

/** An order's status history, oldest first (contract 2.6). */
export const orderHistorySchema = z
  .strictObject({
    order_id: z.int(),
    external_id: z.string().nullable(),
    current_status: z.enum(ORDER_STATUSES),
    events: z.array(
      z.strictObject({
        status: z.enum(ORDER_STATUSES),
        previous_status: z.enum(ORDER_STATUSES).nullable().describe('null for the first entry'),
        at: timestamp,
      }),
    ),
  })
  .describe('Status history, oldest first (contract 2.6)');

export type OrderHistoryView = z.output<typeof orderHistorySchema>;

export type OrderView = z.output<typeof orderSchema>;

/** The order as the API shows it. */
export function serializeOrder(o: Order): OrderView {
  return {
    id: o.id,
    external_id: o.external_id,
    name: o.name,
    recipient: o.recipient,
    phone: o.phone,
    address: o.address,
    lat: o.lat_e6 === null ? null : formatScaled(o.lat_e6, 6),
    lon: o.lon_e6 === null ? null : formatScaled(o.lon_e6, 6),
    time_window_start: o.time_window_start,
    time_window_end: o.time_window_end,
    weight: formatScaled(o.weight_g, 3),
    volume: formatScaled(o.volume_l, 3),
    service_time: o.service_time,
    notes: o.notes,
    order_type: o.order_type,
    status: o.status,
    delivery_date: o.delivery_date,
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}
