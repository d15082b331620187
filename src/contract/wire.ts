/**
 * The value shapes the answers share (contract section 2), as zod schemas: timestamps, dates,
 * local times and decimal strings. Response shapes are built from them (order.ts, planning.ts),
 * and the document shows them as these schemas say (json-schema.ts).
 */
import { z } from 'zod';

/** ISO 8601 UTC with a trailing Z, with or without fractional seconds. */
export const timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
  .meta({ format: 'date-time', description: 'ISO 8601 UTC with a trailing Z' });

export const wireDate = z.string().meta({ format: 'date', description: 'YYYY-MM-DD' });

export const localTime = z
  .string()
  .regex(/^\d{2}:\d{2}:\d{2}$/)
  .describe('HH:MM:SS, local to the company timezone');

/** A decimal as a string with exactly `places` decimals (weights, volumes, coordinates, km). */
export const decimalString = (places: number, what: string) =>
  z
    .string()
    .regex(new RegExp(`^-?\\d+\\.\\d{${places}}$`))
    .describe(`${what}: a decimal string with ${places} decimals`);
