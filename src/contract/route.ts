/**
 * Routes and their stops as the API shows them (contract 2.3, 2.4), defined once: the document's
 * RouteListItem, Stop, Route and StopStatusResult come from these schemas, and the serializers of
 * src/http/route-routes.ts return their types.
 */
import { z } from 'zod';
import { ROUTE_STATUSES, STOP_STATUSES } from '../store/types.js';
import { decimalString, pageSchema, timestamp, wireDate } from './wire.js';

const routeFields = {
  id: z.int(),
  name: z.string().describe('"YYYY-MM-DD <vehicle name>"'),
  status: z.enum(ROUTE_STATUSES),
  date: wireDate,
  has_vehicle: z.boolean().describe('true once a vehicle is assigned (dispatch API)'),
  planned_mileage_km: decimalString(2, 'km'),
  planned_duration_min: z.int().min(0),
  actual_start_at: timestamp.nullable(),
  actual_end_at: timestamp.nullable(),
  total_weight_kg: decimalString(3, 'kg'),
  total_volume_m3: decimalString(3, 'cubic metres'),
};

const stopFields = {
  id: z.int(),
  position: z.int().min(1).describe('order of the stop in the route, from 1'),
  stop_type: z.enum(['order', 'start_depot', 'mid_depot', 'end_depot']),
  status: z.enum(STOP_STATUSES),
  order_id: z.int().nullable().describe('null on depot stops'),
  order_external_id: z.string().nullable().describe("the order's external_id; null on depot stops"),
  address: z.string(),
  lat: decimalString(6, 'latitude'),
  lon: decimalString(6, 'longitude'),
  eta: timestamp.nullable().describe('equal to planned_arrival_at'),
  planned_arrival_at: timestamp.nullable().describe('planned start of service (inside the time window)'),
  planned_departure_at: timestamp.nullable(),
  actual_arrival_at: timestamp.nullable(),
  actual_departure_at: timestamp.nullable(),
};

export const routeListItemSchema = z.strictObject(routeFields).meta({ id: 'RouteListItem', description: 'A route as listed (contract 2.3)' });

export const routePageSchema = pageSchema(routeListItemSchema, 'routes');

export const stopSchema = z.strictObject(stopFields).meta({ id: 'Stop', description: 'A route stop (contract 2.4)' });

export const routeBreakSchema = z.strictObject({ start: timestamp, end: timestamp }).describe("a driver's planned break (operations.md, Breaks)");

export const routeSchema = z
  .strictObject({
    ...routeFields,
    stops: z.array(stopSchema),
    breaks: z.array(routeBreakSchema).describe("the driver's planned breaks (empty when the route's vehicle has none)"),
  })
  .describe('A route with its stops in order');

export const stopStatusResultSchema = z
  .strictObject({ ...stopFields, route_id: z.int(), route_status: z.enum(ROUTE_STATUSES) })
  .describe('The stop after the change, with its route');

export const trackingPositionSchema = z
  .strictObject({ lat: z.number(), lon: z.number(), timestamp, speed_kmh: z.number(), heading_deg: z.number() })
  .meta({ id: 'TrackingPosition' });

/** The tracking snapshot (contract 2.5): plain JSON numbers. */
export const trackingSchema = z
  .strictObject({
    route_id: z.int(),
    status: z.enum(ROUTE_STATUSES),
    progress: z
      .strictObject({ total: z.int().min(0), completed: z.int().min(0), remaining: z.int().min(0) })
      .describe('order stops only; completed = confirmed, rejected or skipped'),
    last_position: trackingPositionSchema.nullable().describe('null without an assigned vehicle or before it sent a position'),
  })
  .describe('Tracking snapshot (contract 2.5): plain JSON numbers');

export type TrackingView = z.output<typeof trackingSchema>;
export type RouteListItemView = z.output<typeof routeListItemSchema>;
export type StopView = z.output<typeof stopSchema>;
export type RouteView = z.output<typeof routeSchema>;
