import { describe, expect, it } from 'vitest';
import { DayAxis, parseClock, parseShift, wallToUtcMs } from '../../src/jobs/time.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('company time zones on the engine axis', () => {
  it('UTC is the identity', () => {
    const axis = new DayAxis('UTC', '2026-06-01');
    expect(iso(axis.midnightMs)).toBe('2026-06-01T00:00:00.000Z');
    expect(axis.toAxis(9 * 3600)).toBe(9 * 3600);
    expect(axis.toUtc(9 * 3600 + 30)).toBe('2026-06-01T09:00:30Z');
  });

  it('an ordinary summer day in Berlin is shifted by two hours', () => {
    const axis = new DayAxis('Europe/Berlin', '2026-07-15');
    expect(iso(axis.midnightMs)).toBe('2026-07-14T22:00:00.000Z');
    expect(axis.toAxis(parseClock('09:00:00'))).toBe(9 * 3600);
    expect(axis.toUtc(9 * 3600)).toBe('2026-07-15T07:00:00Z');
  });

  it('on the spring-forward day 09:00 local is only 8 real hours after midnight', () => {
    const axis = new DayAxis('Europe/Berlin', '2026-03-29');
    expect(iso(axis.midnightMs)).toBe('2026-03-28T23:00:00.000Z');
    expect(axis.toAxis(parseClock('09:00:00'))).toBe(8 * 3600);
    expect(axis.toUtc(8 * 3600)).toBe('2026-03-29T07:00:00Z');
    // 01:30 local is before the switch, 03:30 after it
    expect(axis.toUtc(axis.toAxis(parseClock('01:30:00')))).toBe('2026-03-29T00:30:00Z');
    expect(axis.toUtc(axis.toAxis(parseClock('03:30:00')))).toBe('2026-03-29T01:30:00Z');
  });

  it('a wall time inside the spring-forward gap moves forward by the gap', () => {
    expect(iso(wallToUtcMs('Europe/Berlin', '2026-03-29', parseClock('02:30:00')))).toBe('2026-03-29T01:30:00.000Z');
  });

  it('on the fall-back day 09:00 local is 10 real hours after midnight', () => {
    const axis = new DayAxis('Europe/Berlin', '2026-10-25');
    expect(iso(axis.midnightMs)).toBe('2026-10-24T22:00:00.000Z');
    expect(axis.toAxis(parseClock('09:00:00'))).toBe(10 * 3600);
    expect(axis.toUtc(10 * 3600)).toBe('2026-10-25T08:00:00Z');
    // the repeated hour takes its first occurrence
    expect(iso(wallToUtcMs('Europe/Berlin', '2026-10-25', parseClock('02:30:00')))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('west of Greenwich and across the date line', () => {
    const ny = new DayAxis('America/New_York', '2026-03-08');
    expect(iso(ny.midnightMs)).toBe('2026-03-08T05:00:00.000Z');
    expect(ny.toUtc(ny.toAxis(parseClock('17:00:00')))).toBe('2026-03-08T21:00:00Z');
    const auckland = new DayAxis('Pacific/Auckland', '2026-01-10');
    expect(auckland.toUtc(auckland.toAxis(parseClock('08:00:00')))).toBe('2026-01-09T19:00:00Z');
  });

  it('the end of the day (24:00) is the next local midnight', () => {
    const axis = new DayAxis('Europe/Berlin', '2026-03-29');
    expect(axis.toAxis(86_400)).toBe(23 * 3600);
  });

  it('parses clocks and shifts', () => {
    expect(parseClock('08:30')).toBe(30_600);
    expect(parseClock('23:59:59')).toBe(86_399);
    expect(() => parseClock('25:00')).toThrow();
    expect(() => parseClock('9:00')).toThrow();
    expect(parseShift('08:00-17:00')).toEqual([28_800, 61_200]);
    expect(parseShift('22:00-06:00')).toEqual([79_200, 86_400 + 21_600]);
    expect(parseShift(null)).toEqual([0, 86_400]);
  });
});
