/**
 * The shared operator suite (test/helpers/operator-check.ts) on the day features: every
 * operator's predicted delta equals the real change with drivers' breaks (alone, with trips, in
 * the penalised search) and on a day in progress (vehicles under way from their fixed stops, kept
 * orders), and the routes it leaves pass the independent checker.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { RouteProbe } from '../../src/route/probe.js';
import { regretInsert } from '../../src/construct/regret.js';
import { exhaustiveOperators } from '../../src/search/operators/index.js';
import { Rng } from '../../src/solver/rng.js';
import { solve } from '../../src/solver/solve.js';
import type { Objective, ProblemInput } from '../../src/model/input.js';
import { checkSolution } from '../helpers/checker.js';
import { resultOf } from '../helpers/search-result.js';
import { randomProblem } from '../helpers/problems.js';
import { exerciseOperator } from '../helpers/operator-check.js';
import { dayAt, newOrders, withBreaks } from '../helpers/day.js';

const lunch = [
  { id: 'lunch', window: [250, 400] as [number, number], duration: 30 },
  { id: 'late', window: [600, 750] as [number, number], duration: 10 },
];

function tripsOf(input: ProblemInput): ProblemInput {
  return { ...input, vehicles: input.vehicles.map((v) => ({ ...v, maxTrips: 3, reloadTime: 10, shift: [0, 3000] as [number, number] })) };
}

function underWay(seed: number, keptMoveCost?: number): ProblemInput {
  const base = withBreaks(randomProblem({ orders: 40, vehicles: 6, seed, windows: true }), [lunch[0]]);
  const plan = solve(base, { iterations: 20, seed });
  const { problem: wider, added } = newOrders(base, 8, 300, seed);
  const day = dayAt(wider, plan, 300, added).problem;
  return keptMoveCost === undefined ? day : { ...day, keptMoveCost };
}

const cases: Array<{ name: string; input: ProblemInput; objective: Objective; penalised?: boolean }> = [
  { name: 'breaks', input: withBreaks(randomProblem({ orders: 40, vehicles: 8, seed: 31, windows: true }), lunch), objective: 'distance' },
  { name: 'breaks, limits', input: withBreaks(randomProblem({ orders: 40, vehicles: 8, seed: 32, windows: true, limits: true, features: true }), lunch), objective: 'distance' },
  { name: 'breaks, duration objective', input: withBreaks(randomProblem({ orders: 30, vehicles: 6, seed: 33, windows: true }), lunch), objective: 'duration' },
  { name: 'breaks, trips', input: tripsOf(withBreaks(randomProblem({ orders: 40, vehicles: 4, seed: 34, capacity: 60, windows: true }), lunch)), objective: 'distance' },
  { name: 'breaks, penalised', input: withBreaks(randomProblem({ orders: 40, vehicles: 5, seed: 35, windows: true, limits: true }), lunch), objective: 'distance', penalised: true },
  { name: 'a day in progress', input: underWay(36), objective: 'distance' },
  { name: 'a day in progress, a cost on moving kept orders', input: underWay(37, 15), objective: 'distance' },
  { name: 'a day in progress, moving kept orders, penalised', input: underWay(38, 15), objective: 'distance', penalised: true },
];

describe.each(exhaustiveOperators().map((op) => [op.name, op] as const))('operator %s on the day features', (_name, op) => {
  for (const c of cases) {
    it(`predicts its delta exactly and loses no order (${c.name})`, () => {
      const p = buildProblem(c.input);
      const costs = costModel(p, c.objective);
      const sol = new SearchSolution(p, costs);
      const rng = new Rng(5);
      regretInsert(sol, rng.shuffle(Array.from({ length: p.nOrders }, (_, i) => i)));
      if (c.penalised) {
        costs.penalised = true;
        costs.penaltyTime = 2;
        costs.penaltyLoad = 3;
        for (const r of sol.routes) r.recost();
      }
      const { evaluated } = exerciseOperator(sol, op, rng, { penalised: c.penalised, prunedDigits: 9 });
      expect(evaluated).toBeGreaterThan(0);
      // every route still holds each of its vehicle's breaks once
      for (const r of sol.routes) {
        const held = r.orders().filter((x) => x >= p.nBreakFirst);
        expect(held.sort()).toEqual(Array.from({ length: p.vBreakCount[r.vehicle] }, (_, k) => p.vBreakFirst[r.vehicle] + k));
      }
      // as the search does before it exports: reload nodes left closing empty trips go
      sol.tidyAllReloads(new RouteProbe(p, costs));
      if (!c.penalised) expect(checkSolution(c.input, resultOf(c.input, sol)).filter((e) => !e.includes('kept order'))).toEqual([]);
    });
  }
});
