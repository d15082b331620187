/**
 * `--solver-nice` (src/pool/worker-nice.ts, issue 38): in `serve` and `worker` the solver threads
 * run at a lower CPU priority than the event loop. Read from the kernel on real processes: each
 * thread's nice value is field 19 of /proc/PID/task/TID/stat (Linux only).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDb, sleep, startServe, startWorker } from './serve.js';

const linux = process.platform === 'linux';
const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** Every thread of the process: its id, name and nice value. */
function threads(pid: number): Array<{ tid: number; name: string; nice: number }> {
  const out: Array<{ tid: number; name: string; nice: number }> = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // "TID (NAME) STATE PPID ...": the name may hold spaces and parentheses; fields after it from 3
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    out.push({ tid: Number(tid), name: stat.slice(stat.indexOf('(') + 1, close), nice: Number(fields[19 - 3]) });
  }
  return out;
}

/** Waits (at most 60 s) until `count` threads of the process run at `nice`; the threads then. */
async function untilNiced(pid: number, nice: number, count: number) {
  for (let i = 0; i < 600; i++) {
    const now = threads(pid);
    if (now.filter((t) => t.nice === nice).length >= count) return now;
    await sleep(100);
  }
  throw new Error(`not ${count} threads at nice ${nice}: ${JSON.stringify(threads(pid))}`);
}

describe.skipIf(!linux)('solver threads below the event loop', () => {
  it('serve: by default the solver threads run 10 nice levels below the main thread, which keeps its own', async () => {
    const { db } = seedDb();
    const s = await startServe(db, ['--workers', '2']);
    stops.push(() => s.kill('SIGKILL'));
    const pid = s.child.pid!;
    const main = threads(pid).find((t) => t.tid === pid)!;
    const solver = Math.min(19, main.nice + 10);
    const all = await untilNiced(pid, solver, 2);
    expect(all.find((t) => t.tid === pid)!.nice).toBe(main.nice);
    // the two solver threads, and no other thread of the process (the loop, libuv's, V8's)
    expect(all.filter((t) => t.nice === solver).length, JSON.stringify(all)).toBe(2);
    expect(await s.kill('SIGTERM')).toBe(0);
  });

  it('worker --solver-nice 5: its solver threads at 5 below; --solver-nice 0: all at the main thread\'s', async () => {
    const { db } = seedDb();
    const w = await startWorker(db, ['--workers', '1', '--solver-nice', '5']);
    stops.push(() => w.kill('SIGKILL'));
    const base = threads(w.pid).find((t) => t.tid === w.pid)!.nice;
    const all = await untilNiced(w.pid, Math.min(19, base + 5), 1);
    expect(all.filter((t) => t.nice === Math.min(19, base + 5)).length, JSON.stringify(all)).toBe(1);
    expect(await w.kill('SIGTERM')).toBe(0);

    const s = await startServe(db, ['--workers', '1', '--solver-nice', '0']);
    stops.push(() => s.kill('SIGKILL'));
    // ready: the solver thread is up (and would have lowered itself by now)
    for (let r = await fetch(`${s.base}/readyz`); r.status !== 200; r = await fetch(`${s.base}/readyz`)) await sleep(100);
    const pid = s.child.pid!;
    const mainNice = threads(pid).find((t) => t.tid === pid)!.nice;
    expect(new Set(threads(pid).map((t) => t.nice))).toEqual(new Set([mainNice]));
    expect(await s.kill('SIGTERM')).toBe(0);
  });

  it('a bad --solver-nice is a usage error (exit 2)', async () => {
    const { db } = seedDb();
    await expect(startServe(db, ['--solver-nice', '20'])).rejects.toThrow(/serve exited \(2\).*--solver-nice: expected nice levels 0 to 19/s);
  });
});
