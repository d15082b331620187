/**
 * The improvement phase: an iterated local search. Each iteration ruins and recreates part of the
 * current solution (SISR strings), runs the granular local search on what changed, and accepts the
 * result by simulated annealing (a threshold that cools with the budget used). The search may
 * cross infeasible space: broken windows, loads and limits cost adaptive penalties steered towards
 * a target share of feasible candidates; only feasible solutions become the best (as they are: no
 * exhaustive local search on them, see below). Under the vehicles objective it also tries to empty
 * the smallest route. Only changed routes are copied or restored, so an iteration costs little
 * beyond its moves.
 */
import type { Objective } from '../model/input.js';
import type { Problem } from '../model/problem.js';
import type { SearchSolution } from '../route/search-solution.js';
import { RouteProbe } from '../route/probe.js';
import { LocalSearch } from '../search/local-search.js';
import { RuinRecreate, defaultRuinParams, type RuinParams } from '../search/perturb.js';
import { VehicleReassign } from '../search/reassign.js';
import { RouteCopies } from '../route/route-copies.js';
import type { Rng } from './rng.js';
import type { Stop } from './stop.js';
import { SearchEnv } from './search-env.js';

export interface ImproveContext {
  neighbours: { k: number; list: Int32Array };
  rng: Rng;
  stop: Stop;
  objective: Objective;
  /** Start temperature as a share of the average arc cost of the initial solution (default `startTemperature(p)`). */
  startTemperature?: number;
  /** End temperature, likewise (default `endTemperature(p)`). */
  endTemperature?: number;
  /** Neighbours per order the local search uses inside the loop. */
  lsNeighbours?: number;
  /** Run the local search after a recreate only when it lands within this share of the current cost. */
  lsWithin?: number;
  /** The local search after a recreate looks only around the moved orders (default on). */
  focusedSearch?: boolean;
  /** Infeasible search with adaptive penalties (default on). */
  penalties?: boolean;
  /** Share of feasible candidates the penalty weights steer towards. */
  targetFeasible?: number;
  /** Starting penalty weight, in units of the average arc cost per unit of violation. */
  initialPenalty?: number;
  /** Under the vehicles objective, the search's own attempts to empty a route (default true; off after a fleet stage). */
  fleetAttempts?: boolean;
  /** Share of the recreates that insert only next to near orders (default NEAR_SHARE on long routes, else 0; 1: always). */
  nearShare?: number;
}

/** Share of the ruins that empty a whole route, on instances with long routes. */
const ROUTE_RUIN_SHARE = 0.05;

/**
 * Share of the recreates that first open a route (RuinRecreate.openRoute). The search closes routes
 * (whole-route ruins, strings that empty one) far more easily than it opens them, and under the
 * distance objective it settles below the best route count: Homberger R2_2_1 at 12 or 11 routes
 * (3,476-3,498) where the best known distance has 13 (3,468.0). Session 32 (helper h200), fixed
 * iteration budgets, A/B over the same seeds: Homberger 200 `_1`/`_6` 46 pairs 0.176 -> 0.156 %
 * (shorter 19, longer 13; R2_2_1 0.23 -> 0.03 %), Solomon 56 at 1,500 iterations, seeds 1-3, 0.319
 * -> 0.281 % (51 / 36), the 500-order city at 8,000 iterations, seeds 1-4, 612.1 -> 609.4 km (4 / 0).
 */
const OPEN_ROUTE_SHARE = 0.15;

/**
 * Ruin size from the average route length of the start: SISR's 10 orders on short routes, up to 40
 * (strings up to 20) when routes are long. Small ruins on long routes rebuild the same routes
 * again and again; the 500-order city (40 orders a route) at 4.5 s: mean of 8 seeds 635 -> 626 km
 * with the hotter schedule below. The short-route classes (C1, R1, RC1 of Solomon and Homberger)
 * keep 10; the long-route ones (C2, R2, RC2) get more: Solomon 10 s 0.14 -> 0.06 %.
 */
export function ruinParams(avgRouteSize: number): RuinParams {
  const avgRemoved = Math.max(defaultRuinParams.avgRemoved, Math.min(40, Math.round(avgRouteSize)));
  const maxString = Math.max(defaultRuinParams.maxString, Math.min(20, Math.round(avgRemoved / 2)));
  return { ...defaultRuinParams, avgRemoved, maxString };
}

/** Routes of at least this many orders on average count as long (the start's average). */
export const LONG_ROUTES = 20;

/**
 * On long routes, the share of the recreates that price only the positions next to near orders
 * (the others scan every position of every route). On the 500-order cities (routes of 40) at
 * 4.5 s, half and half is about 0.7-1 % shorter than the full scan alone (three cities, 12-40
 * seeds each), as is near-only. On short routes (Homberger 1000 R1 and RC1, routes of 10) the mix
 * looked worse than the full scan (10-instance sample at 10 s, 5-7 runs each: R1 3.1 -> 3.5 %,
 * RC1 3.3 -> 3.5 %, within a large run-to-run noise), so they keep the full scan.
 */
const NEAR_SHARE = 0.5;

/** Start temperature, in average arcs, for a fleet of more than one vehicle class. */
export const MIXED_FLEET_START = 3;

/** Start and end temperatures, in average arcs, for a fleet of one vehicle class. */
export const ONE_CLASS_START = 0.5;
export const ONE_CLASS_END = 0.02;

/** End temperature, in average arcs, for a fleet of more than one vehicle class. */
export const MIXED_FLEET_END = 0.1;

/**
 * Start temperature of the annealing, as a share of the start's average arc: ONE_CLASS_START for a
 * fleet of one vehicle class (every Solomon and Homberger instance), MIXED_FLEET_START when the
 * vehicles differ (depots, capacities, shifts, limits or features: `Problem.mixedFleet`). Measured
 * in session 19 (bench/RESULTS.md), each in turns over the same seeds: the 500-order city (two
 * depots, vans and trucks) at 4.5 s 622.08 -> 619.06 km (20 seeds), its road-matrix twin 853.88 ->
 * 849.19 km (12 seeds), and through the job service 4.5 s jobs 621.88 -> 617.44 km and 60 s jobs
 * 608.15 -> 604.65 km; session 6 found the same on two other generated cities (622.3 -> 618.1 km,
 * and flat). On the one-class benchmarks the hotter start was flat (Solomon at 1 s) or worse
 * (Homberger 200 at 10 s on two threads: 0.15 -> 0.21 %, R2 0.07 -> 0.20 %; Homberger 1000 at
 * 10 s, session 6: C2 and R2 worse). Session 30 (issue 42) made the one-class schedule colder at
 * both ends, 1 -> 0.5 and 0.1 -> 0.02 (endTemperature): Homberger 200 R1, RC1, R2, RC2 at 10 s of
 * CPU, one thread, A/B in turns over 24 instance-seed pairs, mean gap 0.445 -> 0.336 %, shorter
 * on 15, longer on 7. The class count is what separates the two sets measured, not a proven cause.
 */
export function startTemperature(p: Problem): number {
  return p.mixedFleet ? MIXED_FLEET_START : ONE_CLASS_START;
}

/** End temperature of the annealing, as a share of the start's average arc (see startTemperature). */
export function endTemperature(p: Problem): number {
  return p.mixedFleet ? MIXED_FLEET_END : ONE_CLASS_END;
}

export function improve(sol: SearchSolution, ctx: ImproveContext): void {
  const { rng, stop } = ctx;
  const ls = new LocalSearch(sol);
  const lsEnv = new SearchEnv(ctx.neighbours, rng, stop);
  ls.touchAll();
  ls.run(lsEnv);
  const probe = new RouteProbe(sol.p, sol.costs);
  sol.tidyAllReloads(probe);
  if (stop.done()) return;

  const rr = new RuinRecreate(sol, probe, ctx.neighbours, ruinParams(sol.p.nOrders / Math.max(1, sol.usedVehicles())));
  const reassign = new VehicleReassign(sol, probe);
  const current = new RouteCopies(sol);
  let currentCost = sol.cost();
  let currentUnassigned = sol.unassignedCount();
  let bestCost = currentCost;
  let best = current.snapshot();
  const arcs = sol.p.nOrders + sol.usedVehicles();
  const avgArc = arcs > 0 ? sol.distance() / arcs : 1;
  const t0 = (ctx.startTemperature ?? startTemperature(sol.p)) * avgArc;
  const t1 = (ctx.endTemperature ?? endTemperature(sol.p)) * avgArc;

  const lsWithin = ctx.lsWithin ?? Infinity;
  const lsEnvInner = lsEnv.using(ctx.lsNeighbours ?? 15);
  const focused = ctx.focusedSearch ?? true;
  const focus: number[] = [];
  // On long routes (LONG_ROUTES orders or more on average) strings rarely empty a route: one ruin
  // in twenty empties a whole one (500-order city at 3 s: mean of 10 seeds 644 -> 640 km).
  const longRoutes = sol.p.nOrders / Math.max(1, sol.usedVehicles()) >= LONG_ROUTES;
  const routeRuinShare = longRoutes ? ROUTE_RUIN_SHARE : 0;
  // Fleet minimisation (vehicles objective): empty the smallest route, forbid new routes, and let
  // ruin-and-recreate work the ejected orders back in; give up after a budget of iterations.
  const minimiseFleet = ctx.objective === 'vehicles' && ctx.fleetAttempts !== false;
  let attemptLeft = 0;
  let attemptBudget = Math.max(200, 4 * sol.p.nOrders);
  let nextAttempt = 0;
  let failures = 0;

  // Infeasible search: broken windows, loads and limits are paid for, not forbidden; the weights
  // rise when too few candidates are feasible and fall when almost all are. Only feasible
  // solutions become the best.
  const costs = sol.costs;
  // Only when everything is served: on an over-full instance the penalties would keep every order
  // inserted and the search would never see a feasible solution again. Nor on a capped fleet (no
  // new routes): a fleet minimisation leaves too little room, and the penalised search stays
  // infeasible at the highest weight (R1_10_2 capped at 92 routes: no feasible candidate in 4,000
  // iterations; strict: 56,866 -> 50,348 in the same time).
  const penalties = (ctx.penalties ?? true) && sol.unassignedCount() === 0 && sol.allowNewRoutes;
  const target = ctx.targetFeasible ?? 0.65;
  let loadSum = 0;
  for (let o = 0; o < sol.p.nOrders; o++) loadSum += sol.p.oW[o] + sol.p.oV[o];
  const loadScale = loadSum > 0 ? (avgArc * sol.p.nOrders) / loadSum : 1;
  const timeScale = costs.perDistance + costs.perDuration;
  let weight = ctx.initialPenalty ?? 10;
  const setPenalised = (on: boolean) => {
    costs.penalised = on;
    costs.penaltyTime = weight * timeScale;
    costs.penaltyLoad = weight * loadScale;
    for (const r of sol.routes) r.recost();
  };
  const allFeasible = () => {
    for (const r of sol.routes) if (!r.feasible()) return false;
    return true;
  };
  const nearShare = ctx.nearShare ?? (longRoutes ? NEAR_SHARE : 0);
  // a day in progress (kept orders): a new route is a fresh van sent out mid-day; its re-plans fill
  // the vans already out first (bench/day.ts, session 32 lead)
  const openShare = sol.p.nKept > 0 ? 0 : OPEN_ROUTE_SHARE;
  let feasibleSeen = 0;
  let seen = 0;
  if (penalties) setPenalised(true);
  currentCost = sol.cost();
  let currentFeasible = true;

  while (!stop.done()) {
    stop.iterations++;
    if (minimiseFleet && attemptLeft === 0 && stop.iterations >= nextAttempt && currentUnassigned === 0 && sol.usedVehicles() > 1) {
      let smallest = -1;
      for (const r of sol.routes) if (r.nOrd > 0 && (smallest < 0 || r.size < sol.routes[smallest].size)) smallest = r.index;
      sol.allowNewRoutes = false;
      sol.setRoute(sol.routes[smallest], []);
      current.save();
      currentCost = sol.cost();
      currentUnassigned = sol.unassignedCount();
      attemptLeft = attemptBudget;
    }
    if (attemptLeft > 0) {
      attemptLeft--;
      if (currentUnassigned === 0 && currentFeasible) {
        // success: the smaller fleet stands (it is already the best by cost)
        attemptLeft = 0;
        sol.allowNewRoutes = true;
        nextAttempt = stop.iterations + 1;
      } else if (attemptLeft === 0) {
        sol.restore(best);
        if (penalties) setPenalised(true);
        current.resync();
        ls.touchAll();
        currentCost = sol.cost();
        currentUnassigned = sol.unassignedCount();
        sol.allowNewRoutes = true;
        failures++;
        attemptBudget *= 2;
        nextAttempt = stop.iterations + attemptBudget * failures;
      }
    }
    const removed = rng.next() < routeRuinShare ? rr.ruinRoute(rng) : rr.ruin(rng);
    // orders still out get a chance in every recreate
    if (currentUnassigned > 0) for (const o of sol.unassigned()) if (!removed.includes(o)) removed.push(o);
    rr.nearUse = nearShare > 0 && (nearShare >= 1 || rng.next() < nearShare) ? ctx.neighbours.k : 0;
    rr.openRoute = openShare > 0 && rng.next() < openShare;
    rr.recreate(rng, removed);
    let cost = sol.cost();
    if (cost < currentCost * (1 + lsWithin)) {
      if (focused) {
        focus.length = 0;
        for (const o of removed) focus.push(o);
        for (const o of rr.edges) focus.push(o);
        ls.run(lsEnvInner, focus);
      } else ls.run(lsEnvInner);
      if (reassign.active) reassign.run();
      sol.tidyAllReloads(probe);
      cost = sol.cost();
    }
    // (with trips the check stays on even in strict search: a safety net for the reload nodes)
    const feasibleNow = (!penalties && !sol.p.hasReloads) || allFeasible();
    seen++;
    if (feasibleNow) feasibleSeen++;
    const progress = stop.progress();
    const temperature = t0 * Math.pow(t1 / t0, progress);
    if (cost < currentCost - 1e-9 || cost < currentCost - temperature * Math.log(rng.next())) {
      current.save();
      currentCost = cost;
      currentUnassigned = sol.unassignedCount();
      currentFeasible = feasibleNow;
      if (feasibleNow && cost < bestCost - 1e-9) {
        // Kept as it is: no exhaustive local search (all neighbours, cross-exchange, SWAP*). Until
        // session 33 each new best got one, held to a tenth of the main search's evaluations. It
        // almost never improved a new best (2 of 20 runs in traces of four Solomon solves), and its
        // first runs, on code not yet compiled, cost 70-80 ms of CPU on 100 orders (28,000
        // evaluations that take 1-2 ms once warm): a sixth of what a 1 s solve gets beside a CPU
        // hog. Without it (bench/RESULTS.md, session 33 lead; cold CLI processes on the CPU clock,
        // A and B side by side, cores swapped per instance): Solomon 56 at 0.45 s 0.957 -> 0.792 %
        // (seeds 1-4: shorter on 92 pairs, longer on 58), at 1 s 0.313 -> 0.312 % (seeds 1-4: 58 /
        // 43); Homberger 200 at 10 s 0.160 -> 0.182 % (22 pairs, 5 / 5); Homberger 1000 `_3` at 10
        // s 3.68 -> 3.32 % (7 / 5); the city job (bench/coop-cpu.ts, 8 seeds) 614.0 -> 612.7 km.
        // The operators stay in the library (`exhaustiveOperators`).
        bestCost = cost;
        best = current.snapshot();
      }
    } else {
      current.restore((i) => ls.touch(i));
    }
    if (penalties && seen >= 50) {
      const share = feasibleSeen / seen;
      const before = weight;
      if (share < target - 0.05) weight = Math.min(1e4, weight * 2);
      else if (share > target + 0.05) weight = Math.max(1e-3, weight * 0.9);
      seen = feasibleSeen = 0;
      if (weight !== before) {
        setPenalised(true);
        currentCost = sol.cost();
      }
    }
  }
  if (penalties) setPenalised(false);
  sol.allowNewRoutes = true;
  sol.restore(best);
}
