import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The newest modification time of a file under `dir` (bounded: the source tree). */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

let chosen: string[] | undefined;

/**
 * The node arguments that start the real `delivery-planner` command in a child process: the built
 * `dist/cli.js` when it is newer than every source file and the build's configuration
 * (package.json, tsup.config.ts, tsconfig.json), otherwise `src/cli.ts` through tsx, so a change
 * is never tested against a stale build. `npm ci` builds dist/ through `prepare`: a clean checkout,
 * the CI's, runs what ships, and a process starts in about half the time, its pool threads on
 * plain JavaScript. `DP_TEST_CLI=source` forces the source.
 */
export function cliArgs(): string[] {
  if (chosen !== undefined) return chosen;
  const built = join(root, 'dist', 'cli.js');
  let fresh = false;
  if (process.env.DP_TEST_CLI !== 'source') {
    try {
      const builtAt = statSync(built).mtimeMs;
      const inputs = ['package.json', 'tsup.config.ts', 'tsconfig.json'].map((f) => statSync(join(root, f)).mtimeMs);
      fresh = builtAt >= Math.max(newest(join(root, 'src')), ...inputs);
    } catch {
      fresh = false; // not built
    }
  }
  chosen = fresh ? [built] : ['--import', 'tsx', join(root, 'src', 'cli.ts')];
  return chosen;
}
