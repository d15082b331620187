/**
 * The solver threads' CPU priority. In an API process (`serve`) the event loop answers requests
 * and the solver threads are batch work: when both want a core, the loop should get it, or every
 * request waits behind a solve that has seconds to spare (issue 38: on 2 cores, the event loop, a
 * solver thread and anything else runnable queue for a core, and the loop's delay doubled).
 *
 * On Linux a thread's nice value is its own: `setpriority(PRIO_PROCESS, 0, n)`, which
 * `os.setPriority(0, n)` calls, changes the calling thread only. So each solver thread lowers its
 * own priority when its module loads (worker.ts), `offset` levels below the thread that started
 * it (the main thread's value, whatever the process was started with), at most 19. Raising it back
 * needs CAP_SYS_NICE; a thread is never raised. Elsewhere (macOS, Windows) the same call changes
 * the whole process, so nothing is done there.
 *
 * The offset travels in the environment (a worker thread starts with a copy of the process's
 * environment), set by `serve` and `worker` from `--solver-nice` before their pool starts threads.
 */
import { getPriority, setPriority } from 'node:os';

/** The variable `setSolverNice` sets and each solver thread reads when it loads. */
export const SOLVER_NICE_ENV = 'DELIVERY_PLANNER_SOLVER_NICE';

/** `serve` and `worker`: solver threads run this many nice levels below the event loop. */
export const DEFAULT_SOLVER_NICE = 10;

/** Solver threads started from now on in this process run `offset` levels below their starter (0: as it). */
export function setSolverNice(offset: number): void {
  if (!Number.isInteger(offset) || offset < 0 || offset > 19) throw new RangeError(`solver nice: expected 0 to 19, got ${offset}`);
  process.env[SOLVER_NICE_ENV] = String(offset);
}

/**
 * Called once in each solver thread as it loads: lowers this thread's priority by the offset in
 * the environment, if any. Returns the thread's nice value after (undefined: left as it was).
 */
export function applySolverNice(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[SOLVER_NICE_ENV];
  if (raw === undefined || !/^\d{1,2}$/.test(raw) || Number(raw) === 0 || process.platform !== 'linux') return undefined;
  try {
    const now = getPriority(0);
    const target = Math.min(19, now + Number(raw));
    if (target > now) setPriority(0, target);
    return getPriority(0);
  } catch {
    return undefined; // a sandbox that refuses setpriority: the thread runs as it was
  }
}
