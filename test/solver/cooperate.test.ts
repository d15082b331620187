/**
 * Two threads on one solve (solver/cooperate.ts), on the real worker pool: both search the whole
 * problem first, then each its own sector of the best routes; a second thread that gives way or
 * fails loses only its own work, a solve left alone goes on over the whole problem, and a start
 * that leaves orders out is never cut. Every answer goes through the independent checker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemInput, SolveOptions, SolveResult } from '../../src/model/input.js';
import { SolverPool } from '../../src/pool/pool.js';
import type { SolveTaskResult } from '../../src/pool/messages.js';
import { COOPERATE_FROM, cooperate, cooperates, DEPOT_SHARE, joinHalves, CROWDED_BELOW_SHARE, MIN_WHOLE_SHARE, sectorEpochs, WHOLE_SHARE, wholeShare, type CoopRunner } from '../../src/solver/cooperate.js';
import { assertFeasible } from '../helpers/checker.js';
import { randomProblem } from '../helpers/problems.js';

const pool = new SolverPool({ threads: 2 });
afterAll(() => pool.destroy());
// both threads started and loaded before the timed solves (a cold start takes about a second)
beforeAll(async () => {
  const tiny = randomProblem({ orders: 5, vehicles: 2, seed: 1 });
  await Promise.all([1, 2].map((seed) => pool.run({ problem: tiny, options: { iterations: 10, seed } })));
});

interface Call {
  orders: string[];
  vehicles: string[];
  options: SolveOptions;
  main: boolean;
  result: SolveResult | null;
}

/**
 * The real pool; `free` and `answer` decide what the solve is told and what a task gives back.
 * `share`: the answers say their threads got this share of a core (their `cpuMs` set from it, so
 * what the solve decides on the CPU it gets does not depend on the machine's load); by default they
 * say nothing of their CPU time. `processShare`: the runner tells the process's CPU time, that share
 * of each task's time (by default it does not).
 */
function recorder(free: (calls: Call[]) => number, answer: (call: Call, r: SolveResult) => SolveResult | null = (_, r) => r, share?: number, processShare?: number) {
  const calls: Call[] = [];
  // the process's CPU time, when the runner tells it: processShare of each task's time
  let processMs = 0;
  // a virtual clock for cooperate's epochs: a task that settles moves it to the task's start plus
  // its own time limit, as on an idle machine, so the epochs do not depend on the machine's load
  let virtualMs = 0;
  const clock = () => virtualMs;
  const runner: CoopRunner = {
    free: () => free(calls),
    ...(processShare === undefined ? {} : { processCpuMs: () => processMs }),
    run: async (problem, options, main) => {
      const call: Call = { orders: problem.orders.map((o) => o.id), vehicles: problem.vehicles.map((v) => v.id), options, main, result: null };
      calls.push(call);
      const startedMs = virtualMs;
      try {
        const { cpuMs: _measured, ...r } = (await pool.run({ problem, options })) as SolveTaskResult;
        call.result = answer(call, share === undefined ? r : { ...r, cpuMs: r.stats.elapsedMs * share } as SolveResult);
        processMs += r.stats.elapsedMs * (processShare ?? 0);
      } finally {
        virtualMs = Math.max(virtualMs, startedMs + (options.timeLimit ?? 0) * 1000);
      }
      return call.result;
    },
  };
  return { calls, runner, clock };
}

// 420 orders with windows on a plane, routes of about 15 (capacity): about 28 routes
const input = randomProblem({ orders: 420, vehicles: 40, seed: 7, capacity: 160, windows: true });
const ids = input.orders.map((o) => o.id).sort();
const sectorCalls = (calls: Call[]) => calls.filter((c) => c.orders.length < input.orders.length);

/** Feasible by the independent checker, every order served once. */
function expectComplete(problem: ProblemInput, r: SolveResult): void {
  assertFeasible(problem, r);
  expect(r.unassigned).toEqual([]);
  expect(r.routes.flatMap((x) => x.stops.map((s) => s.orderId)).sort()).toEqual(ids);
}

describe('cooperate', () => {
  it('cooperates from COOPERATE_FROM orders on two threads, with room for two sector epochs', () => {
    expect(cooperates(input, {}, 2, 4.5)).toBe(true);
    expect(cooperates(input, {}, 1, 4.5)).toBe(false);
    expect(cooperates(input, { objective: 'vehicles' }, 2, 4.5)).toBe(false);
    expect(cooperates({ ...input, orders: input.orders.slice(0, COOPERATE_FROM - 1) }, {}, 2, 4.5)).toBe(false);
    // the last 30 % of the budget in epochs of 0.4 s: 4.5 s gives three, 60 s the most (29)
    expect(wholeShare(4.5)).toBe(WHOLE_SHARE);
    expect(sectorEpochs(4.5)).toBe(3);
    expect(sectorEpochs(60)).toBe(29);
    // a shorter budget ends the whole epoch sooner, so that two sector epochs follow: 2.5 s and 2 s
    // give two; below 1.78 s (fewer than two after MIN_WHOLE_SHARE) none: no cooperation
    for (const t of [2.5, 2, 1.8]) {
      expect(wholeShare(t)).toBeLessThan(WHOLE_SHARE);
      expect(wholeShare(t)).toBeGreaterThanOrEqual(MIN_WHOLE_SHARE);
      expect(sectorEpochs(t)).toBe(2);
    }
    expect(sectorEpochs(1.7)).toBe(0);
    expect(cooperates(input, {}, 2, 1.7)).toBe(false);
    expect(cooperates(input, {}, 2, 1.8)).toBe(true);
    // a plan's own share is kept as given
    expect(wholeShare(2, { wholeShare: 0.3 })).toBe(0.3);
  });

  it('searches the whole problem on both threads, then sectors of the best routes on each thread; the answer is complete and feasible', async () => {
    const { calls, runner, clock } = recorder(() => 2);
    const r = await cooperate(input, { timeLimit: 2.5, seed: 3 }, runner, clock);
    expectComplete(input, r);
    // the first epoch: both threads on the whole problem, other seeds, the main one first
    const [a, b] = calls;
    expect([a.orders.length, b.orders.length]).toEqual([input.orders.length, input.orders.length]);
    expect([a.main, b.main]).toEqual([true, false]);
    expect(a.options.seed).not.toBe(b.options.seed);
    expect(a.options.timeLimit).toBeCloseTo(2.5 * wholeShare(2.5), 6);
    // then sector epochs, two tasks each: every order and vehicle in exactly one of the two,
    // warm-started on its own routes, the cooling schedule going on where the epoch starts
    const sectors = sectorCalls(calls);
    expect(sectors.length).toBeGreaterThanOrEqual(2);
    expect(sectors.length % 2).toBe(0);
    expect(calls.slice(2)).toEqual(sectors);
    for (let i = 0; i < sectors.length; i += 2) {
      const [p, q] = [sectors[i], sectors[i + 1]];
      expect([p.main, q.main]).toEqual([true, false]);
      expect([...p.orders, ...q.orders].sort()).toEqual(ids);
      expect(p.vehicles.filter((v) => q.vehicles.includes(v))).toEqual([]);
      for (const c of [p, q]) {
        expect(c.options.initialRoutes!.flatMap((x) => x.orderIds).sort()).toEqual([...c.orders].sort());
        expect(c.options.schedule!.from).toBeGreaterThanOrEqual(wholeShare(2.5) - 0.05);
        expect(c.options.schedule!.to).toBeGreaterThan(c.options.schedule!.from);
      }
    }
    // the sectors' work counts: shorter than the first epoch's better answer
    const firstBest = Math.min(a.result!.distance, b.result!.distance);
    expect(r.distance).toBeLessThan(firstBest - 1e-6);
  });

  it('a second thread that fails loses only its sector: the answer stays complete and feasible', async () => {
    const { calls, runner, clock } = recorder(
      () => 2,
      (call, r) => (call.main || call.orders.length === input.orders.length ? r : null),
    );
    const r = await cooperate(input, { timeLimit: 2.5, seed: 5 }, runner, clock);
    assertFeasible(input, r);
    expect(r.routes.flatMap((x) => x.stops.map((s) => s.orderId)).sort()).toEqual(ids);
    const sectors = sectorCalls(calls);
    expect(sectors.length).toBeGreaterThanOrEqual(2);
    expect(sectors.filter((c) => !c.main).every((c) => c.result === null)).toBe(true);
  });

  it('left alone after the first epoch (the other thread taken), it searches the rest of the budget on the whole problem from its best', async () => {
    // two threads free for the first epoch, one from then on
    const { calls, runner, clock } = recorder((seen) => (seen.length < 2 ? 2 : 1));
    const r = await cooperate(input, { timeLimit: 2, seed: 2 }, runner, clock);
    assertFeasible(input, r);
    expect(calls).toHaveLength(3);
    const last = calls[2];
    expect(last.main).toBe(true);
    expect(last.orders).toHaveLength(input.orders.length);
    expect(last.options.initialRoutes!.flatMap((x) => x.orderIds).sort()).toEqual(ids);
    expect(last.options.schedule!.to).toBe(1);
    const firstBest = Math.min(calls[0].result!.distance, calls[1].result!.distance);
    expect(r.distance).toBeLessThanOrEqual(firstBest + 1e-6);
  });

  it('crowded in the whole epoch (its two threads got less than CROWDED_BELOW_SHARE of a core each), it goes on alone on the whole problem from its best, with no sectors', async () => {
    const { calls, runner, clock } = recorder(() => 2, undefined, CROWDED_BELOW_SHARE / 2);
    const r = await cooperate(input, { timeLimit: 2.5, seed: 8 }, runner, clock);
    expectComplete(input, r);
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => c.orders.length)).toEqual([ids.length, ids.length, ids.length]);
    const last = calls[2];
    expect(last.main).toBe(true);
    expect(last.options.timeLimit).toBeCloseTo(2.5 * (1 - wholeShare(2.5)), 2);
    expect(last.options.schedule!.to).toBe(1);
    const firstBest = Math.min(calls[0].result!.distance, calls[1].result!.distance);
    expect(r.distance).toBeLessThanOrEqual(firstBest + 1e-6);
  });

  it('never cuts a solution that leaves orders out: they stay listed as unassigned', async () => {
    // one order heavier than every vehicle: no plan serves it
    const heavy: ProblemInput = { ...input, orders: input.orders.map((o, i) => (i === 0 ? { ...o, weight: 10_000 } : o)) };
    const { calls, runner, clock } = recorder(() => 2);
    const r = await cooperate(heavy, { timeLimit: 2, seed: 1 }, runner, clock);
    assertFeasible(heavy, r);
    expect(r.unassigned.map((u) => u.orderId)).toEqual([heavy.orders[0].id]);
    expect(sectorCalls(calls)).toEqual([]);
    // the whole problem on both threads again, for the rest of the budget
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.every((c) => c.orders.length === heavy.orders.length)).toBe(true);
  });
});

describe('cooperate from two depots', () => {
  // the same orders, the vehicles in turn at the depot in the middle and at one in a corner
  const coordinates: Array<[number, number]> = input.matrix.kind === 'euclidean' ? [...input.matrix.coordinates, [90, 90]] : [];
  const corner = coordinates.length - 1;
  const twoDepots: ProblemInput = {
    ...input,
    matrix: { kind: 'euclidean', coordinates },
    depots: [...input.depots, { id: 'corner', location: corner }],
    vehicles: input.vehicles.map((v, k) => (k % 2 === 1 ? { ...v, startDepot: 'corner', endDepot: 'corner' } : v)),
  };
  const byDepot = (c: Call) => [...new Set(c.vehicles.map((id) => twoDepots.vehicles.find((v) => v.id === id)!.startDepot))];

  it('gives each thread the half of the day nearest its depot first, then both the whole day from the halves; the answer is complete and feasible', async () => {
    const { calls, runner, clock } = recorder(() => 2);
    const r = await cooperate(twoDepots, { timeLimit: 2.5, seed: 4 }, runner, clock);
    expectComplete(twoDepots, r);
    const [a, b, c, d] = calls;
    // the halves: every order and vehicle in exactly one, the vehicles of one depot each
    expect([a.main, b.main]).toEqual([true, false]);
    expect([...a.orders, ...b.orders].sort()).toEqual(ids);
    expect(a.orders.length).toBeLessThan(ids.length);
    expect(byDepot(a)).toEqual(['d']);
    expect(byDepot(b)).toEqual(['corner']);
    expect(a.options.timeLimit).toBeCloseTo(2.5 * DEPOT_SHARE, 6);
    expect(a.options.seed).not.toBe(b.options.seed);
    // then the whole day on both threads, warm-started on the routes of both halves, until wholeShare
    for (const w of [c, d]) {
      expect(w.orders).toHaveLength(ids.length);
      const warm = w.options.initialRoutes!;
      expect(warm.flatMap((x) => x.orderIds).sort()).toEqual(
        [...a.result!.routes, ...b.result!.routes].flatMap((x) => x.stops.map((s) => s.orderId)).sort(),
      );
      expect(w.options.schedule!.from).toBeGreaterThanOrEqual(DEPOT_SHARE - 0.05);
      expect(w.options.schedule!.to).toBeCloseTo(wholeShare(2.5), 1);
    }
    expect([c.main, d.main]).toEqual([true, false]);
    expect(c.options.seed).not.toBe(d.options.seed);
    expect([a.options.seed, b.options.seed]).not.toContain(c.options.seed);
  });

  it('a half whose thread gives way is planned on the whole day from the other half: still complete and feasible', async () => {
    const { calls, runner, clock } = recorder(
      () => 2,
      (call, r) => (call.main || call.orders.length === ids.length ? r : null),
    );
    const r = await cooperate(twoDepots, { timeLimit: 2.5, seed: 6 }, runner, clock);
    expectComplete(twoDepots, r);
    expect(calls[1].result).toBeNull();
    expect(calls[2].orders).toHaveLength(ids.length);
    expect(calls[2].options.initialRoutes!.flatMap((x) => x.orderIds).sort()).toEqual(calls[0].result!.routes.flatMap((x) => x.stops.map((s) => s.orderId)).sort());
  });
  it('crowded (the halves\' threads got less than CROWDED_BELOW_SHARE of a core each): the rest of the budget on one thread, the whole day from the halves; complete and feasible', async () => {
    // a quarter of the vehicles at the corner, where fewer orders are: each half serves all its own
    const balanced: ProblemInput = { ...twoDepots, vehicles: input.vehicles.map((v, k) => (k % 4 === 1 ? { ...v, startDepot: 'corner', endDepot: 'corner' } : v)) };
    const share = CROWDED_BELOW_SHARE - 0.1;
    const { calls, runner, clock } = recorder(() => 2, undefined, share);
    const r = await cooperate(balanced, { timeLimit: 2.5, seed: 4 }, runner, clock);
    expectComplete(balanced, r);
    // the two halves, then one task: the whole day, warm-started on both halves' routes, to the end
    expect(calls).toHaveLength(3);
    const [a, b, c] = calls;
    expect(a.orders.length + b.orders.length).toBe(ids.length);
    expect(c.orders).toHaveLength(ids.length);
    expect(c.main).toBe(true);
    expect(c.options.timeLimit).toBeCloseTo(2.5 * (1 - DEPOT_SHARE), 2);
    expect(c.options.schedule!.to).toBe(1);
    expect(c.options.initialRoutes!.flatMap((x) => x.orderIds).sort()).toEqual([...a.result!.routes, ...b.result!.routes].flatMap((x) => x.stops.map((s) => s.orderId)).sort());
    // the same machine at a share of a core just above the line runs the whole epoch on both threads, then sectors
    const idle = recorder(() => 2, undefined, CROWDED_BELOW_SHARE + 0.05);
    await cooperate(balanced, { timeLimit: 2.5, seed: 4 }, idle.runner, idle.clock);
    expect(idle.calls.slice(2, 4).map((c) => c.orders.length)).toEqual([ids.length, ids.length]);
    expect(idle.calls.length).toBeGreaterThan(5);
    expect(idle.calls.slice(4).every((c) => c.orders.length < ids.length)).toBe(true);
    // threads slowed by their own process (its compiler: the process got a core a task) are not crowded
    const own = recorder(() => 2, undefined, share, 1);
    await cooperate(balanced, { timeLimit: 2.5, seed: 4 }, own.runner, own.clock);
    expect(own.calls.slice(2, 4).map((c) => c.orders.length)).toEqual([ids.length, ids.length]);
    // by another's (the process too got less than the line), they are
    const other = recorder(() => 2, undefined, share, share);
    await cooperate(balanced, { timeLimit: 2.5, seed: 4 }, other.runner, other.clock);
    expect(other.calls.map((c) => c.orders.length).slice(2)).toEqual([ids.length]);
    // and a plan that never goes alone, crowded or not
    const never = recorder(() => 2, undefined, share);
    await cooperate(balanced, { timeLimit: 2.5, seed: 4 }, never.runner, never.clock, { crowdedBelowShare: 0 });
    expect(never.calls.slice(2, 4).map((c) => c.orders.length)).toEqual([ids.length, ids.length]);
  });

  it('joinHalves: the halves\' routes as one answer in the day\'s vehicle order, only when both came back and served all their orders', () => {
    const route = (vehicleId: string, orderId: string, distance: number) => ({ vehicleId, start: 0, end: 1, stops: [{ orderId } as SolveResult['routes'][number]['stops'][number]], distance, duration: 1, load: { weight: 0, volume: 0 } });
    const [v0, v1, v2] = twoDepots.vehicles.map((v) => v.id);
    const half = (routes: SolveResult['routes'], unassigned: SolveResult['unassigned'] = []): SolveResult => ({ routes, distance: 0, duration: 0, vehicles: routes.length, unassigned, stats: { elapsedMs: 1, iterations: 3 } });
    const joined = joinHalves(twoDepots, [half([route(v1, 'a', 5)]), half([route(v2, 'b', 7), route(v0, 'c', 2)])])!;
    expect(joined.routes.map((r) => r.vehicleId)).toEqual([v0, v1, v2]);
    expect([joined.distance, joined.duration, joined.vehicles, joined.unassigned]).toEqual([14, 3, 3, []]);
    expect(joinHalves(twoDepots, [half([route(v1, 'a', 5)]), null])).toBeNull();
    expect(joinHalves(twoDepots, [half([route(v1, 'a', 5)]), half([], [{ orderId: 'b', reason: 'capacity' }])])).toBeNull();
  });
});
