/**
 * The CPU time of the calling thread, in milliseconds: the clock of a solve that is given a budget
 * of CPU time instead of wall time (a task with `cpuClock`, worker.ts). Benchmarks use it to
 * compare variants on a machine shared with other work: a thread that waits for a core does not
 * use its budget while it waits, so two runs at the same budget did about the same work whatever
 * the load (issue 42: `bench/jobs.ts --cpu-clock`).
 *
 * On Linux, `/proc/thread-self/schedstat` gives the thread's time on a CPU in nanoseconds (one
 * pread of a file kept open, about 2 µs). Elsewhere `process.cpuUsage()`, which counts every
 * thread of the process, is the fallback. The search asks its clock very often (inner loops check
 * their deadline), so the file is read at most once per READ_EVERY_MS of wall time and the last
 * value is returned in between: the clock may lag by that much, and never runs backwards.
 * Module state is per thread (every worker thread loads its own copy of this module).
 * (thread-cpu.ts reads another thread's time from the same file, through `schedstatMs`, for the
 * scheduler's overrun guard.)
 */
import { openSync, readSync } from 'node:fs';

/** Wall time between two reads of the thread's CPU time, ms. */
const READ_EVERY_MS = 1;

let fd: number | undefined;
const buf = Buffer.alloc(64);
let lastWall = -Infinity;
let last = 0;

/** The CPU time of the whole process so far, ms: every thread's (the pool's, the main thread's, the engine's own). */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function readThreadCpuMs(): number {
  if (fd === undefined) {
    try {
      fd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      fd = -1;
    }
  }
  if (fd < 0) return processCpuMs();
  return schedstatMs(buf, readSync(fd, buf, 0, buf.length, 0));
}

/** The time on a CPU (ms) in the first `n` bytes of a `schedstat` file: its first field, in ns. */
export function schedstatMs(bytes: Uint8Array, n: number): number {
  let ns = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c < 48 || c > 57) break;
    ns = ns * 10 + (c - 48);
  }
  return ns / 1e6;
}

/** This thread's CPU time in ms (monotonic; its zero is arbitrary), read at most once a millisecond. */
export function threadCpuMs(): number {
  const wall = globalThis.performance.now();
  if (wall - lastWall >= READ_EVERY_MS) {
    lastWall = wall;
    last = Math.max(last, readThreadCpuMs());
  }
  return last;
}
