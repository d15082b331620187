/**
 * The cost of an iteration, A against B, at a fixed iteration budget: for a change that must not
 * alter the search (the solutions must be the same to the last stop). Runs the CLI of two builds
 * (dist/ directories) in turns, A then B, on each instance and seed, checks that both print the
 * same routes, and reports each side's process CPU time (or, with --callgrind, valgrind's
 * instruction count, repeatable on a shared machine), the median per instance and the total.
 *
 *   npx tsx bench/iter-cpu.ts --a /tmp/distA --b dist [--files data/solomon/R101.txt,...]
 *     [--iterations 400] [--seeds 3] [--reps 3] [--callgrind | --side-by-side]
 *   npx tsx bench/iter-cpu.ts --dump-city /tmp/city.json   (the city job's problem, for --files)
 *
 * --side-by-side runs A and B at the same time, each pinned to a core of its own (taskset), the
 * cores swapped every repetition: both sides see the same load from the rest of the machine.
 * A .json file is solved with --format json; any other with --rounding trunc1 (Solomon and
 * Homberger). The city's problem is the one the job service builds (bench/jobs-city.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { cityProblem, loadCity } from './jobs-city.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);

const dump = arg('dump-city', '');
if (dump !== '') {
  writeFileSync(dump, JSON.stringify(await cityProblem(loadCity())));
  console.log(`wrote ${dump}`);
  process.exit(0);
}

const dists = { A: arg('a', ''), B: arg('b', 'dist') };
if (dists.A === '') throw new Error('--a DIST (the build to compare against) is required');
const files = arg('files', 'data/solomon/R101.txt,data/solomon/RC208.txt,data/solomon/C109.txt,data/solomon/R207.txt').split(',');
const iterations = Number(arg('iterations', '400'));
const seeds = arg('seeds', '3').split(',').map(Number);
const reps = Number(arg('reps', '3'));
const callgrind = flag('callgrind');
const sideBySide = flag('side-by-side');

function argsOf(dist: string, file: string, seed: number): string[] {
  const cli = [`${dist}/cli.js`, 'solve', file, ...(file.endsWith('.json') ? ['--format', 'json'] : ['--rounding', 'trunc1'])];
  // the flag the CLI would start itself again with (src/cli/solve.ts): one process to measure
  return ['--no-concurrent-recompilation', ...cli, '--iterations', String(iterations), '--seed', String(seed)];
}

/** One timed run pinned to a core, asynchronously (for --side-by-side). */
function runPinned(dist: string, file: string, seed: number, core: number): Promise<{ routes: string; cost: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', String(core), '/usr/bin/time', '-f', 'CPU %U %S', 'node', ...argsOf(dist, file, seed)]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${dist} ${file}: exit ${code}\n${err}`));
      const result = JSON.parse(out) as { routes: unknown; distance: number };
      const m = /CPU ([\d.]+) ([\d.]+)/.exec(err)!;
      resolve({ routes: JSON.stringify([result.routes, result.distance]), cost: Number(m[1]) + Number(m[2]) });
    });
  });
}

/** One run: the routes printed (without the clock) and the cost (CPU seconds or instructions). */
function run(dist: string, file: string, seed: number): { routes: string; cost: number } {
  const args = argsOf(dist, file, seed);
  const out = '/tmp/iter-cpu.callgrind';
  const r = callgrind
    ? spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, 'node', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', 'node', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${dist} ${file}: exit ${r.status}\n${r.stderr}`);
  const result = JSON.parse(r.stdout) as { routes: unknown; distance: number };
  const routes = JSON.stringify([result.routes, result.distance]);
  let cost: number;
  if (callgrind) {
    const m = /Collected : (\d+)/.exec(r.stderr);
    if (!m) throw new Error(`no instruction count:\n${r.stderr}`);
    cost = Number(m[1]);
    rmSync(out, { force: true });
  } else {
    const m = /CPU ([\d.]+) ([\d.]+)/.exec(r.stderr)!;
    cost = Number(m[1]) + Number(m[2]);
  }
  return { routes, cost };
}

const median = (x: number[]) => {
  const s = [...x].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const unit = callgrind ? (x: number) => `${(x / 1e6).toFixed(1)} M instr` : (x: number) => `${x.toFixed(3)} s`;
let totalA = 0;
let totalB = 0;
for (const file of files)
  for (const seed of seeds) {
    const cost = { A: [] as number[], B: [] as number[] };
    const routes = { A: '', B: '' };
    for (let k = 0; k < reps && sideBySide; k++) {
      const [a, b] = await Promise.all([runPinned(dists.A, file, seed, k % 2), runPinned(dists.B, file, seed, 1 - (k % 2))]);
      for (const [side, r] of [['A', a], ['B', b]] as const) {
        if (routes[side] !== '' && routes[side] !== r.routes) throw new Error(`${side} ${file} seed ${seed}: not reproducible`);
        routes[side] = r.routes;
        cost[side].push(r.cost);
      }
    }
    for (let k = 0; k < reps && !sideBySide; k++)
      for (const side of k % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const r = run(dists[side], file, seed);
        if (routes[side] !== '' && routes[side] !== r.routes) throw new Error(`${side} ${file} seed ${seed}: not reproducible`);
        routes[side] = r.routes;
        cost[side].push(r.cost);
      }
    const same = routes.A === routes.B;
    const a = median(cost.A);
    const b = median(cost.B);
    totalA += a;
    totalB += b;
    console.log(
      `${file} seed ${seed}: A ${unit(a)} B ${unit(b)} (${(((b - a) / a) * 100).toFixed(1)} %) routes ${same ? 'same' : 'DIFFER'}` +
        `  [A ${cost.A.map(unit).join(', ')}; B ${cost.B.map(unit).join(', ')}]`,
    );
    if (!same) process.exitCode = 1;
  }
console.log(`total of medians: A ${unit(totalA)} B ${unit(totalB)} (${(((totalB - totalA) / totalA) * 100).toFixed(1)} %), ${iterations} iterations, ${reps} reps`);
