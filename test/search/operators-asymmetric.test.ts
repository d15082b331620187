/**
 * The operator suite's two promises on asymmetric matrices (a cut of the road city, data/city-road):
 * the predicted delta equals the real change in cost recomputed from scratch, and the pruned
 * evaluation (the O(1) distance bounds) agrees with the full one below its limit. The symmetric
 * suite (operators.test.ts) cannot see an arc read the wrong way round; this one can. One case
 * keeps the distances symmetric and only the durations one-way, the case where `p.symmetric` is
 * true and the bounds may read distances either way but time windows may not.
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel } from '../../src/model/problem.js';
import { SearchSolution } from '../../src/route/search-solution.js';
import { regretInsert } from '../../src/construct/regret.js';
import { exhaustiveOperators } from '../../src/search/operators/index.js';
import { Rng } from '../../src/solver/rng.js';
import type { Objective, ProblemInput } from '../../src/model/input.js';
import { checkSolution } from '../helpers/checker.js';
import { resultOf } from '../helpers/search-result.js';
import { roadCut } from '../helpers/road.js';
import { exerciseOperator } from '../helpers/operator-check.js';


/** The same cut with each distance pair set to the longer of its two directions (durations kept). */
function symmetricDistances(input: ProblemInput): ProblemInput {
  const m = input.matrix as { kind: 'explicit'; distance: number[][]; duration: number[][] };
  const distance = m.distance.map((row, i) => row.map((d, j) => Math.max(d, m.distance[j][i])));
  return { ...input, matrix: { ...m, distance } };
}

const fleet = ['1', '2', '3', '4', '13', '14'];
const cases: Array<{ name: string; input: ProblemInput; objective: Objective; penalised?: boolean }> = [
  { name: 'road city cut', input: roadCut(60, fleet), objective: 'distance' },
  { name: 'road city cut, duration objective', input: roadCut(60, fleet), objective: 'duration' },
  { name: 'road city cut, penalised', input: roadCut(60, fleet.slice(0, 4)), objective: 'distance', penalised: true },
  { name: 'symmetric distances, one-way durations', input: symmetricDistances(roadCut(60, fleet)), objective: 'distance' },
];

describe.each(exhaustiveOperators().map((op) => [op.name, op] as const))('operator %s on asymmetric matrices', (_name, op) => {
  for (const c of cases) {
    it(`predicts its delta exactly (${c.name})`, () => {
      const p = buildProblem(c.input);
      expect(p.symmetric).toBe(c.name.startsWith('symmetric'));
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
      const { evaluated, applied } = exerciseOperator(sol, op, rng, { penalised: c.penalised, prunedDigits: 6 });
      expect(evaluated).toBeGreaterThan(0);
      if (op.name !== 'swap-star') expect(applied).toBeGreaterThan(0);
      if (!c.penalised) expect(checkSolution(c.input, resultOf(c.input, sol))).toEqual([]);
    });
  }
});
