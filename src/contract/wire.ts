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

/** The decimal strings of the contract, by their number of decimals (literal: no regex is built at run time). */
const DECIMALS = { 2: /^-?\d+\.\d{2}$/, 3: /^-?\d+\.\d{3}$/, 6: /^-?\d+\.\d{6}$/ } as const;

/** A decimal as a string with exactly `places` decimals (weights, volumes, coordinates, km). */
export const decimalString = (places: keyof typeof DECIMALS, what: string) =>
  z.string().regex(DECIMALS[places]).describe(`${what}: a decimal string with ${places} decimals`);

/** A page of a list (contract 2.7): `count`, `next`, `previous` and `results`, newest first. */
export const pageSchema = <T extends z.ZodType>(item: T, what: string) =>
  z
    .strictObject({
      count: z.int().min(0).describe('all matching items'),
      next: z.string().nullable().meta({ format: 'uri-reference', description: 'link to the next page (relative, or absolute from serve --public-url), null on the last' }),
      previous: z.string().nullable().meta({ format: 'uri-reference', description: 'link to the previous page (relative, or absolute from serve --public-url), null on the first' }),
      results: z.array(item),
    })
    .describe(`A page of ${what}, newest first`);

export type PageView<T> = { count: number; next: string | null; previous: string | null; results: T[] };
