/** Hand-checked instances in data/tiny: the optimum and its schedule are worked out by hand. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import type { ProblemInput } from '../../src/model/input.js';
import { assertFeasible } from '../helpers/checker.js';

const load = (name: string) => JSON.parse(readFileSync(`data/tiny/${name}.json`, 'utf8')) as ProblemInput;

describe('tiny hand-checked instances', () => {
  it('line: visits in order, times follow service and travel', () => {
    const p = load('line');
    const r = solve(p, { iterations: 50 });
    assertFeasible(p, r);
    expect(r.distance).toBeCloseTo(6, 9);
    const stops = r.routes[0].stops;
    expect([stops.map((s) => s.orderId).join(''), [...stops].reverse().map((s) => s.orderId).join('')]).toContain('abc');
    expect(r.routes[0].duration).toBeCloseTo(9, 9); // 6 travel + 3 service
    expect(r.routes[0].load).toEqual({ weight: 3, volume: 3 });
  });

  it('windows: b before a, one vehicle, no needless waiting', () => {
    const p = load('windows');
    const r = solve(p, { iterations: 50 });
    assertFeasible(p, r);
    expect(r.vehicles).toBe(1);
    expect(r.distance).toBeCloseTo(20 + Math.sqrt(200), 9);
    const route = r.routes[0];
    expect(route.stops.map((s) => s.orderId)).toEqual(['b', 'a']);
    expect(route.start).toBeCloseTo(5, 9);
    expect(route.stops[0]).toMatchObject({ arrival: 15, start: 15, departure: 15 });
    expect(route.stops[1].arrival).toBeCloseTo(15 + Math.sqrt(200), 9);
    expect(route.stops[1].start).toBe(30);
    expect(route.end).toBeCloseTo(40, 9);
    expect(route.duration).toBeCloseTo(35, 9);
  });

  it('capacity: two orders per vehicle, north and south', () => {
    const p = load('capacity');
    const r = solve(p, { iterations: 50 });
    assertFeasible(p, r);
    expect(r.vehicles).toBe(2);
    expect(r.distance).toBeCloseTo(8, 9);
    const groups = r.routes.map((x) => x.stops.map((s) => s.orderId[0]).join('')).sort();
    expect(groups).toEqual(['nn', 'ss']);
    expect(r.routes.map((x) => x.stops[0].load.weight)).toEqual([6, 6]); // after the first drop
  });
});

describe('default budget', () => {
  it('returns without a time limit or an iteration budget', () => {
    const p = load('capacity');
    const r = solve(p);
    assertFeasible(p, r);
    expect(r.stats.iterations).toBe(1000);
  });
});
