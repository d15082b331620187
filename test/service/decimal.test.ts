import { describe, expect, it } from 'vitest';
import { formatScaled, parseScaled } from '../../src/service/decimal.js';

describe('decimal fields', () => {
  it('parses numbers and strings exactly and rounds half away from zero', () => {
    expect(parseScaled(12.5, 3)).toBe(12500);
    expect(parseScaled('12.5', 3)).toBe(12500);
    expect(parseScaled('1.0005', 3)).toBe(1001);
    expect(parseScaled(1.0005, 3)).toBe(1001);
    expect(parseScaled('-1.0005', 3)).toBe(-1001);
    expect(parseScaled('55.7558412', 6)).toBe(55755841);
    expect(parseScaled(1e-7, 6)).toBe(0);
    expect(parseScaled('1e2', 3)).toBe(100000);
    expect(parseScaled('.5', 3)).toBe(500);
    expect(parseScaled('5.', 3)).toBe(5000);
    expect(parseScaled(' 7 ', 0)).toBe(7);
  });

  it('rejects what is not a finite decimal', () => {
    for (const bad of ['', 'abc', '1,5', 'NaN', 'Infinity', '--1', '1e', '.', '0x10', '1e999']) {
      expect(parseScaled(bad, 3), bad).toBeUndefined();
    }
    expect(parseScaled(Number.NaN, 3)).toBeUndefined();
    expect(parseScaled(1e300, 3)).toBeUndefined();
  });

  it('formats with the fixed number of decimals', () => {
    expect(formatScaled(12500, 3)).toBe('12.500');
    expect(formatScaled(0, 3)).toBe('0.000');
    expect(formatScaled(5, 3)).toBe('0.005');
    expect(formatScaled(-37617600, 6)).toBe('-37.617600');
    expect(formatScaled(55755841, 6)).toBe('55.755841');
  });
});
