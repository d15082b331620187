/**
 * Where the solver's worker module is, apart from pool.ts so that `solveParallel`'s one-epoch
 * path (plain threads, no pool) finds it without loading Piscina.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built worker next to the bundle (dist/worker.js), else the source bootstrap. */
export function defaultWorkerFile(): string {
  const candidates = [new URL('./worker.js', import.meta.url), new URL('./worker-source.mjs', import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  throw new Error(`solver worker not found (looked for ${candidates.map((u) => fileURLToPath(u)).join(', ')})`);
}
