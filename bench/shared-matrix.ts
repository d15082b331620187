/**
 * Issue 19: one matrix per solve in SharedArrayBuffers, built by one worker thread, against one
 * matrix per thread (the `shareMatrix: false` of JobService and solveParallel).
 *
 *   npx tsx bench/shared-matrix.ts [--repeat 3] [--cases explicit,homberger]   both modes, each run in its own process
 *   npx tsx bench/shared-matrix.ts --case explicit|homberger --mode shared|own   one run: a JSON line
 *
 * explicit   1,000 x 1,000 explicit matrix (haversine around Berlin written out as rows, as an
 *            OSRM answer is), a job's two tasks on a two-thread SolverPool (main with the rows;
 *            the second, when shared, without them), both with their stop flag already set, so a
 *            task answers right after its set-up (clone, validation, matrix) and a construction
 *            of its 100 orders. Per task: post to answer (ms); the time run() spends posting both
 *            (the structured clone, on the event loop).
 * homberger  R1_10_1 (1,000 orders, Euclidean) through solveParallel, 2 threads, 100 iterations
 *            (one epoch): the whole call (construction dominates; the Euclidean matrix is cheap).
 * Both: the process's peak RSS (its threads included) and RSS after, and the answer's distance
 * (the same in both modes). Thread start-up is paid by a warm-up before measuring.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSolomon } from '../src/io/solomon.js';
import type { ProblemInput, SolveResult } from '../src/model/input.js';
import { buildMatrix, type MatrixArray } from '../src/model/matrix.js';
import { allocateSharedMatrix, omitMatrixInput, sharedMatrixBuilds, sharedMatrixRef } from '../src/model/shared-matrix.js';
import type { SolveTask } from '../src/pool/messages.js';
import { SolverPool } from '../src/pool/pool.js';
import { closeParallelPools, solveParallel } from '../src/pool/parallel.js';
import { checkSolution } from '../test/helpers/checker.js';
import { lcg } from '../test/helpers/problems.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function explicitProblem(): ProblemInput {
  const rnd = lcg(19);
  const coordinates = Array.from({ length: 1000 }, (): [number, number] => [52.4 + rnd() * 0.2, 13.2 + rnd() * 0.4]);
  const m = buildMatrix({ kind: 'haversine', coordinates, speedKmh: 30 });
  const rows = (a: MatrixArray) => Array.from({ length: 1000 }, (_, i) => Array.from(a.subarray(i * 1000, (i + 1) * 1000)));
  return {
    name: 'explicit-1000',
    matrix: { kind: 'explicit', distance: rows(m.distance), duration: rows(m.duration) },
    depots: [{ id: 'd', location: 0 }],
    vehicles: Array.from({ length: 10 }, (_, k) => ({ id: `v${k}`, capacity: { weight: 100, volume: 100 }, shift: [0, 36_000] as [number, number], startDepot: 'd', endDepot: 'd' })),
    orders: Array.from({ length: 100 }, (_, i) => ({ id: `o${i + 1}`, location: i + 1, weight: 5, volume: 1, serviceTime: 300 })),
  };
}

function check(p: ProblemInput, r: SolveResult): void {
  const errors = checkSolution(p, r);
  if (errors.length > 0) throw new Error(`infeasible answer: ${errors.slice(0, 3).join('; ')}`);
}

async function runExplicit(shared: boolean) {
  const pool = new SolverPool({ threads: 2 });
  const tiny: ProblemInput = { ...explicitProblem(), matrix: { kind: 'euclidean', coordinates: Array.from({ length: 101 }, (_, i) => [i, 0] as [number, number]) } };
  await Promise.all([pool.run({ problem: tiny, options: { iterations: 1 } }), pool.run({ problem: tiny, options: { iterations: 1 } })]);
  const p = explicitProblem();
  const stop = new SharedArrayBuffer(4);
  new Int32Array(stop)[0] = 1;
  const matrix = shared ? allocateSharedMatrix(1000) : undefined;
  const tasks: SolveTask[] = [0, 1].map((i) => ({
    problem: shared && i > 0 ? omitMatrixInput(p) : p,
    options: { timeLimit: 10, seed: 1 + i },
    stop,
    ...(matrix ? { matrix: sharedMatrixRef(matrix, i + 1, i > 0) } : {}),
  }));
  const t0 = performance.now();
  // Piscina posts (structured clone of the task) synchronously inside run() when a thread is idle
  const running = tasks.map(async (t) => ({ result: await pool.run(t), ms: performance.now() - t0 }));
  const postMs = performance.now() - t0;
  const results = await Promise.all(running);
  for (const r of results) check(p, r.result);
  const out = {
    postMs: Math.round(postMs),
    taskMs: results.map((r) => Math.round(r.ms)),
    builds: matrix ? sharedMatrixBuilds(matrix) : 2,
    distance: results.map((r) => r.result.distance),
  };
  await pool.destroy();
  return out;
}

async function runHomberger(shared: boolean) {
  const file = `${root}data/homberger/1000/R1_10_1.txt`;
  const p = parseSolomon(readFileSync(file, 'utf8'), { file, rounding: 'trunc1' });
  const small: ProblemInput = { ...p, orders: p.orders.slice(0, 20) };
  await solveParallel(small, { threads: 2, iterations: 10, seed: 1 }, { keepThreads: true, shareMatrix: shared });
  const t0 = performance.now();
  const r = await solveParallel(p, { threads: 2, iterations: 100, seed: 1 }, { keepThreads: true, shareMatrix: shared });
  const ms = performance.now() - t0;
  check(p, r);
  await closeParallelPools();
  return { callMs: Math.round(ms), distance: r.distance };
}

async function one(kind: string, mode: string): Promise<void> {
  const shared = mode === 'shared';
  const figures = kind === 'explicit' ? await runExplicit(shared) : await runHomberger(shared);
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
  process.stdout.write(`${JSON.stringify({ case: kind, mode, ...figures, peakRssMb, rssAfterMb: mb(process.memoryUsage().rss) })}\n`);
}

const kind = arg('case');
if (kind !== undefined) {
  await one(kind, arg('mode') ?? 'shared');
} else {
  const repeat = Number(arg('repeat') ?? '1');
  for (const c of (arg('cases') ?? 'explicit,homberger').split(','))
    for (let i = 0; i < repeat; i++)
      for (const mode of ['own', 'shared']) {
        const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--case', c, '--mode', mode], { cwd: root, encoding: 'utf8', timeout: 600_000 });
        if (r.status !== 0) throw new Error(`${c} ${mode} failed: ${r.stderr.slice(-2000)}`);
        process.stdout.write(r.stdout);
      }
}
