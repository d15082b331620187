/**
 * The thread CPU clock (src/pool/thread-clock.ts): it never runs backwards, and it counts this
 * thread's CPU time, which the process's CPU time (every thread) always includes.
 */
import { describe, expect, it } from 'vitest';
import { threadCpuMs } from '../../src/pool/thread-clock.js';

describe('threadCpuMs', () => {
  it('is monotonic, moves while the thread works, and never passes the process CPU time it is part of', () => {
    const u0 = process.cpuUsage();
    const t0 = threadCpuMs();
    let last = t0;
    let x = 0;
    while (threadCpuMs() - t0 < 30) {
      for (let i = 0; i < 10_000; i++) x += i & 7;
      const now = threadCpuMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    const u = process.cpuUsage(u0);
    expect(x).toBeGreaterThan(0);
    // the thread's 30 ms are part of the process's time (the clock's own lag is at most 1 ms)
    expect((u.user + u.system) / 1000).toBeGreaterThanOrEqual(threadCpuMs() - t0 - 1);
  });
});
