/**
 * src/cli/lifecycle.ts: with DP_EXIT_WITH_PARENT=1, `serve` and `worker` shut down when the process
 * that started them dies without a word (SIGKILL), so that a killed test run (or a supervisor that
 * crashed) leaves no server burning CPU; without it they live on, as a daemon should.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../helpers/cli-command.js';

const dir = mkdtempSync(join(tmpdir(), 'dp-lifecycle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A middle process that starts the command with stdout to a pipe of its own, reports the child's
 * pid and ready line to us, then waits forever (until we SIGKILL it).
 */
function startThroughParent(command: string[], env: Record<string, string | undefined>) {
  const script = `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, ${JSON.stringify(command)}, { stdio: ['ignore', 'pipe', 'inherit'], env: ${JSON.stringify(env)} });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (/listening on|worker ready/.test(out)) { process.stdout.write('CHILD ' + child.pid + '\\n'); out = ''; }
    });
    setInterval(() => {}, 1 << 30);
  `;
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  parent.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const child = new Promise<number>((resolve, reject) => {
    let out = '';
    parent.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /CHILD (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    parent.on('exit', () => reject(new Error(`the parent exited first: ${err.slice(-2000)}`)));
  });
  return { parent, child, stderr: () => err };
}

/** Waits until the pid is gone; false if it is still there after `ms`. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!exists(pid)) return true;
    await sleep(100);
  }
  return !exists(pid);
}

describe('DP_EXIT_WITH_PARENT', () => {
  for (const command of ['serve', 'worker'] as const) {
    it(`${command} shuts down when its parent is killed with SIGKILL`, async () => {
      const db = join(dir, `${command}-watch.db`);
      const args = command === 'serve' ? ['serve', '--host', '127.0.0.1', '--port', '0', '--db', db] : ['worker', '--db', db];
      const run = startThroughParent([...cliArgs(), ...args, '--log-level', 'info'], { ...process.env, DP_EXIT_WITH_PARENT: '1' });
      const pid = await run.child;
      expect(exists(pid)).toBe(true);
      run.parent.kill('SIGKILL');
      // the watch looks every second; 30 s is a bound for a loaded machine, not a speed target
      expect(await goneWithin(pid, 30_000)).toBe(true);
      // it went through the ordinary shutdown, which logs why
      expect(run.stderr()).toMatch(/"signal":"parent exited"[^\n]*"msg":"shutting down"|"msg":"shutting down"[^\n]*"signal":"parent exited"/);
    });
  }

  it('without it, serve outlives its parent (a daemon is not tied to whoever started it)', async () => {
    const db = join(dir, 'serve-free.db');
    const env = { ...process.env };
    delete env.DP_EXIT_WITH_PARENT;
    const run = startThroughParent([...cliArgs(), 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db, '--log-level', 'warn'], env);
    const pid = await run.child;
    run.parent.kill('SIGKILL');
    try {
      // three parent checks' worth of time: with the watch on, it would have gone
      await sleep(3_500);
      expect(exists(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGTERM');
      expect(await goneWithin(pid, 30_000)).toBe(true);
    }
  });
});
