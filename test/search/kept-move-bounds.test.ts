/**
 * The distance bounds on a day in progress with a cost on moving kept orders (keptMoveCost,
 * without breaks, so the bounds prune): a move sheds the routes' time and load penalties, but of
 * their cost of kept orders away from their vehicle only what it moves (an insertion none, a
 * relocated segment at most one an order it carries, a move within one route none). The bounds
 * that say so must stay sound: the pruned evaluation agrees with the full one, the pair screen
 * turns away only pairs relocate cannot improve, and the insertion scan finds the cheapest
 * position. The routes are dealt with kept orders away from their vehicles on purpose (a route's
 * whole moved cost used to come off every bound, which could hide nothing).
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import type { ProblemInput } from '../../src/model/input.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { RouteProbe } from '../../src/route/probe.js';
import { bestInsertion, newChoice } from '../../src/route/insertion.js';
import { buildNeighbours } from '../../src/search/neighbourhood.js';
import { defaultOperators, Relocate } from '../../src/search/operators/index.js';
import { PairScreen } from '../../src/search/pair-screen.js';
import { Rng } from '../../src/solver/rng.js';
import { solve } from '../../src/solver/solve.js';
import { checkSolution } from '../helpers/checker.js';
import { resultOf } from '../helpers/search-result.js';
import { randomProblem } from '../helpers/problems.js';
import { exerciseOperator } from '../helpers/operator-check.js';
import { dayAt, newOrders } from '../helpers/day.js';
import { cheapestByTrial } from '../helpers/insertion-oracle.js';

/**
 * A day under way at 300 with 8 new orders, no breaks, moving a kept order costing `cost`; with
 * `weights`, each kept order pays one of them at random (OrderInput.keptMoveWeight).
 */
function underWay(seed: number, cost: number, weights?: number[]): ProblemInput {
  const base = randomProblem({ orders: 60, vehicles: 8, seed, windows: true });
  const plan = solve(base, { iterations: 20, seed });
  const { problem: wider, added } = newOrders(base, 8, 300, seed);
  const day = { ...dayAt(wider, plan, 300, added).problem, keptMoveCost: cost };
  if (!weights) return day;
  const rng = new Rng(seed + 1000);
  return { ...day, orders: day.orders.map((o) => (o.currentVehicle === undefined ? o : { ...o, keptMoveWeight: weights[rng.int(weights.length)] })) };
}

/** Orders dealt at random onto the routes they fit (kept orders mostly away from their vehicle). */
function dealt(input: ProblemInput, seed: number, penalised: boolean): SearchSolution {
  const p = buildProblem(input);
  const costs = costModel(p, 'distance');
  const sol = new SearchSolution(p, costs);
  if (penalised) {
    costs.penalised = true;
    costs.penaltyTime = 0.002;
    costs.penaltyLoad = 0.003;
  }
  const rng = new Rng(seed);
  for (const o of rng.shuffle(Array.from({ length: p.nOrders }, (_, i) => i))) {
    for (let t = 0; t < 4; t++) {
      const r = sol.routes[rng.int(sol.routes.length)];
      if (!sol.compatible(o, r) || r.nOrd + 1 > p.vMaxOrders[r.vehicle]) continue;
      const pos = rng.int(r.size + 1);
      sol.insert(o, r, pos);
      if (penalised || r.feasible()) break;
      sol.remove(o);
    }
  }
  for (const r of sol.routes) r.recost();
  return sol;
}

const cases: Array<{ name: string; seed: number; cost: number; penalised: boolean; weights?: number[] }> = [
  { name: 'strict', seed: 41, cost: 15, penalised: false },
  { name: 'a higher cost', seed: 42, cost: 60, penalised: false },
  { name: 'penalised', seed: 43, cost: 15, penalised: true },
  // weighted kept orders: some free, some paying part, some all of the cost
  { name: 'weighted, strict', seed: 44, cost: 60, penalised: false, weights: [0, 0.25, 0.5, 1] },
  { name: 'weighted, penalised', seed: 45, cost: 60, penalised: true, weights: [0, 0.25, 1] },
  // no order pays the whole cost: the segment bound is by the largest weight, not by 1
  { name: 'weighted below 1', seed: 46, cost: 120, penalised: false, weights: [0, 0.5] },
];

describe('distance bounds with a cost on moving kept orders', () => {
  for (const c of cases) {
    it(`relocate and the default operators: the pruned evaluation agrees with the full one (${c.name})`, () => {
      const input = underWay(c.seed, c.cost, c.weights);
      for (const op of defaultOperators()) {
        const sol = dealt(input, c.seed, c.penalised);
        expect(sol.routes.reduce((a, r) => a + r.moved, 0)).toBeGreaterThan(5);
        const { evaluated, applied } = exerciseOperator(sol, op, new Rng(c.seed), { penalised: c.penalised, prunedDigits: 9 });
        expect(evaluated).toBeGreaterThan(0);
        if (op instanceof Relocate) expect(applied).toBeGreaterThan(0);
        if (!c.penalised) expect(checkSolution(input, resultOf(input, sol)).filter((e) => !e.includes('kept order'))).toEqual([]);
      }
    });

    it(`the pair screen turns away only pairs relocate cannot improve, and turns some away (${c.name})`, () => {
      const input = underWay(c.seed, c.cost, c.weights);
      const sol = dealt(input, c.seed, c.penalised);
      const ops = defaultOperators();
      const screen = PairScreen.for(ops)!;
      const nb = buildNeighbours(sol.p);
      const x = ops.findIndex((op) => op instanceof Relocate);
      const arc = sol.distance() / Math.max(1, sol.p.nOrders);
      let away = 0;
      let checked = 0;
      for (let u = 0; u < sol.p.nOrders; u++) {
        if (sol.routeOf[u] < 0) continue;
        for (let t = 0; t < nb.k; t++) {
          const v = nb.list[u * nb.k + t];
          if (sol.routeOf[v] < 0) continue;
          for (const limit of [-1e-7, 0.1 * arc, arc]) {
            checked++;
            if ((screen.mask(sol, u, v, limit) & (1 << x)) !== 0) continue;
            away++;
            expect(ops[x].evaluate(sol, u, v, limit), `relocate (${u}, ${v}) below ${limit}`).not.toBeLessThan(limit);
          }
        }
      }
      expect(checked).toBeGreaterThan(500);
      expect(away).toBeGreaterThan(0);
    });

    it(`the insertion scan finds the cheapest position on routes with kept orders away (${c.name})`, () => {
      const input = underWay(c.seed, c.cost, c.weights);
      const sol = dealt(input, c.seed, c.penalised);
      const p = sol.p;
      const rng = new Rng(c.seed);
      const out = rng.shuffle(Array.from({ length: p.nOrders }, (_, i) => i).filter((o) => sol.routeOf[o] >= 0)).slice(0, 15);
      for (const o of out) sol.remove(o);
      const probe = new RouteProbe(p, sol.costs);
      const cands = sol.candidateRoutes([]);
      let onMovedRoute = 0;
      for (const o of out) {
        const { delta: best, route: bestRoute } = cheapestByTrial(sol, o, cands, !c.penalised);
        const full = bestInsertion(sol, probe, o, cands, newChoice(), newChoice());
        expect(full.delta).toBeCloseTo(best, 6);
        if (bestRoute !== null && bestRoute.moved > 0) onMovedRoute++;
      }
      // the sample did test the bound on routes that carry a moved cost
      expect(onMovedRoute).toBeGreaterThan(0);
    });
  }

  it('a route counts the move units of the kept orders away from their vehicle, as the orders say', () => {
    const input = underWay(47, 60, [0, 0.25, 0.5, 1]);
    const sol = dealt(input, 47, false);
    const p = sol.p;
    const byId = new Map(input.orders.map((o) => [o.id, o]));
    const vehicleIds = input.vehicles.map((v) => v.id);
    let expected = 0;
    let free = 0;
    for (const r of sol.routes) {
      let units = 0;
      for (let i = 1; i <= r.size; i++) {
        const o = r.ord[i];
        if (o >= p.nOrders) continue;
        const order = byId.get(p.orderIds[o])!;
        if (order.currentVehicle === undefined || order.currentVehicle === vehicleIds[r.vehicle]) continue;
        units += (order.keptMoveWeight ?? 1) * 64;
        if (order.keptMoveWeight === 0) free++;
      }
      expect(r.moved).toBe(units);
      expected += units;
      // the cost holds the moved share: 60 m an order of weight 1
      expect(r.cost - r.distance).toBeCloseTo((60 * units) / 64, 9);
    }
    expect(expected).toBeGreaterThan(64);
    expect(free).toBeGreaterThan(0);
  });
});
