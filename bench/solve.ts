/**
 * Solver benchmark on the Solomon / Gehring-Homberger sets (DIMACS trunc1 convention).
 *
 *   npm run bench -- --set solomon --time-limit 1 [--threads N] [--seed N] [--iterations N] [--only R1]
 *                    [--objective vehicles] [--sample K (every K-th instance)] [--no-decompose] [--fleet] [--off-centre SHARE] [--halves SHARE] [--write]
 *   sets: solomon, homberger200, homberger400, homberger1000
 *
 * Every solution goes through the independent checker (test/helpers/checker.ts). Prints a table
 * per class (distance, vehicles, gap to the `distance` BKS, time) and a summary row; `--write`
 * puts the tables into bench/RESULTS.md between this run's own markers inside the solver section.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { parseSolomon } from '../src/io/solomon.js';
import { solve } from '../src/solver/solve.js';
import { closeParallelPools, solveParallel } from '../src/pool/parallel.js';
import type { Objective } from '../src/model/input.js';
import { checkSolution } from '../test/helpers/checker.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `usage: npm run bench -- [--set solomon|homberger200|homberger400|homberger1000] [--time-limit S] [--threads N]
       [--seed N] [--iterations N] [--only PREFIX] [--objective distance|duration|vehicles] [--sample K]
       [--no-decompose] [--fleet] [--off-centre SHARE] [--halves SHARE] [--write]

Solves every instance of the set in this process (warm: threads start before the clock), checks
each solution with the independent checker and prints the gap to the distance BKS per class.
--sample K takes every K-th instance; --write puts the tables into bench/RESULTS.md.
For cold processes side by side with PyVRP see bench/peers.ts.`;
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const set = arg('set', 'solomon')!;
const timeLimit = Number(arg('time-limit', '1'));
const iterations = arg('iterations') === undefined ? undefined : Number(arg('iterations'));
const seed = Number(arg('seed', '1'));
const only = arg('only');
const sample = Number(arg('sample', '1'));
const objective = (arg('objective', 'distance') as Objective);
const threads = arg('threads') === undefined ? undefined : Number(arg('threads'));
// with threads on large instances: every thread on the whole problem (no sectors; see src/solver/decompose.ts)
const decompose = !flag('no-decompose');
// with threads on large short-route instances: the fleet epoch (src/solver/epochs.ts, opt-in)
const fleet = flag('fleet');
// with sectors: the share of sector epochs cut around a point off the depots (default 0.5; 0: always around the depots)
const offCentre = arg('off-centre') === undefined ? undefined : Number(arg('off-centre'));
// with sectors: the share of sector epochs cut into halves of halves instead of wedges (default 0.5; 0: always wedges)
const halves = arg('halves') === undefined ? undefined : Number(arg('halves'));

const dirs: Record<string, { dir: string; bks: string }> = {
  solomon: { dir: 'data/solomon', bks: 'data/bks_solomon.csv' },
  homberger200: { dir: 'data/homberger/200', bks: 'data/bks_homberger.csv' },
  homberger400: { dir: 'data/homberger/400', bks: 'data/bks_homberger.csv' },
  homberger1000: { dir: 'data/homberger/1000', bks: 'data/bks_homberger.csv' },
};
const conf = dirs[set];
if (!conf) {
  process.stderr.write(`unknown set '${set}' (one of ${Object.keys(dirs).join(', ')})\n`);
  process.exit(2);
}

const bks = new Map<string, { vehicles: number; distance: number }>();
const bksHier = new Map<string, { vehicles: number; distance: number }>();
for (const line of readFileSync(join(root, conf.bks), 'utf8').split('\n').slice(1)) {
  const [name, vehicles, distance, kind] = line.split(',');
  if (!name) continue;
  (kind === 'distance' ? bks : bksHier).set(name.toUpperCase(), { vehicles: Number(vehicles), distance: Number(distance) });
}

const files = readdirSync(join(root, conf.dir))
  .filter((f) => f.toLowerCase().endsWith('.txt'))
  .filter((f) => only === undefined || f.toUpperCase().startsWith(only.toUpperCase()))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  .filter((_, i) => i % sample === 0);

interface Row {
  name: string;
  cls: string;
  distance: number;
  vehicles: number;
  allowed: number;
  bks: number;
  bksVehicles: number;
  hierVehicles: number;
  gap: number;
  ms: number;
  feasible: boolean;
  unassigned: number;
}

function classOf(name: string): string {
  const m = /^([A-Z]+\d?)(?:_\d+_)?/i.exec(name);
  if (set === 'solomon') return name.replace(/\d\d$/, '');
  return m ? m[1].toUpperCase() : name;
}

function bar(done: number, total: number, label: string): void {
  if (!process.stderr.isTTY && done !== total && done % 8 !== 0) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label.padEnd(12)}`);
  if (done === total || !process.stderr.isTTY) process.stderr.write('\n');
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  if (threads !== undefined && threads > 1) {
    // start the worker threads before timing anything
    const warm = parseSolomon(readFileSync(join(root, 'data/solomon/C101.txt'), 'utf8'));
    await solveParallel(warm, { threads, iterations: 10 }, { keepThreads: true });
  }
  bar(0, files.length, '');
  for (const [k, f] of files.entries()) {
    const path = join(root, conf.dir, f);
    const problem = parseSolomon(readFileSync(path, 'utf8'), { file: path, rounding: 'trunc1' });
    const name = basename(f, '.txt').toUpperCase();
    const t = performance.now();
    const options = { timeLimit: iterations === undefined ? timeLimit : undefined, iterations, seed, objective };
    const result = threads !== undefined && threads > 1 ? await solveParallel(problem, { ...options, threads }, { keepThreads: true, decompose, fleet, offCentre, halves }) : solve(problem, options);
    const ms = performance.now() - t;
    const errs = checkSolution(problem, result);
    const ref = bks.get(name);
    rows.push({
      name,
      cls: classOf(name),
      distance: result.distance,
      vehicles: result.vehicles,
      allowed: problem.vehicles.length,
      bks: ref?.distance ?? NaN,
      bksVehicles: ref?.vehicles ?? NaN,
      hierVehicles: bksHier.get(name)?.vehicles ?? NaN,
      gap: ref ? (100 * (result.distance - ref.distance)) / ref.distance : NaN,
      ms,
      feasible: errs.length === 0 && result.unassigned.length === 0 && result.vehicles <= problem.vehicles.length,
      unassigned: result.unassigned.length,
    });
    if (errs.length > 0) process.stderr.write(`\n${name}: INFEASIBLE ${errs[0]}\n`);
    bar(k + 1, files.length, name);
  }

  await closeParallelPools();
  const fmt = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const lines: string[] = [];
  const cmd = `npm run bench -- ${process.argv.slice(2).filter((a) => a !== '--write').join(' ')}`;
  lines.push(`Command: \`${cmd}\` (${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} cores, Node ${process.version}, machine shared with other work)`);
  lines.push('');
  const classes = [...new Set(rows.map((r) => r.cls))];
  const header = '| instance | distance | vehicles | BKS | gap % | time s | ok |';
  const sep = '|---|---:|---:|---:|---:|---:|:-:|';
  for (const c of classes) {
    lines.push(`**${c}**`, '', header, sep);
    for (const r of rows.filter((x) => x.cls === c))
      lines.push(`| ${r.name} | ${fmt(r.distance, 1)} | ${r.vehicles} | ${fmt(r.bks, 1)} | ${fmt(r.gap)} | ${fmt(r.ms / 1000)} | ${r.feasible ? 'yes' : 'NO'} |`);
    lines.push('');
  }
  lines.push('**Summary by class**', '', '| class | n | avg gap % | vehicles | BKS vehicles (distance) | BKS vehicles (hierarchical) | avg time s | all feasible |', '|---|---:|---:|---:|---:|---:|---:|:-:|');
  const summary = (label: string, rs: Row[]) => {
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    lines.push(
      `| ${label} | ${rs.length} | ${fmt(avg(rs.map((r) => r.gap)))} | ${sum(rs.map((r) => r.vehicles))} | ${sum(rs.map((r) => r.bksVehicles))} | ${sum(rs.map((r) => r.hierVehicles))} | ${fmt(avg(rs.map((r) => r.ms / 1000)))} | ${rs.every((r) => r.feasible) ? 'yes' : 'NO'} |`,
    );
  };
  for (const c of classes) summary(c, rows.filter((r) => r.cls === c));
  summary('**all**', rows);
  const text = lines.join('\n');
  process.stdout.write(text + '\n');

  const tag = `${set}-${iterations !== undefined ? `${iterations}it` : `${timeLimit}s`}${threads ? `-t${threads}` : ''}${objective !== 'distance' ? `-${objective}` : ''}${only ? `-${only}` : ''}${sample > 1 ? `-every${sample}` : ''}${decompose ? '' : '-nodecomp'}${fleet ? '-fleet' : ''}${offCentre !== undefined ? `-oc${offCentre}` : ''}${halves !== undefined ? `-halves${halves}` : ''}`;
  // raw rows for bench/curve.ts (gap-versus-time curves)
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, `bench/results/${tag}.json`), JSON.stringify({ set, timeLimit, iterations, threads: threads ?? 1, objective, seed, only, date: new Date().toISOString(), rows }, null, 1) + '\n');

  if (flag('write')) {
    const file = join(root, 'bench/RESULTS.md');
    const start = `<!-- bench:${tag}:start -->`;
    const end = `<!-- bench:${tag}:end -->`;
    const block = `${start}\n<details><summary>${set}, ${tag}: average gap ${fmt(rows.reduce((a, r) => a + r.gap, 0) / rows.length)} %</summary>\n\n${text}\n\n</details>\n${end}`;
    const doc = readFileSync(file, 'utf8');
    let out: string;
    if (doc.includes(start)) out = doc.slice(0, doc.indexOf(start)) + block + doc.slice(doc.indexOf(end) + end.length);
    else out = doc.replace('<!-- solver:end -->', `${block}\n<!-- solver:end -->`);
    writeFileSync(file, out);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
