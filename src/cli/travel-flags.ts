/**
 * The road-model flags (docs/contract/operations.md "Road matrices"): `serve`/`worker --speed-kmh N
 * --detour-factor F`, `admin company create|update --speed-factor F`. Each is checked here once,
 * so that every command refuses the same values with the same line (UsageError: exit 2).
 */
import { UsageError } from './usage-error.js';

/** Bounds a careful operator would not leave: walking pace to motorway, straight to thrice around. */
export const SPEED_KMH_RANGE = [5, 150] as const;
export const DETOUR_FACTOR_RANGE = [1, 3] as const;
export const SPEED_FACTOR_RANGE = [0.2, 5] as const;

function decimal(flag: string, value: string, [min, max]: readonly [number, number], what: string): number {
  // the length first: the pattern is linear, but nothing longer than "999999.999999" is a number here
  const n = value.length <= 32 && /^\s*\d{1,6}(?:\.\d{1,6})?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new UsageError(`--${flag}: expected ${what} between ${min} and ${max}, got '${value.slice(0, 40)}'`);
  if (n < min || n > max) throw new UsageError(`--${flag}: expected ${what} between ${min} and ${max}, got ${n}`);
  return n;
}

export function parseSpeedKmh(value: string): number {
  return decimal('speed-kmh', value, SPEED_KMH_RANGE, 'a speed in km/h');
}

export function parseDetourFactor(value: string): number {
  return decimal('detour-factor', value, DETOUR_FACTOR_RANGE, 'a factor');
}

export function parseSpeedFactor(value: string): number {
  return decimal('speed-factor', value, SPEED_FACTOR_RANGE, 'a factor');
}

/** `--speed-kmh` and `--detour-factor` as given (either may be absent). */
export function parseRoadModel(v: { 'speed-kmh'?: string; 'detour-factor'?: string }): { speedKmh?: number; detourFactor?: number } {
  return {
    ...(v['speed-kmh'] === undefined ? {} : { speedKmh: parseSpeedKmh(v['speed-kmh']) }),
    ...(v['detour-factor'] === undefined ? {} : { detourFactor: parseDetourFactor(v['detour-factor']) }),
  };
}
