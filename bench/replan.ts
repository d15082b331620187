/**
 * A re-plan of a day in progress on the 500-order city (bench/jobs-city.ts, its problem built as
 * the planning job builds it, haversine at 30 km/h), one thread: the
 * morning plan knows 450 orders; at `--now` (default 11:00) the vans are out (what they have
 * left for is fixed, the rest of each route kept), and the 50 others arrive as new orders. The
 * re-plan is warm-started from the kept routes. Prints, per budget: the time taken, new orders
 * placed, kept orders moved to another van, km of the day, and the independent checker's verdict;
 * first the warm start with the new orders inserted at their cheapest places and one local search
 * (`iterations: 0`: what `solve` does before its first iteration), then the search at each budget.
 *
 * With `--kept-move-cost M` (metres) each kept order on another van costs M more: the same runs
 * again with that cost, to see what it saves in changed lists and what it costs in km.
 *
 *   npx tsx bench/replan.ts [--now 11:00] [--budgets 0.5,1,2] [--morning 5] [--seed 1] [--kept-move-cost 0,500]
 */
import { solve } from '../src/solver/solve.js';
import type { OrderInput, ProblemInput, SolveResult } from '../src/model/input.js';
import { checkSolution } from '../test/helpers/checker.js';
import { dayAt } from '../test/helpers/day.js';
import { dayProblem } from '../src/jobs/sample-day.js';
import { loadCity } from './jobs-city.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const [hh, mm] = arg('now', '11:00').split(':').map(Number);
const now = hh * 3600 + mm * 60;
const budgets = arg('budgets', '0.5,1,2').split(',').map(Number);
const morningBudget = Number(arg('morning', '5'));
const seed = Number(arg('seed', '1'));

/** The city's problem as the planning job builds it (haversine matrix), without a pool or store. */
async function cityDay(): Promise<ProblemInput> {
  return dayProblem(loadCity());
}

const full = await cityDay();
// every tenth order arrives during the day
const late = new Set(full.orders.filter((_, i) => i % 10 === 9).map((o) => o.id));
const morning: ProblemInput = { ...full, orders: full.orders.filter((o) => !late.has(o.id)) };
const plan = solve(morning, { timeLimit: morningBudget, seed });
const added: OrderInput[] = full.orders.filter((o) => late.has(o.id));
const { problem, initialRoutes } = dayAt(morning, plan, now, added);
const fixed = problem.vehicles.reduce((a, v) => a + (v.progress?.fixedStops.length ?? 0), 0);
const kept = problem.orders.filter((o) => o.currentVehicle !== undefined).length;
console.log(
  `morning plan: ${(plan.distance / 1000).toFixed(2)} km, ${plan.routes.length} routes, ${plan.unassigned.length} unassigned (${morningBudget} s); ` +
    `at ${arg('now', '11:00')}: ${fixed} stops fixed, ${kept} kept, ${added.length} new`,
);

function report(label: string, r: SolveResult, ms: number): void {
  const vehicleOf = new Map<string, string>();
  for (const route of r.routes) for (const s of route.stops) vehicleOf.set(s.orderId, route.vehicleId);
  const moved = problem.orders.filter((o) => o.currentVehicle !== undefined && vehicleOf.get(o.id) !== o.currentVehicle).length;
  const placed = added.filter((o) => vehicleOf.has(o.id)).length;
  const errors = checkSolution(problem, r);
  console.log(
    `${label.padEnd(22)} ${ms.toFixed(0).padStart(5)} ms  new placed ${placed}/${added.length}  kept moved ${moved}  ${(r.distance / 1000).toFixed(2)} km  ` +
      `${r.stats.iterations} iterations  checker: ${errors.length === 0 ? 'ok' : errors.slice(0, 3).join('; ')}`,
  );
}

for (const cost of arg('kept-move-cost', '0').split(',').map(Number)) {
  const day: ProblemInput = cost > 0 ? { ...problem, keptMoveCost: cost } : problem;
  const tag = cost > 0 ? `, move ${cost} m` : '';
  {
    // greedy: the kept routes, each new order at its cheapest place, then the local search only
    const t0 = performance.now();
    const r = solve(day, { iterations: 0, seed, initialRoutes });
    report(`insert + LS${tag}`, r, performance.now() - t0);
  }
  for (const budget of budgets) {
    const t0 = performance.now();
    const r = solve(day, { timeLimit: budget, seed, initialRoutes });
    report(`re-plan ${budget} s${tag}`, r, performance.now() - t0);
  }
}
