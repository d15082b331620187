/**
 * Microbenchmark of move evaluation (tinybench): nanoseconds per evaluated move for each local
 * search operator and for an insertion probe, on a local optimum of a Solomon instance; and per
 * pair, the four loop operators called for every pair against the same behind the pair screen.
 *
 *   npx tsx bench/moves.ts [INSTANCE]   (default R101, trunc1)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { parseSolomon } from '../src/io/solomon.js';
import { buildProblem, costModel } from '../src/model/problem.js';
import { SearchSolution } from '../src/route/search-solution.js';
import { RouteProbe } from '../src/route/probe.js';
import { savingsConstruct } from '../src/construct/savings.js';
import { regretInsert } from '../src/construct/regret.js';
import { buildNeighbours } from '../src/search/neighbourhood.js';
import { LocalSearch } from '../src/search/local-search.js';
import { defaultOperators } from '../src/search/operators/index.js';
import { PairScreen } from '../src/search/pair-screen.js';
import { Rng } from '../src/solver/rng.js';

const name = process.argv[2] ?? 'R101';
const file = fileURLToPath(new URL(`../data/solomon/${name}.txt`, import.meta.url));
const p = buildProblem(parseSolomon(readFileSync(file, 'utf8'), { file, rounding: 'trunc1' }));
const sol = new SearchSolution(p, costModel(p));
const nb = buildNeighbours(p);
regretInsert(sol, savingsConstruct(sol, nb));
const rng = new Rng(1);
const ls = new LocalSearch(sol);
ls.touchAll();
ls.run({ neighbours: nb, shuffle: (a) => rng.shuffle(a), timeUp: () => false });

// a fixed list of (u, v) neighbour pairs
const pairs: Array<[number, number]> = [];
for (let u = 0; u < p.nOrders; u++) for (let t = 0; t < 15; t++) pairs.push([u, nb.list[u * nb.k + t]]);
const PER_TASK = pairs.length;

const bench = new Bench({ time: 400 });
for (const op of defaultOperators()) {
  bench.add(`${op.name} (pruned, as in the search)`, () => {
    for (const [u, v] of pairs) op.evaluate(sol, u, v, -1e-7);
  });
  bench.add(`${op.name} (full segment check)`, () => {
    for (const [u, v] of pairs) op.evaluate(sol, u, v);
  });
}
// what the local search does for a pair: the pair screen's mask first (src/search/pair-screen.ts),
// then only the operators whose bound passes; against all four operators called for every pair
const loop = defaultOperators();
const screen = PairScreen.for(loop)!;
bench.add('the four operators, each called for every pair', () => {
  for (const [u, v] of pairs) for (const op of loop) op.evaluate(sol, u, v, -1e-7);
});
bench.add('the four operators behind the pair screen', () => {
  for (const [u, v] of pairs) {
    const mask = screen.mask(sol, u, v, -1e-7);
    if (mask === 0) continue;
    for (let x = 0; x < loop.length; x++) if ((mask & (1 << x)) !== 0) loop[x].evaluate(sol, u, v, -1e-7);
  }
});
const probe = new RouteProbe(p, sol.costs);
bench.add('insertion probe (prefix + order + suffix)', () => {
  for (const [u, v] of pairs) {
    const r = sol.routes[sol.routeOf[v]];
    probe.prefix(r, sol.posOf[v]).order(u).finishSuffix(r, sol.posOf[v] + 1);
  }
});

await bench.run();
const rows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency?: { mean: number }; mean?: number };
  const meanMs = r.latency?.mean ?? r.mean ?? NaN;
  return { task: t.name, 'ns per move': ((meanMs * 1e6) / PER_TASK).toFixed(1) };
});
console.log(`${name}: ${PER_TASK} evaluations per task, local optimum from savings + local search (the rows of the four operators: ns per pair)`);
console.table(rows);
