import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real `delivery-planner` command from source (through tsx) in a child process. */
export function runCli(args: string[], options: { input?: string; cwd?: string; timeoutMs?: number } = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `${root}src/cli.ts`, ...args], {
    cwd: options.cwd ?? root,
    input: options.input,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
