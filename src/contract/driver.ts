/**
 * The bodies sent about a route on the road (dispatch API, docs/public-api.md section 4 and
 * docs/operations.md): a vehicle for a route, the route's start, a stop's status, and the
 * vehicle's positions. Each is defined once here: the handlers parse with it (parseDispatchBody,
 * the dispatch API's `{detail, <field>: [message]}`), and the OpenAPI document and the typed client
 * come from it. `at` and `timestamp` are checked here for their form; the rule that a position is
 * at most five minutes ahead of the server clock is the handler's (it needs the clock).
 */
import { z } from 'zod';
import { DISPATCH_BODY_MESSAGES, number, TIMESTAMP_IN } from './dispatch.js';

/** The statuses a driver's app may set on a stop. */
export const SETTABLE_STOP_STATUSES = ['in_progress', 'visited', 'confirmed', 'rejected', 'skipped'] as const;
export type SettableStopStatus = (typeof SETTABLE_STOP_STATUSES)[number];

/** The answer to a status outside SETTABLE_STOP_STATUSES (the value shown, cut at 64 characters). */
export const stopStatusChoice = (v: unknown) =>
  `"${typeof v === 'string' ? v.slice(0, 64) : JSON.stringify(v)}" is not a valid choice; one of ${SETTABLE_STOP_STATUSES.join(', ')}.`;

/** An ISO 8601 timestamp with a zone (spaces around it allowed) -> the UTC form with a trailing Z, or undefined. */
export function parseInstant(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 64 || !TIMESTAMP_IN.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** A timestamp with a zone, given in UTC with a trailing Z once parsed. */
const instant = z
  .string({ error: DISPATCH_BODY_MESSAGES.timestamp })
  .max(64, { message: DISPATCH_BODY_MESSAGES.timestamp })
  .transform((v, ctx) => parseInstant(v) ?? (ctx.addIssue({ code: 'custom', message: DISPATCH_BODY_MESSAGES.timestamp }), z.NEVER));

export const assignVehicleRequestSchema = z
  .strictObject({ vehicle_id: z.int({ error: DISPATCH_BODY_MESSAGES.integer }) })
  .meta({ id: 'AssignVehicleRequest', description: 'The vehicle that drives the route' });

export const startRouteRequestSchema = z
  .strictObject({ at: instant.nullable().optional().describe('ISO 8601 with a zone; default now') })
  .meta({ id: 'StartRouteRequest', description: 'Optional body' });

export const stopStatusRequestSchema = z
  .strictObject({
    status: z.enum(SETTABLE_STOP_STATUSES, { error: (issue) => stopStatusChoice(issue.input) }),
    at: instant.nullable().optional().describe('ISO 8601 with a zone; default now'),
  })
  .meta({ id: 'StopStatusRequest', description: "A stop's new status, as the driver's app reports it" });

/** At most this many positions in one request. */
export const MAX_POSITIONS = 1000;

export const positionInputSchema = z
  .strictObject({
    lat: number(-90, 90).describe('a number or a numeric string'),
    lon: number(-180, 180).describe('a number or a numeric string'),
    timestamp: instant.nullable().optional().describe('ISO 8601 with a zone, at most 5 minutes ahead of the server clock; default: when received'),
    speed_kmh: number(0, 1000).nullable().optional().describe('default 0'),
    heading_deg: number(0, 360).nullable().optional().describe('default 0'),
  })
  .meta({ id: 'PositionInput', description: 'Where the vehicle is' });

export const positionsRequestSchema = z
  .union([positionInputSchema, z.array(positionInputSchema).min(1).max(MAX_POSITIONS)])
  .meta({ id: 'PositionsRequest', description: `One position, or a list of 1 to ${MAX_POSITIONS}` });

export const positionsAcceptedSchema = z
  .strictObject({ vehicle_id: z.int(), accepted: z.int().min(1) })
  .meta({ id: 'PositionsAccepted', description: 'How many positions were stored' });
export type PositionsAccepted = z.output<typeof positionsAcceptedSchema>;
