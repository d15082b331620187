/**
 * Local wall-clock times of a company's time zone <-> the engine's time axis, DST-correct.
 *
 * The engine plans one delivery date at a time on an axis of REAL seconds since the instant of
 * local midnight of that date (not wall-clock seconds): travel times are physical durations, so on
 * a day that gains or loses an hour, 09:00 local is 8 or 10 hours after midnight and the axis says
 * so. Converting back adds axis seconds to the midnight instant. Only Intl is used (no tz data of
 * our own). A wall time that does not exist (inside a spring-forward gap) moves forward by the
 * gap, as clocks do; an ambiguous one (fall-back) takes its first occurrence.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the IANA zone. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds to add to a UTC instant to get the zone's wall clock (read as UTC). */
export function zoneOffsetMs(timeZone: string, utcMs: number): number {
  const whole = Math.floor(utcMs / 1000) * 1000;
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(whole))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - whole;
}

/** The UTC instant (ms) of `date` (YYYY-MM-DD) at `seconds` past local midnight on the wall clock
 *  (86400 and more run into the next days). */
export function wallToUtcMs(timeZone: string, date: string, seconds: number): number {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d) + seconds * 1000;
  // The offsets in force around this wall time (zones never switch twice within 6 hours): a
  // reading that maps back to the same wall time is valid; the earliest valid one is the first
  // occurrence. None is valid inside a gap, where the later reading is the forward shift.
  const offsets = new Set([-6, 0, 6].map((h) => zoneOffsetMs(timeZone, wall + h * 3_600_000)));
  const readings = [...offsets].map((o) => wall - o);
  const valid = readings.filter((t) => t + zoneOffsetMs(timeZone, t) === wall);
  return valid.length > 0 ? Math.min(...valid) : Math.max(...readings);
}

/** 'HH:MM' or 'HH:MM:SS' -> seconds past midnight; throws on anything else. '24:00' is allowed. */
export function parseClock(text: string): number {
  const m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) throw new Error(`not a time of day: ${JSON.stringify(text)}`);
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 24 || min > 59 || s > 59 || (h === 24 && (min > 0 || s > 0))) throw new Error(`not a time of day: ${JSON.stringify(text)}`);
  return h * 3600 + min * 60 + s;
}

/** 'HH:MM-HH:MM' -> [start, end] wall seconds; an end not after the start is on the next day;
 *  null is the whole day. */
export function parseShift(shift: string | null): [number, number] {
  if (shift === null) return [0, 86_400];
  const parts = shift.split('-');
  if (parts.length !== 2) throw new Error(`not a shift: ${JSON.stringify(shift)}`);
  const start = parseClock(parts[0].trim());
  let end = parseClock(parts[1].trim());
  if (end <= start) end += 86_400;
  return [start, end];
}

/** One delivery date of one zone: wall clock <-> engine axis <-> UTC timestamps. */
export class DayAxis {
  /** UTC ms of local midnight. */
  readonly midnightMs: number;

  constructor(readonly timeZone: string, readonly date: string) {
    this.midnightMs = wallToUtcMs(timeZone, date, 0);
  }

  /** Wall-clock seconds past local midnight -> real seconds since the midnight instant. */
  toAxis(wallSeconds: number): number {
    return (wallToUtcMs(this.timeZone, this.date, wallSeconds) - this.midnightMs) / 1000;
  }

  /** Axis seconds -> ISO 8601 UTC with Z (whole seconds). */
  toUtc(axisSeconds: number): string {
    return new Date(this.midnightMs + Math.round(axisSeconds) * 1000).toISOString().replace('.000Z', 'Z');
  }
}
