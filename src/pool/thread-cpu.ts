/**
 * A solver thread's own CPU time, so that the scheduler's overrun guard can tell a solve that is
 * stuck (it burns CPU past its budget) from one that is starved (it waits for a core).
 *
 * Why: solver threads run below the event loop (`--solver-nice`, worker-nice.ts). On a host whose
 * cores are busy with other work, such a thread may get a few per cent of a core, and its start
 * (the worker's module load) and the end of its search can take far longer on the wall clock than
 * its budget plus the grace. A wall-clock guard alone then fails a healthy job as "did not finish
 * within its time budget", at the busiest hour. A stuck solve spins, so its CPU time grows; a
 * starved one's does not.
 *
 * Linux only (`/proc/thread-self`, `/proc/self/task/TID/schedstat`, parsed as thread-clock.ts
 * parses a thread's own); elsewhere every read answers undefined and the guard stays on the wall
 * clock, as before.
 *
 * The task's `cpu` buffer (SolveTask.cpu) holds two Float64 values that the thread writes when it
 * begins the task: its thread id and its CPU time then (ms). 0 means "not begun yet".
 */
import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';
import { schedstatMs } from './thread-clock.js';

const buf = Buffer.alloc(64);

/** This thread's Linux thread id, or 0 where there is no /proc/thread-self. */
export function currentThreadId(): number {
  if (process.platform !== 'linux') return 0;
  try {
    const link = readlinkSync('/proc/thread-self'); // "PID/task/TID"
    const tid = Number(link.slice(link.lastIndexOf('/') + 1));
    return Number.isInteger(tid) && tid > 0 ? tid : 0;
  } catch {
    return 0;
  }
}

/** CPU time (ms) of thread `tid` of this process, or undefined if it cannot be read. */
export function threadCpuMsOf(tid: number): number | undefined {
  if (!(tid > 0)) return undefined;
  let fd: number;
  try {
    fd = openSync(`/proc/self/task/${tid}/schedstat`, 'r');
  } catch {
    return undefined; // the thread has exited, or no /proc
  }
  try {
    const n = readSync(fd, buf, 0, buf.length, 0);
    return n > 0 ? schedstatMs(buf, n) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A fresh buffer for SolveTask.cpu. */
export function taskCpuBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(16);
}

/** Called by the thread that begins a task: writes its thread id and its CPU time now. */
export function markTaskBegun(buffer: SharedArrayBuffer | undefined, tid = currentThreadId()): void {
  if (buffer === undefined || tid === 0) return;
  const cpu = threadCpuMsOf(tid);
  if (cpu === undefined) return;
  const view = new Float64Array(buffer);
  view[1] = cpu;
  view[0] = tid; // written last: a reader that sees the id sees the start time too
}

/**
 * CPU time (ms) the thread has spent on the task since it began it; undefined if it has not begun,
 * or its CPU time cannot be read here.
 */
export function taskCpuMs(buffer: SharedArrayBuffer): number | undefined {
  const view = new Float64Array(buffer);
  const tid = view[0]!;
  if (tid === 0) return undefined;
  const now = threadCpuMsOf(tid);
  return now === undefined ? undefined : Math.max(0, now - view[1]!);
}

/** What the overrun guard does when its timer fires. */
export type OverrunVerdict = 'abort' | 'wait';

/**
 * The overrun guard's rule. `elapsedMs`: wall time since the task was handed to the pool;
 * `limitMs`: the time limit plus the grace; `capMs`: the wall time after which a task is stopped
 * whatever its CPU time says; `cpuMs`: the thread's CPU time on the task (undefined: not begun, or
 * not measurable); `begunKnowable`: whether this platform reports a begun task at all.
 * A task that has used its limit of CPU is stuck and is stopped; one that has not is starved (or
 * still waiting for its thread to start) and gets more wall time, up to the cap.
 */
export function overrunVerdict(o: { elapsedMs: number; limitMs: number; capMs: number; cpuMs: number | undefined; begunKnowable: boolean }): OverrunVerdict {
  if (o.elapsedMs >= o.capMs) return 'abort';
  if (o.cpuMs === undefined) return o.begunKnowable ? 'wait' : 'abort';
  return o.cpuMs >= o.limitMs ? 'abort' : 'wait';
}

/** Whether this process can read its threads' CPU time (decided once). */
export const threadCpuKnowable: boolean = process.platform === 'linux' && threadCpuMsOf(currentThreadId()) !== undefined;
