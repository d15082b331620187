/**
 * The fleet as the dispatcher sees it on a date (dispatch API, `GET /api/internal/v1/vehicles/`;
 * docs/dispatcher.md): each vehicle of the company with its route on that date, so that a van can
 * be marked out of service from its route (`POST /vehicles/{id}/unavailable` takes the vehicle's
 * id, which the public route answer does not carry).
 */
import { z } from 'zod';
import { ROUTE_STATUSES } from '../store/types.js';
import { pageSchema, wireDate } from './wire.js';

export const fleetVehicleSchema = z
  .strictObject({
    id: z.int(),
    name: z.string(),
    warehouse_id: z.int(),
    active: z.boolean().describe('false: an inactive vehicle, never planned'),
    route_id: z.int().nullable().describe('its route on the date (planned or dispatcher-assigned, not cancelled), null without one'),
    route_status: z.enum(ROUTE_STATUSES).nullable().describe('that route\'s status, null without one'),
  })
  .meta({ id: 'FleetVehicle', description: 'A vehicle and its route on the date asked for' });

export const fleetPageSchema = pageSchema(fleetVehicleSchema, 'vehicles').extend({ date: wireDate }).describe('The company\'s vehicles by id, each with its route on `date`');

export type FleetVehicleView = z.output<typeof fleetVehicleSchema>;
export type FleetPageView = z.output<typeof fleetPageSchema>;
