import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { currentThreadId, markTaskBegun, overrunVerdict, taskCpuBuffer, taskCpuMs, threadCpuKnowable, threadCpuMsOf } from '../../src/pool/thread-cpu.js';

describe('a thread\'s own CPU time (the overrun guard tells stuck from starved by it)', () => {
  it('the rule: abort at the cap whatever; a begun task that used its limit of CPU is stuck; one that did not, or has not begun, is waited for', () => {
    const base = { elapsedMs: 600, limitMs: 500, capMs: 5000, begunKnowable: true };
    expect(overrunVerdict({ ...base, cpuMs: 520 })).toBe('abort');
    expect(overrunVerdict({ ...base, cpuMs: 40 })).toBe('wait');
    expect(overrunVerdict({ ...base, cpuMs: undefined })).toBe('wait');
    expect(overrunVerdict({ ...base, cpuMs: 40, elapsedMs: 5000 })).toBe('abort');
    expect(overrunVerdict({ ...base, cpuMs: undefined, begunKnowable: false })).toBe('abort');
  });

  it.runIf(threadCpuKnowable)('reads the CPU time of another thread of this process: a spinning one grows, a blocked one does not', async () => {
    // a thread that reports its id, spins until it has used 300 ms more of CPU (its own count, read
    // from the same schedstat as the reader, so a
    // busy machine only makes it slower), blocks 400 ms, then stays alive idle until terminated
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { readlinkSync, readFileSync } = require('node:fs');
      const link = readlinkSync('/proc/thread-self');
      const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
      parentPort.postMessage(Number(link.slice(link.lastIndexOf('/') + 1)));
      parentPort.once('message', () => {
        const end = cpu() + 300; while (cpu() < end) {}
        parentPort.postMessage('spun');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
        parentPort.postMessage('slept');
        parentPort.on('message', () => {});
      });`;
    const worker = new Worker(code, { eval: true });
    const next = () => new Promise<unknown>((resolve) => worker.once('message', resolve));
    try {
      const tid = (await next()) as number;
      expect(tid).toBeGreaterThan(0);
      expect(tid).not.toBe(currentThreadId());
      const buffer = taskCpuBuffer();
      expect(taskCpuMs(buffer)).toBeUndefined(); // not begun
      markTaskBegun(buffer, tid);
      const spun = next();
      worker.postMessage('go');
      await spun;
      const afterSpin = taskCpuMs(buffer)!;
      expect(afterSpin).toBeGreaterThanOrEqual(299); // 300 ms of CPU spun
      await next(); // 400 ms blocked
      expect(taskCpuMs(buffer)! - afterSpin, `after the spin ${afterSpin} ms, after the block ${taskCpuMs(buffer)} ms`).toBeLessThan(100);
      expect(threadCpuMsOf(tid)).toBeGreaterThanOrEqual(afterSpin);
    } finally {
      await worker.terminate();
    }
    expect(threadCpuMsOf(999_999_999)).toBeUndefined();
  });
});
