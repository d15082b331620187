/**
 * The body of POST /planning/jobs/ (contract 4.6), defined once: the zod schema below validates
 * the request, is the type the job service takes, and is the document's `PlanningJobRequest`
 * (src/http/openapi-schemas.ts). `parsePlanningRequest` turns its issues into the contract's
 * field messages, one per field: `{detail, <field>: [message]}`. The job as the API shows it
 * (contract 2.2) is `planningJobSchema`, the type of src/jobs/view.ts's toJobView.
 */
import { z } from 'zod';
import type { UnassignedReason } from '../model/input.js';
import { describeJsonType, MESSAGES } from './order.js';
import { timestamp } from './wire.js';
import type { FieldErrors } from './order.js';

/** Longest id list accepted in one field (far above the 500-order limit; keeps queries bounded). */
export const MAX_LIST = 10_000;

export const PLANNING_MESSAGES = {
  body: (got: string) => `Invalid data. Expected a JSON object with order_ids and/or external_ids, but got ${got}.`,
  unknown: 'Unknown field.',
  integerList: 'Expected a list of integers.',
  stringList: 'Expected a list of strings.',
  integer: 'A valid integer is required.',
  tooLong: `Ensure this list has no more than ${MAX_LIST} items.`,
  externalIdLength: 'Ensure every external_id has no more than 128 characters.',
  unavailable: 'Planning is not available on this server.',
} as const;

const ids = () => z.array(z.int()).max(MAX_LIST).nullable().optional();

export const planningRequestSchema = z
  .strictObject({
    order_ids: ids(),
    external_ids: z
      .array(
        z
          .string()
          .max(128)
          .refine((s) => !s.includes('\u0000')),
      )
      .max(MAX_LIST)
      .nullable()
      .optional(),
    vehicle_ids: ids().describe('exactly one pins the route to it; two or more are ignored'),
    warehouse_id: z.int().nullable().optional().describe('departure warehouse; without it each vehicle uses its own'),
  })
  .describe('At least one of order_ids and external_ids (their union is planned; at most 500 orders). null is the same as a field not sent.');

/** A planning request as the job service takes it (null is the same as a field not sent). */
export type PlanningRequest = z.output<typeof planningRequestSchema>;

type ListField = 'order_ids' | 'external_ids' | 'vehicle_ids';
const LISTS: Record<ListField, 'integer' | 'string'> = { order_ids: 'integer', external_ids: 'string', vehicle_ids: 'integer' };

/**
 * Validates a body: `{ok: true, value}` with the fields sent and not null, or the contract's
 * answer: `detail` alone for a body that is not an object, else `detail` summing up every field's
 * message and the field messages themselves (unknown fields first, then the fields in order).
 */
export function parsePlanningRequest(body: unknown): { ok: true; value: PlanningRequest } | { ok: false; detail: string; errors?: FieldErrors } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, detail: PLANNING_MESSAGES.body(body === undefined ? 'an empty body' : describeJsonType(body)) };
  }
  const input = body as Record<string, unknown>;
  const parsed = planningRequestSchema.safeParse(input);
  if (parsed.success) {
    const value: PlanningRequest = {};
    for (const [key, v] of Object.entries(parsed.data)) if (v !== null && v !== undefined) Object.assign(value, { [key]: v });
    return { ok: true, value };
  }
  const errors: FieldErrors = {};
  const issues = parsed.error.issues;
  for (const issue of issues) if (issue.code === 'unrecognized_keys') for (const key of issue.keys) errors[key] = [PLANNING_MESSAGES.unknown];
  const at = (field: string) => issues.filter((i) => i.code !== 'unrecognized_keys' && i.path[0] === field);
  for (const [field, kind] of Object.entries(LISTS) as Array<[ListField, 'integer' | 'string']>) {
    const message = listMessage(kind, input[field], at(field));
    if (message !== undefined) errors[field] = [message];
  }
  if (at('warehouse_id').length > 0) errors.warehouse_id = [`${PLANNING_MESSAGES.integer} Got ${describeItem(input.warehouse_id)}.`];
  const fields = Object.keys(errors);
  return { ok: false, detail: `Invalid planning request: ${fields.map((f) => `${f}: ${errors[f]!.join(' ')}`).join('; ')}`, errors };
}

/**
 * The one message of a list field, from the schema's issues: not a list, then too long, then the
 * first item of the wrong type; of strings, then one too long, then one holding U+0000.
 */
function listMessage(kind: 'integer' | 'string', value: unknown, issues: readonly z.core.$ZodIssue[]): string | undefined {
  if (issues.length === 0) return undefined;
  const expected = kind === 'integer' ? PLANNING_MESSAGES.integerList : PLANNING_MESSAGES.stringList;
  if (!Array.isArray(value)) return `${expected} Got ${describeJsonType(value)}.`;
  if (issues.some((i) => i.path.length === 1)) return PLANNING_MESSAGES.tooLong;
  const items = issues.filter((i) => kind === 'integer' || i.code === 'invalid_type');
  if (items.length > 0) {
    const index = Math.min(...items.map((i) => Number(i.path[1])));
    return `${expected} Item ${index} is ${describeItem(value[index])}.`;
  }
  if (issues.some((i) => i.code === 'too_big')) return PLANNING_MESSAGES.externalIdLength;
  return MESSAGES.nullCharacters;
}

function describeItem(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number') return `the number ${value}`;
  return describeJsonType(value);
}

const REASONS = ['capacity', 'time_window', 'max_distance', 'max_duration', 'max_orders', 'requirements', 'no_vehicle', 'unroutable'] as const satisfies readonly UnassignedReason[];
const count = () => z.int().min(0);

export const planningJobResultSchema = z
  .strictObject({
    route_ids: z.array(z.int()),
    summary: z.strictObject({ route_count: count(), unassigned_count: count() }),
    unassigned: z.array(z.strictObject({ order_id: z.int(), reason: z.enum(REASONS) })),
  })
  .meta({ id: 'PlanningJobResult', description: 'The result of a job in status done' });

export const planningJobSchema = z
  .strictObject({
    job_id: z.int(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    input: z
      .strictObject({ order_ids: z.array(z.int()), vehicle_ids: z.array(z.int()), warehouse_id: z.int().nullable() })
      .describe('The effective input: resolved order ids'),
    result: z.union([planningJobResultSchema, z.strictObject({})]).describe('`{}` until done and on failure'),
    error: z.string().describe('a human-readable sentence on failure, else ""; not a code'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .describe('A planning job (contract 2.2)');
