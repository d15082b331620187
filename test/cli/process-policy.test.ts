/** The process-wide policy for uncaught errors, in real child processes. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isOperational } from '../../src/cli/process-policy.js';
import { cliArgs } from '../helpers/cli-command.js';

const policy = fileURLToPath(new URL('../../src/cli/process-policy.ts', import.meta.url));

function child(body: string) {
  const script = `import { installProcessPolicy } from ${JSON.stringify(policy)};\ninstallProcessPolicy();\n${body}`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
}

/**
 * Closes a started child's stdout and stderr at once, as a reader that went away would; resolves
 * to its exit code, or to 'still running' (and kills it) if it has not ended `withinMs` after that.
 */
async function withOutputGone(child: ChildProcess, withinMs: number): Promise<number | string> {
  child.stdout!.destroy();
  child.stderr!.destroy();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('still running');
    }, withinMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? String(signal));
    });
  });
}

describe('process policy for errors nobody caught', () => {
  it('tells operational faults from programming errors', () => {
    expect(isOperational(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isOperational(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isOperational(new DOMException('late', 'TimeoutError'))).toBe(true);
    expect(isOperational(new TypeError('x is not a function'))).toBe(false);
    expect(isOperational('a string')).toBe(false);
    expect(isOperational(Object.assign(new Error('odd'), { code: 'x'.repeat(10_000) }))).toBe(false);
  });

  it('a busy database thrown from a timer is logged and the process goes on (exit 0)', () => {
    const r = child(`
      setTimeout(() => { throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }); }, 1);
      Promise.reject(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }));
      setTimeout(() => process.stdout.write('still here\\n'), 100);`);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('still here\n');
    const lines = r.stderr.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.err.code).sort()).toEqual(['SQLITE_BUSY', 'SQLITE_FULL']);
    expect(lines.every((l) => l.level === 'error')).toBe(true);
  });

  it('a programming error exits 1 with one JSON line', () => {
    const r = child(`
      Promise.resolve().then(() => { (undefined as any).call(); });
      setTimeout(() => process.stdout.write('should not run\\n'), 2000);`.replace(' as any', ''));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const [l] = r.stderr.trim().split('\n').map((x) => JSON.parse(x));
    expect(l).toMatchObject({ level: 'fatal', err: { type: 'TypeError' } });
  });

  it('output whose reader went away ends the process (exit 1), it does not write the failure forever', async () => {
    const script = `import { installProcessPolicy } from ${JSON.stringify(policy)};\ninstallProcessPolicy();\nsetInterval(() => process.stdout.write('line\\n'), 5);`;
    const c = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    // before: the EPIPE was "operational", its line to the closed stderr failed again, and so on at a full core
    expect(await withOutputGone(c, 20_000)).toBe(1);
  });

  it('a solve whose caller went away ends when it would write its answer (the command as shipped, re-started for its compiler flag)', async () => {
    const c = spawn(process.execPath, [...cliArgs(), 'solve', 'data/tiny/windows.json', '--time-limit', '0.3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const node = process.execPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const restarted = ['-f', `^${node} .*--no-concurrent-recompilation.*data/tiny/windows\\.json`];
    try {
      expect(await withOutputGone(c, 30_000)).toBe(1);
      // the re-started child ended too: no solve left running under this test's process
      expect(spawnSync('pgrep', restarted, { encoding: 'utf8' }).stdout.trim()).toBe('');
    } finally {
      spawnSync('pkill', ['-KILL', ...restarted]);
    }
  });
});
