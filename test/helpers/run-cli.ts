import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliArgs } from './cli-command.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real `delivery-planner` command in a child process (built or from source: `cliArgs`). */
export function runCli(args: string[], options: { input?: string; cwd?: string; timeoutMs?: number } = {}) {
  const result = spawnSync(process.execPath, [...cliArgs(), ...args], {
    cwd: options.cwd ?? root,
    input: options.input,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
