/**
 * `localDate` (src/service/time.ts) keeps one formatter per time zone (issue 38: building one per
 * call cost 0.1-0.4 ms of every order created): the dates stay right across zones and calls.
 */
import { describe, expect, it } from 'vitest';
import { localDate } from '../../src/service/time.js';

describe('localDate', () => {
  it('gives each zone its own date, the same on every call, and refuses an unknown zone', () => {
    const late = new Date('2026-11-28T23:30:00Z');
    for (let i = 0; i < 3; i++) {
      expect(localDate(late, 'Europe/Berlin')).toBe('2026-11-29');
      expect(localDate(late, 'UTC')).toBe('2026-11-28');
      expect(localDate(late, 'America/New_York')).toBe('2026-11-28');
      expect(localDate(new Date('2026-03-29T22:30:00Z'), 'Europe/Berlin')).toBe('2026-03-30'); // after the spring change
      expect(localDate(new Date('2026-03-28T22:30:00Z'), 'Europe/Berlin')).toBe('2026-03-28');
      expect(localDate(new Date('2026-06-30T12:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-07-01');
    }
    expect(() => localDate(late, 'Nowhere/Special')).toThrow(RangeError);
    expect(localDate(late, 'europe/berlin')).toBe('2026-11-29');
  });
});
