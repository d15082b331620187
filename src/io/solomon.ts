/**
 * Reader for Solomon and Gehring-Homberger VRPTW text files (CRLF or LF, any whitespace).
 *
 * Customer 0 is the depot, its due date ends every vehicle's shift; customers keep their numbers
 * as order ids; demand is the weight (volume is zero); travel time equals distance. A malformed
 * file fails with `file:line: expected ...`.
 */
import type { ProblemInput } from '../model/input.js';

export class FormatError extends Error {
  override name = 'FormatError';
}

export interface SolomonOptions {
  /** Named in error messages. */
  file?: string;
  rounding?: 'none' | 'trunc1';
}

export function parseSolomon(text: string, options: SolomonOptions = {}): ProblemInput {
  const file = options.file ?? '<input>';
  const lines = text.split(/\r?\n|\r/);
  let i = 0;
  const fail = (line: number, what: string, got?: string): never => {
    const shown = got === undefined ? 'end of file' : `'${got.trim().slice(0, 60)}'`;
    throw new FormatError(`${file}:${line + 1}: expected ${what}, found ${shown}`);
  };
  const nextNonEmpty = (what: string): { idx: number; text: string } => {
    while (i < lines.length && lines[i].trim() === '') i++;
    if (i >= lines.length) fail(i - 1, what);
    const r = { idx: i, text: lines[i] };
    i++;
    return r;
  };
  const fields = (s: string) => s.trim().split(/\s+/);
  const numbers = (l: { idx: number; text: string }, count: number, what: string): number[] => {
    const f = fields(l.text);
    const xs = f.map(Number);
    if (f.length !== count || xs.some((x) => !Number.isFinite(x))) fail(l.idx, what, l.text);
    return xs;
  };

  const name = nextNonEmpty('the instance name').text.trim();
  const vehicle = nextNonEmpty("'VEHICLE'");
  if (vehicle.text.trim().toUpperCase() !== 'VEHICLE') fail(vehicle.idx, "'VEHICLE'", vehicle.text);
  const header = nextNonEmpty("the header 'NUMBER CAPACITY'");
  if (!/^NUMBER\s+CAPACITY$/i.test(header.text.trim())) fail(header.idx, "the header 'NUMBER CAPACITY'", header.text);
  const vc = nextNonEmpty('two numbers: vehicle count and capacity');
  const [count, capacity] = numbers(vc, 2, 'two numbers: vehicle count and capacity');
  if (!Number.isInteger(count) || count < 0) fail(vc.idx, 'a non-negative integer vehicle count', vc.text);
  if (capacity < 0) fail(vc.idx, 'a non-negative capacity', vc.text);
  const cust = nextNonEmpty("'CUSTOMER'");
  if (cust.text.trim().toUpperCase() !== 'CUSTOMER') fail(cust.idx, "'CUSTOMER'", cust.text);
  const ch = nextNonEmpty('the customer table header');
  if (!/^CUST/i.test(ch.text.trim())) fail(ch.idx, "the customer table header 'CUST NO. XCOORD. ...'", ch.text);

  const rowWhat = '7 numbers: CUST NO. XCOORD. YCOORD. DEMAND READY TIME DUE DATE SERVICE TIME';
  const rows: number[][] = [];
  const rowLine: number[] = [];
  for (; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const r = numbers({ idx: i, text: lines[i] }, 7, rowWhat);
    if (r[4] > r[5]) fail(i, 'READY TIME <= DUE DATE', lines[i]);
    if (r[3] < 0 || r[6] < 0) fail(i, 'non-negative DEMAND and SERVICE TIME', lines[i]);
    rows.push(r);
    rowLine.push(i);
  }
  if (rows.length === 0) fail(lines.length - 1, 'the depot row (customer 0)');
  if (rows[0][0] !== 0) fail(rowLine[0], 'the depot row with customer number 0 first', lines[rowLine[0]]);
  const seen = new Set<number>();
  rows.forEach((r, k) => {
    if (seen.has(r[0])) fail(rowLine[k], `a unique customer number (${r[0]} repeats)`, lines[rowLine[k]]);
    seen.add(r[0]);
  });

  const depot = rows[0];
  const shift: [number, number] = [depot[4], depot[5]];
  return {
    name,
    matrix: { kind: 'euclidean', coordinates: rows.map((r) => [r[1], r[2]] as [number, number]), rounding: options.rounding ?? 'none' },
    depots: [{ id: 'depot', location: 0 }],
    vehicles: Array.from({ length: count }, (_, k) => ({
      id: `v${k + 1}`,
      capacity: { weight: capacity, volume: 0 },
      shift,
      startDepot: 'depot',
      endDepot: 'depot',
    })),
    orders: rows.slice(1).map((r, k) => ({
      id: String(r[0]),
      location: k + 1,
      weight: r[3],
      volume: 0,
      serviceTime: r[6],
      timeWindow: [r[4], r[5]] as [number, number],
    })),
  };
}
