/**
 * The solver warm-up of a starting service: a made-up day (sample-day.ts) planned once on the
 * pool's threads and thrown away, so that the first real job runs on code the JIT has compiled
 * (SolveScheduler.warmUp: it gives way to the first solve at once). The day is built the way a
 * job builds its own (sample-day.ts `dayProblem`: buildProblem, a haversine matrix): the same objects, the same paths.
 */
import type { ProblemInput } from '../model/input.js';
import { dayProblem, sampleDay } from './sample-day.js';

/** Seconds the warm-up plans for (the day's budget as a job's; its threads are stoppable). */
export const WARM_UP_SEC = 2;

/** Orders of the warm-up day: enough for the cooperative solve of two threads (COOPERATE_FROM). */
const WARM_UP_ORDERS = 450;

/** The warm-up day's problem (seed 7: not the benchmarks' city). */
export function warmUpProblem(): Promise<ProblemInput> {
  return dayProblem(sampleDay(7, WARM_UP_ORDERS));
}
