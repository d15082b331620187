import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseSolomon, FormatError } from '../../src/io/solomon.js';
import { buildMatrix } from '../../src/model/matrix.js';

const good = [
  'TINY',
  '',
  'VEHICLE',
  'NUMBER     CAPACITY',
  '  2         50',
  '',
  'CUSTOMER',
  'CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME',
  '',
  '    0      0         0          0          0       100          0',
  '    1      3         4         10          0        50         5',
  '    7      6\t8   20  10 60  5   ',
].join('\r\n');

function fails(text: string, pattern: RegExp): void {
  expect(() => parseSolomon(text, { file: 'x.txt' })).toThrow(FormatError);
  expect(() => parseSolomon(text, { file: 'x.txt' })).toThrow(pattern);
}

describe('Solomon reader', () => {
  it('reads CRLF files with variable whitespace', () => {
    const p = parseSolomon(good, { file: 'tiny.txt' });
    expect(p.name).toBe('TINY');
    expect(p.vehicles).toHaveLength(2);
    expect(p.vehicles[0].capacity.weight).toBe(50);
    expect(p.vehicles[0].shift).toEqual([0, 100]);
    expect(p.orders.map((o) => o.id)).toEqual(['1', '7']);
    expect(p.orders[1]).toMatchObject({ weight: 20, serviceTime: 5, timeWindow: [10, 60], location: 2 });
  });

  it('reads LF files the same way', () => {
    expect(parseSolomon(good.replace(/\r\n/g, '\n'))).toEqual(parseSolomon(good));
  });

  it('applies trunc1 rounding to every arc', () => {
    const m = buildMatrix(parseSolomon(good, { rounding: 'trunc1' }).matrix);
    // (3,4)-(6,8) = 5 exactly, (0,0)-(6,8) = 10, (0,0)-(3,4) = 5
    expect(m.distance[1 * 3 + 2]).toBe(5);
    const skew = parseSolomon(good.replace('    7      6\t8', '    7      1\t1'), { rounding: 'trunc1' });
    const m2 = buildMatrix(skew.matrix);
    expect(m2.distance[0 * 3 + 2]).toBe(1.4); // sqrt 2 = 1.414..
    expect(buildMatrix(parseSolomon(good.replace('    7      6\t8', '    7      1\t1')).matrix).distance[2]).toBeCloseTo(Math.SQRT2, 12);
  });

  it('reads every shipped Solomon file', () => {
    for (const n of ['C101', 'R211', 'RC105']) {
      const p = parseSolomon(readFileSync(`data/solomon/${n}.txt`, 'utf8'));
      expect(p.orders).toHaveLength(100);
    }
  });

  it('names file, line and expectation on malformed input', () => {
    fails(good.replace('VEHICLE', 'VEHICLES'), /^x\.txt:3: expected 'VEHICLE'/);
    fails(good.replace('  2         50', '  2'), /x\.txt:5: expected two numbers: vehicle count and capacity/);
    fails(good.replace('  2         50', '  two  50'), /x\.txt:5: expected two numbers/);
    fails(good.replace('    1      3         4         10', '    1      3         4'), /x\.txt:11: expected 7 numbers/);
    fails(good.replace('10          0        50', '10          70        50'), /x\.txt:11: expected READY TIME <= DUE DATE/);
    fails(good.replace('    7      6', '    1      6'), /x\.txt:12: expected a unique customer number/);
    fails(good.split('\r\n').slice(0, 6).join('\r\n'), /x\.txt:\d+: expected 'CUSTOMER', found end of file/);
    fails('', /expected the instance name/);
  });
});
