/**
 * The package as a user installs it: tsup builds the library (ESM and CJS, the `engine` subpath,
 * the CLI and the worker) into a staging copy of the package, `npm pack` makes the tarball (so
 * `files` and `exports` are what ships), and the tarball is unpacked as
 * `<tmp>/node_modules/delivery-planner` in a folder under this project's node_modules (its own
 * dependencies resolve from there as they would in a consumer's project). Then:
 * - a consumer project type-checks against the shipped declarations with `tsc --strict` and no
 *   skipLibCheck, from an ES module and a CommonJS module at once (TS7016, TS2717);
 * - a child process loads it by its name with `require` and with `import` (the typed client of
 *   `delivery-planner/client` too): solve on every matrix
 *   kind and on 2,000 orders, solveParallel on worker threads (with its shared matrix and
 *   without: the same answer), a planning job on JobService. Every
 *   solution is checked here with the independent checker.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemInput, SolveResult } from '../../src/model/input.js';
import { checkSolution } from '../helpers/checker.js';
import { randomProblem } from '../helpers/problems.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = join(root, 'node_modules', `.pack-test-${process.pid}`);
const staging = join(tmp, 'staging');
const installed = join(tmp, 'node_modules', 'delivery-planner');
const out = join(installed, 'dist');
const consumer = join(tmp, 'consumer');

function problems(): Record<string, ProblemInput> {
  const euclidean = randomProblem({ orders: 40, vehicles: 6, seed: 3, windows: true });
  const coords = (euclidean.matrix as { coordinates: Array<[number, number]> }).coordinates;
  // the same plane as latitudes and longitudes around Berlin (1 unit ~ 100 m)
  const haversine: ProblemInput = { ...euclidean, matrix: { kind: 'haversine', coordinates: coords.map(([x, y]) => [52.5 + y / 1000, 13.4 + x / 700]), speedKmh: 30 } };
  const d = coords.map(([x1, y1]) => coords.map(([x2, y2]) => Math.round(Math.hypot(x1 - x2, y1 - y2) * 10) / 10));
  const explicit: ProblemInput = { ...euclidean, matrix: { kind: 'explicit', distance: d, duration: d } };
  const large = randomProblem({ orders: 2000, vehicles: 150, seed: 4, capacity: 300 });
  return { euclidean, haversine, explicit, large };
}

/** The program the child runs: `LOAD` is require(...) or await import(...). */
const program = (load: (file: string) => string) => `
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
(async () => {
  const engine = ${load('engine')};
  const full = ${load('index')};
  const client = ${load('client')};
  const api = client.createPlannerClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'dpk_x' });
  const out = { solved: {}, exports: { engineHasStore: 'Store' in engine, fullHasStore: typeof full.Store, fullSolve: typeof full.solve, client: typeof client.createPlannerClient, clientGet: typeof api.GET } };
  for (const [name, p] of Object.entries(input)) {
    out.solved[name] = engine.solve(p, name === 'large' ? { timeLimit: 3, seed: 1 } : { iterations: 300, seed: 1 });
  }
  out.parallel = await engine.solveParallel(input.euclidean, { threads: 2, timeLimit: 0.5, seed: 1 });
  // the built worker with a shared matrix: the explicit rows go to the first task only
  out.parallelExplicit = await engine.solveParallel(input.explicit, { threads: 2, iterations: 4000, seed: 1 });
  out.parallelExplicitOwn = await engine.solveParallel(input.explicit, { threads: 2, iterations: 4000, seed: 1 }, { shareMatrix: false });
  const store = new engine.MemoryPlanningStore();
  store.addCompany({ id: 1, timezone: 'UTC' });
  store.addWarehouse({ id: 1, companyId: 1, name: 'W', address: 'x', lat: 52.5, lon: 13.4 });
  store.addVehicle({ id: 1, companyId: 1, name: 'Van', active: true, warehouseId: 1, capacityKg: 100, capacityM3: 10, shift: '08:00-18:00',
    maxDistanceKm: null, maxDurationMin: null, maxOrders: null, features: [] });
  for (let i = 1; i <= 3; i++) store.addOrder({ id: i, companyId: 1, externalId: 'E' + i, status: 'new', address: 'a', lat: 52.5 + i / 100, lon: 13.4,
    weightKg: 1, volumeM3: 0.1, serviceTimeMin: 5, timeWindowStart: null, timeWindowEnd: null, deliveryDate: '2026-12-01' });
  const pool = new engine.SolverPool({ threads: 1 });
  const jobs = new engine.JobService({ store, pool, timeBudgetSec: 0.3 });
  const job = await jobs.submit(1, { order_ids: [1, 2, 3] });
  out.job = await jobs.waitFor(1, job.job_id);
  await pool.destroy();
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

function run(kind: 'cjs' | 'esm', input: Record<string, ProblemInput>) {
  const code =
    kind === 'cjs'
      ? program((f) => `require(${JSON.stringify(f === 'index' ? 'delivery-planner' : `delivery-planner/${f}`)})`)
      : program((f) => `await import(${JSON.stringify(f === 'index' ? 'delivery-planner' : `delivery-planner/${f}`)})`);
  const r = spawnSync(process.execPath, ['--input-type=commonjs', '-e', code], { cwd: consumer, input: JSON.stringify(input), encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${kind} child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as { solved: Record<string, SolveResult>; parallel: SolveResult; parallelExplicit: SolveResult; parallelExplicitOwn: SolveResult; job: { status: string; result: { route_ids: number[]; unassigned: unknown[] } }; exports: Record<string, unknown> };
}

describe('the built package, loaded as a consumer loads it', () => {
  beforeAll(() => {
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const r = spawnSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--out-dir', join(staging, 'dist')], { cwd: root, encoding: 'utf8', timeout: 300_000 /* a declaration build takes minutes on a crowded machine */ });
    if (r.status !== 0) throw new Error(`tsup failed: ${r.stderr.slice(-2000)}`);
    cpSync(join(root, 'package.json'), join(staging, 'package.json'));
    cpSync(join(root, 'README.md'), join(staging, 'README.md'));
    cpSync(join(root, 'data'), join(staging, 'data'), { recursive: true });
    cpSync(join(root, 'web'), join(staging, 'web'), { recursive: true });
    // the package is built already: no prepare script (it would build again, into the project)
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: staging, encoding: 'utf8', timeout: 120_000 });
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr.slice(-2000)}`);
    const tarball = join(tmp, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
    mkdirSync(installed, { recursive: true });
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
    mkdirSync(consumer, { recursive: true });
  }, 480_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('the tarball holds the build, the data and the package.json, and no sources or tests', () => {
    const top = readdirSync(installed).sort();
    expect(top).toEqual(expect.arrayContaining(['README.md', 'data', 'dist', 'package.json', 'web']));
    expect(readdirSync(join(installed, 'web')).sort()).toEqual(['app.css', 'app.js', 'index.html']);
    expect(top).not.toContain('src');
    expect(top).not.toContain('test');
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'engine.js', 'engine.cjs', 'client.js', 'client.cjs', 'client.d.ts', 'client.d.cts', 'cli.js', 'worker.js']));
  });

  it('a consumer type-checks with tsc --strict, no skipLibCheck, importing from ESM and requiring from CommonJS', () => {
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'node16', moduleResolution: 'node16', target: 'es2022', noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] },
        files: ['esm.mts', 'cjs.cts'],
      }),
    );
    writeFileSync(
      join(consumer, 'esm.mts'),
      `import { solve, buildApp, JobService, type ProblemInput } from 'delivery-planner';
import { solveParallel, type SolveResult } from 'delivery-planner/engine';
import { createPlannerClient, type Order } from 'delivery-planner/client';
const p: ProblemInput | undefined = undefined;
export const used: Array<unknown> = [solve, buildApp, JobService, solveParallel, p];
export type R = SolveResult;
export async function firstOrderId(): Promise<number | undefined> {
  const api = createPlannerClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'dpk_x' });
  const { data } = await api.GET('/api/public/v1/orders/', { params: { query: { page_size: 1 } } });
  const first: Order | undefined = data?.results[0];
  return first?.id;
}
`,
    );
    writeFileSync(
      join(consumer, 'cjs.cts'),
      `import planner = require('delivery-planner');
import engine = require('delivery-planner/engine');
import client = require('delivery-planner/client');
export const used: Array<unknown> = [planner.solve, planner.buildApp, engine.solve];
export const job = (api: client.PlannerClient, id: number) => api.GET('/api/public/v1/planning/jobs/{id}/', { params: { path: { id } } });
`,
    );
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], { cwd: consumer, encoding: 'utf8', timeout: 120_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);

  it('the shipped declarations need only what a consumer installs with the package (no TS7016)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const installed = new Set(Object.keys(pkg.dependencies));
    const missing: string[] = [];
    for (const file of ['index.d.ts', 'index.d.cts', 'engine.d.ts', 'engine.d.cts', 'client.d.ts', 'client.d.cts']) {
      const text = readFileSync(join(out, file), 'utf8');
      for (const [, spec] of text.matchAll(/from '([^'.][^']{0,200})'/g)) {
        if (spec!.startsWith('node:')) continue; // @types/node: the consumer's own
        const name = spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!;
        const own = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { types?: string; typings?: string; main?: string };
        // declared in package.json, or declarations beside the main file (openapi-fetch: index.d.mts)
        const beside = (own.main ?? 'index.js').replace(/\.[cm]?js$/, '');
        const typed = own.types !== undefined || own.typings !== undefined || ['.d.ts', '.d.mts'].some((ext) => existsSync(join(root, 'node_modules', name, beside + ext)));
        const needed = typed ? name : `@types/${name.replace(/^@/, '').replace('/', '__')}`;
        if (!installed.has(needed)) missing.push(`${file}: ${spec} needs ${needed} in dependencies`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the installed CLI's serve answers the dispatcher page, its script and Leaflet from the package's dependency", async () => {
    const db = join(tmp, 'page.db');
    const child = spawn(process.execPath, [join(out, 'cli.js'), 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db, '--workers', '1', '--log-level', 'warn'], { cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout!.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          const m = /listening on (http:\/\/\S+)/.exec(text);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const html = await (await fetch(`${base}/app/`)).text();
      const leaflet = /src="(vendor\/leaflet-[\d.]+\/leaflet\.js)"/.exec(html)?.[1];
      expect(leaflet).toBeDefined();
      for (const path of ['app.js', 'app.css', leaflet!]) {
        const res = await fetch(`${base}/app/${path}`);
        expect(res.status, path).toBe(200);
        expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(1000);
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 60_000);

  it('the engine subpath loads no native module; the client subpath nothing of the server', () => {
    for (const file of ['engine.cjs', 'engine.js']) expect(readFileSync(join(out, file), 'utf8'), file).not.toMatch(/better-sqlite3/);
    for (const file of ['client.cjs', 'client.js']) expect(readFileSync(join(out, file), 'utf8'), file).not.toMatch(/better-sqlite3|fastify|piscina/);
  });

  for (const kind of ['cjs', 'esm'] as const) {
    it(`${kind}: solve on euclidean, haversine and explicit matrices and on 2,000 orders, solveParallel, a JobService job`, () => {
      const input = problems();
      const got = run(kind, input);
      for (const [name, p] of Object.entries(input)) {
        expect(checkSolution(p, got.solved[name]!), `${kind} ${name}`).toEqual([]);
        expect(got.solved[name]!.routes.length, `${kind} ${name}`).toBeGreaterThan(0);
      }
      expect(got.solved.large!.unassigned.length).toBe(0);
      expect(checkSolution(input.euclidean!, got.parallel)).toEqual([]);
      expect(checkSolution(input.explicit!, got.parallelExplicit)).toEqual([]);
      expect(got.parallelExplicit.routes).toEqual(got.parallelExplicitOwn.routes);
      expect(got.job.status).toBe('done');
      expect(got.job.result.route_ids).toHaveLength(1);
      expect(got.exports).toEqual({ engineHasStore: false, fullHasStore: 'function', fullSolve: 'function', client: 'function', clientGet: 'function' });
    }, 180_000);
  }
});
