/**
 * CPU time per evaluated move (process.cpuUsage, not the wall clock): the A/B check of a change
 * that must not slow the search when the machine is shared. bench/moves.ts measures wall time
 * (tinybench), which other processes on the cores inflate several times over; CPU time moves
 * much less. Run it in turns in two checkouts and compare the lowest of a few runs per column:
 *
 *   npx tsx bench/moves-cpu.ts [INSTANCE]   (default R101, trunc1; prints ns per (u, v) pair)
 *
 * Same start as bench/moves.ts: savings + local search to a local optimum, the 15 nearest
 * neighbours of each order as the pairs; each operator's pruned evaluation as the search calls
 * it, then the insertion probe (prefix + order + suffix), 200 passes over the pairs each.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSolomon } from '../src/io/solomon.js';
import { buildProblem, costModel } from '../src/model/problem.js';
import { SearchSolution } from '../src/route/search-solution.js';
import { RouteProbe } from '../src/route/probe.js';
import { savingsConstruct } from '../src/construct/savings.js';
import { regretInsert } from '../src/construct/regret.js';
import { buildNeighbours } from '../src/search/neighbourhood.js';
import { LocalSearch } from '../src/search/local-search.js';
import { defaultOperators } from '../src/search/operators/index.js';
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
const pairs: Array<[number, number]> = [];
for (let u = 0; u < p.nOrders; u++) for (let t = 0; t < 15; t++) pairs.push([u, nb.list[u * nb.k + t]]);
const probe = new RouteProbe(p, sol.costs);
const PASSES = 200;

/** ns of CPU per pair, after one warm-up pass. */
function cpu(pass: () => void): number {
  pass();
  const c0 = process.cpuUsage();
  for (let k = 0; k < PASSES; k++) pass();
  const c = process.cpuUsage(c0);
  return ((c.user + c.system) * 1000) / (PASSES * pairs.length);
}

let sink = 0;
const out: string[] = [];
for (const op of defaultOperators()) {
  const ns = cpu(() => {
    for (const [u, v] of pairs) sink += op.evaluate(sol, u, v, 0) === Infinity ? 0 : 1;
  });
  out.push(`${op.name} ${ns.toFixed(1)}`);
}
const ns = cpu(() => {
  for (const [u, v] of pairs) {
    const r = sol.routes[sol.routeOf[v]];
    const pos = sol.posOf[v];
    probe.prefix(r, pos).order(u).finishSuffix(r, pos + 1);
    sink += probe.cost;
  }
});
out.push(`insertion probe ${ns.toFixed(1)}`);
console.log(`${name}, ns of CPU per pair: ${out.join(', ')}${sink === -1 ? '' : ''}`);
