/**
 * `admin company speed-report`: how fast a company's drivers really were, against the travel
 * times the planner assumes, from the actual arrivals the dispatch API records.
 *
 * A hop is two consecutive stops of a completed route: it left the first at the first's
 * actual_departure_at (the route's actual_start_at for its start depot) and reached the second at
 * the second's actual_arrival_at (stop statuses in_progress, visited, confirmed or rejected set it;
 * skipped stops have none, so hops to and from them are left out). Its planned travel time is the
 * road model's time for the stops' coordinates (the default travel curve, or `--speed-kmh`) at the
 * company's current speed factor: the plan's own times hold waiting for time windows and cannot
 * tell it from driving.
 *
 * The fitted factor is the one to set as the company's speed factor: the sum of the actual times
 * over the sum of the model's base times (factor 1), over the hops whose ratio lies within a factor
 * of 3 of the median (a lunch break on the road or a stop confirmed hours late would otherwise
 * weigh like a whole day). Per distance band the same figures show where the model is off.
 */
import turfDistance from '@turf/distance';
import { travelSeconds } from '../model/travel-time.js';
import type { Repositories } from '../store/port.js';
import type { RouteRow, StopRow } from '../store/types.js';

/** Road-length bands of the report, in km (the calibration's bands, bench/travel-curve.ts). */
export const SPEED_BANDS_KM = [0, 1, 2, 5, 10, 20, 50] as const;

/** Completed routes read at most (newest first): the report stays bounded on a long history. */
export const MAX_REPORT_ROUTES = 5_000;

/** Hops shorter than this many seconds of modelled driving say nothing about speed. */
const MIN_MODEL_SEC = 20;

export interface SpeedModel {
  /** A fixed speed (the server's `--speed-kmh`); undefined: the default travel curve. */
  speedKmh?: number;
  /** The server's `--detour-factor` (default 1.3). */
  detourFactor?: number;
}

export interface Hop {
  km: number;
  /** Modelled seconds at factor 1. */
  baseSec: number;
  actualSec: number;
}

export interface SpeedBand {
  from_km: number;
  to_km: number | null;
  hops: number;
  planned_min: number;
  actual_min: number;
  factor: number | null;
}

export interface SpeedReport {
  company_id: number;
  days: number;
  hops: number;
  /** The speed factor that fits the hops (null without any); set it with `--apply`. */
  factor: number | null;
  current_factor: number;
  applied: boolean;
  bands: SpeedBand[];
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The hops of one route with both ends timed (stops in position order). */
export function routeHops(route: RouteRow, stops: StopRow[], model: SpeedModel = {}): Hop[] {
  const hops: Hop[] = [];
  for (let k = 1; k < stops.length; k++) {
    const from = stops[k - 1]!;
    const to = stops[k]!;
    if (from.status === 'skipped' || to.status === 'skipped') continue;
    const left = from.actual_departure_at ?? (k === 1 ? route.actual_start_at : null);
    const reached = to.actual_arrival_at;
    if (left === null || reached === null) continue;
    const actualSec = (Date.parse(reached) - Date.parse(left)) / 1000;
    if (!Number.isFinite(actualSec) || actualSec <= 0) continue;
    const metres = turfDistance([from.lon, from.lat], [to.lon, to.lat], { units: 'meters' }) * (model.detourFactor ?? 1.3);
    const baseSec = travelSeconds(metres, model.speedKmh);
    if (baseSec < MIN_MODEL_SEC) continue;
    hops.push({ km: metres / 1000, baseSec, actualSec });
  }
  return hops;
}

/** The hops within a factor of 3 of the median ratio (actual / modelled). */
function trimmed(hops: Hop[]): Hop[] {
  if (hops.length === 0) return hops;
  const ratios = hops.map((h) => h.actualSec / h.baseSec).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  return hops.filter((h) => {
    const r = h.actualSec / h.baseSec;
    return r >= median / 3 && r <= median * 3;
  });
}

/** The report over `hops`, for a company whose current speed factor is `currentFactor`. */
export function speedReport(companyId: number, days: number, currentFactor: number, all: Hop[]): SpeedReport {
  const hops = trimmed(all);
  const fit = (hs: Hop[]) => {
    const base = hs.reduce((s, h) => s + h.baseSec, 0);
    return base > 0 ? hs.reduce((s, h) => s + h.actualSec, 0) / base : null;
  };
  const factor = fit(hops);
  const bands: SpeedBand[] = [];
  for (let b = 0; b < SPEED_BANDS_KM.length; b++) {
    const lo = SPEED_BANDS_KM[b]!;
    const hi = SPEED_BANDS_KM[b + 1];
    const inBand = hops.filter((h) => h.km >= lo && (hi === undefined || h.km < hi));
    if (inBand.length === 0) continue;
    const f = fit(inBand);
    bands.push({
      from_km: lo,
      to_km: hi ?? null,
      hops: inBand.length,
      planned_min: round((inBand.reduce((s, h) => s + h.baseSec, 0) * currentFactor) / 60, 1),
      actual_min: round(inBand.reduce((s, h) => s + h.actualSec, 0) / 60, 1),
      factor: f === null ? null : round(f, 3),
    });
  }
  return { company_id: companyId, days, hops: hops.length, factor: factor === null ? null : round(factor, 3), current_factor: currentFactor, applied: false, bands };
}

/** UTC date `days` before `now` (YYYY-MM-DD): routes of that date and later count. */
export function sinceDate(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Reads the company's completed routes of the last `days` days (at most MAX_REPORT_ROUTES, newest
 * first) and fits the report; with `apply` (and at least one hop) sets the company's factor.
 */
export async function companySpeedReport(
  store: Repositories,
  company: { id: number; speed_factor: number },
  options: { days: number; apply: boolean; now: Date; model?: SpeedModel },
): Promise<SpeedReport> {
  const since = sinceDate(options.now, options.days);
  const hops: Hop[] = [];
  const page = 500;
  for (let offset = 0; offset < MAX_REPORT_ROUTES; offset += page) {
    const { rows } = await store.routes.list(company.id, { status: 'completed', limit: page, offset });
    for (const route of rows) {
      if (route.date < since) continue;
      hops.push(...routeHops(route, await store.routes.stops(route.id), options.model));
    }
    if (rows.length < page) break;
  }
  const report = speedReport(company.id, options.days, company.speed_factor, hops);
  if (options.apply && report.factor !== null) {
    await store.companies.update(company.id, { speed_factor: report.factor });
    report.applied = true;
  }
  return report;
}
