/**
 * Breaks and a day in progress, end to end through `solve`: every solution passes the independent
 * checker (breaks inside their windows and of their length, fixed stops unchanged, starts and
 * `now` respected, no kept order dropped), on random instances (fast-check picks the instance,
 * the breaks and the cut time) and on hand-checked tiny ones in data/tiny.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import { solveParallel } from '../../src/pool/parallel.js';
import type { ProblemInput } from '../../src/model/input.js';
import { assertFeasible, checkSolution } from '../helpers/checker.js';
import { dayAt, newOrders, withBreaks } from '../helpers/day.js';
import { randomProblem } from '../helpers/problems.js';

const load = (name: string) => JSON.parse(readFileSync(`data/tiny/${name}.json`, 'utf8')) as ProblemInput;

describe('breaks', () => {
  it('random instances: every used route takes each break inside its window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 150, max: 500 }),
        fc.integer({ min: 10, max: 60 }),
        fc.boolean(),
        (seed, open, length, two) => {
          const breaks = [{ id: 'lunch', window: [open, open + 120] as [number, number], duration: length }];
          if (two) breaks.push({ id: 'short', window: [open + 250, open + 400], duration: 10 });
          const input = withBreaks(randomProblem({ orders: 25, vehicles: 5, seed, windows: seed % 2 === 0, limits: seed % 3 === 0 }), breaks);
          const r = solve(input, { iterations: 30, seed });
          assertFeasible(input, r);
          for (const route of r.routes) expect(route.breaks?.map((b) => b.id).sort()).toEqual(breaks.map((b) => b.id).sort());
        },
      ),
      { numRuns: 12, seed: 39 },
    );
  });

  it('tiny: the break is taken on the road when the drive reaches its window', () => {
    // data/tiny/break.json: depot at 0, one order at x = 100 with window [0, 1000]; a 30-minute
    // break that must start in [40, 50]. The van leaves at 0 and drives; at 40 it is on the road
    // (40 of 100 driven), rests 40-70, drives the 60 left: arrives at 130, back at the depot at 230.
    const p = load('break');
    const r = solve(p, { iterations: 20 });
    assertFeasible(p, r);
    const route = r.routes[0];
    expect(route.breaks).toEqual([{ id: 'lunch', after: 0, start: 40, end: 70 }]);
    expect(route.stops[0]).toMatchObject({ arrival: 130, start: 130, departure: 130 });
    expect(route.start).toBe(0);
    expect(route.end).toBe(230);
    expect(route.duration).toBe(230);
  });

  it('tiny: an order that only fits without the break is unassigned with time_window', () => {
    const p = load('break');
    // the order must be served by 100: a straight drive makes it, the break in [40, 50] does not
    p.orders[0].timeWindow = [0, 100];
    const r = solve(p, { iterations: 20 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([{ orderId: 'far', reason: 'time_window' }]);
    // and with the break gone it fits
    delete p.vehicles[0].breaks;
    expect(solve(p, { iterations: 20 }).unassigned).toEqual([]);
  });

  it('tiny: max_duration binds when the break makes the day too long', () => {
    const p = load('break');
    p.vehicles[0].maxDuration = 220; // 200 of driving fits, 230 with the break does not
    const r = solve(p, { iterations: 20 });
    expect(r.unassigned).toEqual([{ orderId: 'far', reason: 'max_duration' }]);
  });
});

describe('a day in progress', () => {
  it('random days: fixed stops stay, starts and now hold, no kept order is dropped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 100, max: 600 }), fc.boolean(), (seed, now, breaks) => {
        let base = randomProblem({ orders: 30, vehicles: 5, seed, windows: true });
        if (breaks) base = withBreaks(base, [{ id: 'lunch', window: [350, 500], duration: 30 }]);
        const plan = solve(base, { iterations: 30, seed });
        assertFeasible(base, plan);
        const { problem: wider, added } = newOrders(base, 6, now, seed + 1);
        const { problem, initialRoutes } = dayAt(wider, plan, now, added);
        const r = solve(problem, { iterations: 30, seed, initialRoutes });
        assertFeasible(problem, r);
        // without a warm start the kept orders make one (their vehicles, input order)
        const cold = solve(problem, { iterations: 10, seed });
        expect(checkSolution(problem, cold).filter((e) => e.includes('kept order') || e.includes('fixed stop'))).toEqual([]);
      }),
      { numRuns: 10, seed: 39 },
    );
  });

  it('on two threads (solveParallel): a day in progress with breaks stays feasible', async () => {
    const base = withBreaks(randomProblem({ orders: 40, vehicles: 6, seed: 5, windows: true }), [{ id: 'lunch', window: [300, 450], duration: 30 }]);
    const plan = solve(base, { iterations: 20, seed: 2 });
    const { problem: wider, added } = newOrders(base, 6, 350, 6);
    const { problem, initialRoutes } = dayAt(wider, plan, 350, added);
    // (kept orders name their vehicles, so canDecompose keeps such a day whole: a sector may lack the vehicle)
    const r = await solveParallel(problem, { threads: 2, iterations: 20, seed: 2, initialRoutes }, { decompose: 'always' });
    assertFeasible(problem, r);
  }, 180_000);

  it('tiny: the fixed prefix stays, the rest starts where and when the van is', () => {
    // data/tiny/fixed-prefix.json: the van left the depot (0) at 0 and served f1 at x = 10
    // (arrival 10, service until 15); now is 20 and it reports itself at x = 20 (location 2).
    // Pending: b at x = 30; new: a at x = -10. Best rest: 20 -> 30 -> back to 0 -> -10 -> 0,
    // or 20 -> -10 -> 30 -> 0: the first is 10 + 30 + 10 + 10 = 60 from the start position.
    const p = load('fixed-prefix');
    const r = solve(p, { iterations: 50 });
    assertFeasible(p, r);
    const route = r.routes[0];
    expect(route.fixed).toBe(1);
    expect(route.stops[0]).toEqual({ orderId: 'f1', location: 1, arrival: 10, start: 10, departure: 15, load: { weight: 2, volume: 2 }, distance: 10 });
    expect(route.stops.slice(1).map((s) => s.orderId)).toEqual(['b', 'a']);
    expect(route.stops[1]).toMatchObject({ arrival: 30, start: 30, departure: 30 });
    expect(route.start).toBe(0);
    expect(route.end).toBe(80);
    expect(route.distance).toBe(20 + 60);
    expect(r.unassigned).toEqual([]);
  });

  it('tiny: a kept order is not dropped for a new one, and nothing leaves before now', () => {
    const p = load('fixed-prefix');
    // room for one order only: b is kept, a is new
    p.vehicles[0].maxOrders = 2; // f1 + one more
    const r = solve(p, { iterations: 50 });
    assertFeasible(p, r);
    expect(r.routes[0].stops.map((s) => s.orderId)).toEqual(['f1', 'b']);
    expect(r.unassigned.map((u) => u.orderId)).toEqual(['a']);
  });
});
