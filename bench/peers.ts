/**
 * Side by side with PyVRP, as a user meets the engine: every solve a cold process
 * (`node dist/cli.js solve FILE --rounding trunc1 --time-limit S`), pinned to core 0, while PyVRP
 * (both versions when built: ../shared/peers/pyvrp/) solves the same files for the same seconds
 * pinned to core 1. Gap to the same distance BKS (data/bks_*.csv, DIMACS rounding), a table per
 * set with averages, per-instance wins / losses / ties and the spread of the runs.
 *
 *   npx tsx bench/peers.ts --set solomon --time-limit 1 --runs 3 [--peer-runs N] [--threads N]
 *     [--contention] [--only R1] [--pick _1,_6] [--sample K] [--seed N] [--no-pyvrp]
 *     [--pyvrp DIR] [--cpu-clock] [--cli PATH] [--write]
 *
 * --contention  a CPU hog (`sh -c 'while :; do :; done'`) on our core for all our runs: half a core
 * --threads N   ours on cores 0..N-1 (then PyVRP runs after ours, not beside it)
 * --pick        Homberger: only the instances whose names end so (`_1,_6`: two of each class)
 * --pyvrp DIR   where build.sh put the virtual environments (default ~/.cache/pyvrp-peer)
 * --cpu-clock   every solver's limit counts its process's CPU time, not wall time: ours with
 *               `solve --cpu-clock`, PyVRP through bench/pyvrp-cpu.py (run.py with a CPU-time stop).
 *               On a busy machine each then gets the same CPU seconds, as on idle cores.
 * --cli PATH    our CLI (default dist/cli.js; another checkout's build for an A/B run)
 * --write       the tables into bench/RESULTS.md (the issue 42 section, between this run's markers)
 *
 * Needs `npx tsup` once (dist/cli.js). Our solutions are checked here against the file (every
 * customer once, capacity, time windows, fleet size, distance recomputed with trunc1 arcs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, homedir, loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSolomon } from '../src/io/solomon.js';
import type { ProblemInput } from '../src/model/input.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'usage: npx tsx bench/peers.ts [--set solomon|homberger200|homberger400|homberger1000] [--time-limit S] [--runs N] [--peer-runs N] [--threads N] [--contention] [--only PREFIX] [--pick _1,_6] [--sample K] [--seed N] [--no-pyvrp] [--pyvrp DIR] [--cpu-clock] [--cli PATH] [--write]';
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}
const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const set = arg('set', 'solomon')!;
const seconds = Number(arg('time-limit', '1'));
const runs = Math.max(1, Number(arg('runs', '1')));
const peerRuns = Math.max(0, Number(arg('peer-runs', String(runs))));
const threads = Math.max(1, Number(arg('threads', '1')));
const seed = Number(arg('seed', '1'));
const only = arg('only');
const pick = arg('pick')?.split(',');
const sample = Number(arg('sample', '1'));
const contention = flag('contention');
const cpuClock = flag('cpu-clock');
const cli = arg('cli', 'dist/cli.js')!;
const pyvrpDir = arg('pyvrp', join(homedir(), '.cache/pyvrp-peer'))!;
const runPy = join(root, '../shared/peers/pyvrp/run.py');

const sets: Record<string, { dir: string; bks: string }> = {
  solomon: { dir: 'data/solomon', bks: 'data/bks_solomon.csv' },
  homberger200: { dir: 'data/homberger/200', bks: 'data/bks_homberger.csv' },
  homberger400: { dir: 'data/homberger/400', bks: 'data/bks_homberger.csv' },
  homberger1000: { dir: 'data/homberger/1000', bks: 'data/bks_homberger.csv' },
};
const conf = sets[set];
if (!conf || !Number.isFinite(seconds) || seconds <= 0) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
if (!existsSync(resolve(root, cli))) {
  process.stderr.write(`${cli} is missing: run \`npx tsup\` first\n`);
  process.exit(2);
}

const bks = new Map<string, number>();
for (const line of readFileSync(join(root, conf.bks), 'utf8').split('\n').slice(1)) {
  const [name, , distance, kind] = line.split(',');
  if (name && kind === 'distance') bks.set(name.toUpperCase(), Number(distance));
}
const files = readdirSync(join(root, conf.dir))
  .filter((f) => f.toLowerCase().endsWith('.txt'))
  .filter((f) => only === undefined || f.toUpperCase().startsWith(only.toUpperCase()))
  .filter((f) => pick === undefined || pick.some((s) => basename(f, '.txt').toUpperCase().endsWith(s.toUpperCase())))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  .filter((_, i) => i % sample === 0);

interface Peer {
  name: string;
  python: string;
}
const peers: Peer[] = flag('no-pyvrp')
  ? []
  : [
      { name: 'PyVRP 0.14 (ILS)', python: join(pyvrpDir, 'venv-ils/bin/python') },
      { name: 'PyVRP 0.12 (HGS)', python: join(pyvrpDir, 'venv-hgs/bin/python') },
    ].filter((p) => existsSync(p.python) && existsSync(runPy));

/** One solve's outcome: distance to 0.1 (null: infeasible or failed), vehicles, times. */
interface Outcome {
  cost: number | null;
  vehicles: number;
  /** Process wall time, seconds. */
  wall: number;
  /** Time inside the solve as the solver reports it, seconds. */
  solve: number;
  /** Search iterations (ours only). */
  iterations?: number;
  error?: string;
}

function run(cmd: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; wall: number }> {
  return new Promise((resolve) => {
    const t = performance.now();
    const child = spawn(cmd[0], cmd.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, wall: (performance.now() - t) / 1000 });
    });
  });
}

/** Recomputes our solution from the file: every customer once, capacity, windows, fleet, distance (trunc1 arcs). */
function checkOurs(p: ProblemInput, out: { routes: Array<{ stops: string[] }>; distance: number; unassigned: unknown[] }): string | null {
  const xy = p.matrix.kind === 'euclidean' ? p.matrix.coordinates : [];
  const d = (a: number, b: number) => (a === b ? 0 : Math.floor(Math.hypot(xy[a][0] - xy[b][0], xy[a][1] - xy[b][1]) * 10 + 1e-9) / 10);
  const byId = new Map(p.orders.map((o) => [o.id, o]));
  const depot = p.depots[0];
  const v = p.vehicles[0];
  const seen = new Set<string>();
  let total = 0;
  if (out.unassigned.length > 0) return `${out.unassigned.length} unassigned`;
  if (out.routes.length > p.vehicles.length) return `${out.routes.length} routes > fleet ${p.vehicles.length}`;
  for (const r of out.routes) {
    let at = depot.location;
    let t = v.shift?.[0] ?? 0;
    let load = 0;
    for (const id of r.stops) {
      const o = byId.get(id);
      if (o === undefined || seen.has(id)) return `customer ${id} unknown or twice`;
      seen.add(id);
      total += d(at, o.location);
      t = Math.max(t + d(at, o.location), o.timeWindow?.[0] ?? 0);
      if (t > (o.timeWindow?.[1] ?? Infinity) + 1e-6) return `customer ${id} reached at ${t}, after its window`;
      t += o.serviceTime ?? 0;
      load += o.weight ?? 0;
      at = o.location;
    }
    total += d(at, depot.location);
    t += d(at, depot.location);
    if (t > (v.shift?.[1] ?? Infinity) + 1e-6) return `route back at ${t}, after the depot closes`;
    if (load > (v.capacity?.weight ?? Infinity) + 1e-6) return `route load ${load} over capacity`;
  }
  if (seen.size !== p.orders.length) return `${p.orders.length - seen.size} customers missing`;
  if (Math.abs(total - out.distance) > 1e-3) return `distance reported ${out.distance}, recomputed ${total}`;
  return null;
}

/** A solve's wall-time allowance: with --cpu-clock a busy machine may stretch its CPU seconds many times over (load 20: 10 s of CPU took 80-110 s). */
function timeoutMs(extra: number): number {
  return seconds * 1000 * (cpuClock ? 30 : 5) + extra;
}

async function ours(file: string, p: ProblemInput, runSeed: number): Promise<Outcome> {
  const cores = threads > 1 ? `0-${threads - 1}` : '0';
  const cmd = ['taskset', '-c', cores, process.execPath, cli, 'solve', file, '--rounding', 'trunc1', '--time-limit', String(seconds), '--seed', String(runSeed), '--threads', String(threads), ...(cpuClock ? ['--cpu-clock'] : [])];
  const r = await run(cmd, timeoutMs(60_000));
  try {
    const out = JSON.parse(r.stdout);
    const err = checkOurs(p, out);
    return { cost: err === null ? Math.round(out.distance * 10) / 10 : null, vehicles: out.vehicles, wall: r.wall, solve: out.elapsed_ms / 1000, iterations: out.iterations, ...(err ? { error: err } : {}) };
  } catch {
    return { cost: null, vehicles: 0, wall: r.wall, solve: NaN, error: `exit ${r.code}: ${r.stderr.trim().split('\n').pop()}` };
  }
}

async function peer(pr: Peer, file: string, runSeed: number): Promise<Outcome> {
  const script = cpuClock ? [join(root, 'bench/pyvrp-cpu.py'), runPy] : [runPy];
  const r = await run(['taskset', '-c', '1', pr.python, ...script, file, String(seconds), String(runSeed)], timeoutMs(120_000));
  try {
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    return { cost: out.feasible ? out.cost : null, vehicles: out.vehicles, wall: r.wall, solve: out.runtime_s, ...(out.feasible ? {} : { error: 'infeasible' }) };
  } catch {
    return { cost: null, vehicles: 0, wall: r.wall, solve: NaN, error: `exit ${r.code}: ${r.stderr.trim().split('\n').pop()}` };
  }
}

const solvers = ['ours', ...peers.map((p) => p.name)];
const oursLabel = `ours, solve --threads ${threads}${cpuClock ? ' --cpu-clock' : ''}${cli !== 'dist/cli.js' ? ` (${cli})` : ''}${contention ? ' beside a CPU hog' : ''}`;
/** results[solver][run][instance] */
const results: Outcome[][][] = solvers.map(() => []);
const names = files.map((f) => basename(f, '.txt').toUpperCase());

async function main(): Promise<void> {
  const started = new Date();
  const load0 = loadavg();
  const problems = files.map((f) => parseSolomon(readFileSync(join(root, conf.dir, f), 'utf8'), { file: f, rounding: 'trunc1' }));
  let hog: ChildProcess | undefined;
  if (contention) hog = spawn('taskset', ['-c', '0', 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' });
  const progress = (what: string, k: number, n: number) => process.stderr.write(`\r${what} ${k}/${n}   `);
  // our runs on core 0 and the peers' on core 1 at the same time (one after the other with threads)
  const oursQueue = async () => {
    for (let r = 0; r < runs; r++) {
      results[0][r] = [];
      for (const [i, f] of files.entries()) {
        results[0][r][i] = await ours(join(conf.dir, f), problems[i], seed);
        progress(`ours run ${r + 1}`, i + 1, files.length);
      }
    }
  };
  const peersQueue = async () => {
    for (let r = 0; r < peerRuns; r++)
      for (const [k, pr] of peers.entries()) {
        results[k + 1][r] = [];
        for (const [i, f] of files.entries()) {
          results[k + 1][r][i] = await peer(pr, join(root, conf.dir, f), seed);
          progress(`${pr.name} run ${r + 1}`, i + 1, files.length);
        }
      }
  };
  try {
    if (threads > 1) {
      await oursQueue();
      await peersQueue();
    } else await Promise.all([oursQueue(), peersQueue()]);
  } finally {
    hog?.kill('SIGKILL');
  }
  process.stderr.write('\n');
  const load1 = loadavg();

  const fmt = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const gap = (c: number | null, i: number) => (c === null ? NaN : (100 * (c - bks.get(names[i])!)) / bks.get(names[i])!);
  const avg = (xs: number[]) => {
    const ok = xs.filter(Number.isFinite);
    return ok.length === 0 ? NaN : ok.reduce((a, b) => a + b, 0) / ok.length;
  };
  const label = (s: number) => (s === 0 ? oursLabel : solvers[s]);
  const lines: string[] = [];
  const cmd = `npx tsx bench/peers.ts ${process.argv.slice(2).filter((a) => a !== '--write').join(' ')}`;
  lines.push(
    `Command: \`${cmd}\` (${started.toISOString().slice(0, 16)}Z, ${cpus().length} cores, Node ${process.version}; load average ${load0.map((x) => x.toFixed(1)).join(' ')} at the start, ${load1.map((x) => x.toFixed(1)).join(' ')} at the end: the machine is shared with other sessions). ` +
      `${files.length} instances, ${seconds} s${cpuClock ? ' of CPU time (every solver stops on its own process CPU time, not wall time)' : ''} each, seed ${seed}; ours ${runs} run${runs > 1 ? 's' : ''} (cold processes, core ${threads > 1 ? `0-${threads - 1}` : '0'}${contention ? ', a CPU hog on core 0' : ''}), ${peers.length > 0 ? `each PyVRP version ${peerRuns} (core 1)` : 'no PyVRP runs'}.`,
    '',
  );
  // per instance: mean over runs
  const mean = (s: number, i: number) => avg((results[s] ?? []).map((run) => run?.[i]?.cost ?? NaN).map((c) => c));
  lines.push(`| instance | BKS | ${solvers.map((s, k) => `${k === 0 ? 'ours' : s} (mean of runs) | gap %`).join(' | ')} |`, `|---|---:|${solvers.map(() => '---:|---:').join('|')}|`);
  for (const [i, n] of names.entries()) lines.push(`| ${n} | ${fmt(bks.get(n)!, 1)} | ${solvers.map((_, s) => `${fmt(mean(s, i), 1)} | ${fmt(gap(mean(s, i), i))}`).join(' | ')} |`);
  lines.push('');
  // per solver: average gap per run, spread, feasible, times
  lines.push('| solver | avg gap % per run | mean | spread (max - min) | infeasible or failed | mean process wall s | mean solve s | mean iterations |', '|---|---|---:|---:|---:|---:|---:|---:|');
  for (const [s] of solvers.entries()) {
    const perRun = (results[s] ?? []).filter(Boolean).map((run) => avg(run.map((o, i) => gap(o.cost, i))));
    const all = (results[s] ?? []).flat().filter(Boolean);
    lines.push(
      `| ${label(s)} | ${perRun.map((x) => fmt(x)).join(' / ')} | ${fmt(avg(perRun))} | ${fmt(Math.max(...perRun) - Math.min(...perRun))} | ${all.filter((o) => o.cost === null).length} of ${all.length} | ${fmt(avg(all.map((o) => o.wall)))} | ${fmt(avg(all.map((o) => o.solve)))} | ${fmt(avg(all.map((o) => o.iterations ?? NaN)), 0)} |`,
    );
  }
  lines.push('');
  // wins / losses / ties of ours against each peer, instance by instance within the same run index
  if (peers.length > 0) {
    lines.push('| ours against | wins | losses | ties | wins among non-ties |', '|---|---:|---:|---:|---:|');
    for (let s = 1; s < solvers.length; s++) {
      let w = 0;
      let l = 0;
      let t = 0;
      for (let r = 0; r < Math.min(runs, peerRuns); r++)
        for (let i = 0; i < names.length; i++) {
          const a = results[0][r]?.[i]?.cost ?? null;
          const b = results[s][r]?.[i]?.cost ?? null;
          if (a === null && b === null) t++;
          else if (b === null || (a !== null && a < b - 0.05)) w++;
          else if (a === null || a > b + 0.05) l++;
          else t++;
        }
      lines.push(`| ${solvers[s]} | ${w} | ${l} | ${t} | ${fmt((100 * w) / Math.max(1, w + l), 0)} % |`);
    }
    lines.push('');
  }
  const failures = solvers.flatMap((s, k) => (results[k] ?? []).flatMap((run, r) => (run ?? []).map((o, i) => (o.error ? `${s} run ${r + 1} ${names[i]}: ${o.error}` : null)).filter(Boolean)));
  if (failures.length > 0) lines.push('Failures:', '', ...failures.map((f) => `- ${f}`), '');
  const text = lines.join('\n');
  process.stdout.write(text + '\n');

  const tag = `peers-${set}-${seconds}s-t${threads}${cpuClock ? '-cpu' : ''}${cli !== 'dist/cli.js' ? '-other' : ''}${contention ? '-hog' : ''}${only ? `-${only}` : ''}${pick ? `-pick${pick.join('')}` : ''}${sample > 1 ? `-every${sample}` : ''}`;
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, `bench/results/${tag}.json`), JSON.stringify({ set, seconds, threads, contention, seed, runs, peerRuns, names, solvers, started, load0, load1, results }, null, 1) + '\n');
  if (flag('write')) {
    const file = join(root, 'bench/RESULTS.md');
    // session 27's section (session 26's tables stay above it as they were)
    const heading = '## Issue 42, session 27: side by side with PyVRP, cold, one core each (bench/peers.ts)';
    const sectionEnd = '<!-- peers-s27:end -->';
    const start = `<!-- s27-${tag}:start -->`;
    const end = `<!-- s27-${tag}:end -->`;
    const block = `${start}\n### ${set}, ${seconds} s, ${oursLabel}\n\n${text}\n${end}`;
    let doc = readFileSync(file, 'utf8');
    if (!doc.includes(heading)) doc = doc.trimEnd() + `\n\n${heading}\n\n${sectionEnd}\n`;
    if (doc.includes(start)) doc = doc.slice(0, doc.indexOf(start)) + block + doc.slice(doc.indexOf(end) + end.length);
    else doc = doc.replace(sectionEnd, `${block}\n\n${sectionEnd}`);
    writeFileSync(file, doc);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
