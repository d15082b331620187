/**
 * `delivery-planner solve FILE [--format solomon|json] [--rounding none|trunc1] [--time-limit S]
 *  [--seed N] [--iterations N] [--objective distance|duration|vehicles] [--threads N] [--cpu-clock] [--out FILE]`
 *
 * `--cpu-clock` (one thread): the time limit counts this process's CPU time (every thread of it,
 * V8's compiler threads too) instead of wall time. For measuring on a shared machine: a 1 s solve
 * then gets the same work whatever else runs, as on an idle core.
 *
 * Prints `{"routes":[{"vehicle","stops":[ids]}],"distance","vehicles","unassigned":[{"id","reason"}],
 * "elapsed_ms","iterations"}`. For Solomon files the ids are the file's customer numbers and the depot is not
 * listed. Bad arguments exit 2, bad input exits 1, each with one line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from './usage-error.js';
import { parseSolomon } from '../io/solomon.js';
import type { Objective, ProblemInput } from '../model/input.js';

const USAGE =
  'usage: delivery-planner solve FILE [--format solomon|json] [--rounding none|trunc1] [--time-limit S] [--seed N] [--iterations N] [--objective distance|duration|vehicles] [--threads N] [--cpu-clock] [--out FILE]';

interface Args {
  file: string;
  format?: 'solomon' | 'json';
  rounding: 'none' | 'trunc1';
  timeLimit?: number;
  seed: number;
  iterations?: number;
  objective: Objective;
  threads: number;
  cpuClock?: boolean;
  out?: string;
}

function parseArgs(argv: string[]): Args | 'help' {
  const a: Partial<Args> & { rounding: 'none' | 'trunc1'; seed: number; objective: Objective } = { rounding: 'none', seed: 1, objective: 'distance', threads: 1 };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${x} needs a value (${USAGE})`);
      return v;
    };
    const num = (what: string, v: string, integer = false) => {
      const n = Number(v);
      if (v.trim() === '' || !Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) throw new UsageError(`${what} must be a non-negative ${integer ? 'integer' : 'number'}, got '${v}'`);
      return n;
    };
    switch (x) {
      case '--format': {
        const v = value();
        if (v !== 'solomon' && v !== 'json') throw new UsageError(`--format must be solomon or json, got '${v}'`);
        a.format = v;
        break;
      }
      case '--rounding': {
        const v = value();
        if (v !== 'none' && v !== 'trunc1') throw new UsageError(`--rounding must be none or trunc1, got '${v}'`);
        a.rounding = v;
        break;
      }
      case '--time-limit':
        a.timeLimit = num('--time-limit', value());
        break;
      case '--seed':
        a.seed = num('--seed', value(), true);
        break;
      case '--iterations':
        a.iterations = num('--iterations', value(), true);
        break;
      case '--objective': {
        const v = value();
        if (v !== 'distance' && v !== 'duration' && v !== 'vehicles') throw new UsageError(`--objective must be distance, duration or vehicles, got '${v}'`);
        a.objective = v;
        break;
      }
      case '--threads':
        a.threads = num('--threads', value(), true);
        if (a.threads < 1) throw new UsageError('--threads must be at least 1');
        break;
      case '--out':
        a.out = value();
        break;
      case '--cpu-clock':
        a.cpuClock = true;
        break;
      case '--help':
      case '-h':
        return 'help';
      default:
        if (x.startsWith('-')) throw new UsageError(`unknown option '${x}' (${USAGE})`);
        if (a.file !== undefined) throw new UsageError(`only one FILE expected, got '${a.file}' and '${x}'`);
        a.file = x;
    }
  }
  if (a.file === undefined) throw new UsageError(`missing FILE (${USAGE})`);
  if (a.cpuClock && (a.threads ?? 1) > 1) throw new UsageError('--cpu-clock takes one thread');
  return a as Args;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * V8 compiles hot functions on a thread of its own by default, and the function runs on in its
 * slower tiers until that thread is done. A cold solve spends its first second that way: the
 * search's functions get hot at once, and on a core shared with anything (a solve pinned to one
 * core, a busy machine) the compiler thread waits its turn while the search runs slow code. With
 * `--no-concurrent-recompilation` the search compiles them itself, when they get hot. Measured
 * (bench/RESULTS.md, session 28, load 13): R101 and RC201 at 300 iterations, pinned to one core,
 * 1.54 -> 1.31 and 1.45 -> 1.15 s of CPU a process (6 runs each, alternating). The flag must be
 * given when V8 starts (set later with `v8.setFlagsFromString`, the main thread still compiles
 * concurrently: `--trace-opt` says so), so the command starts itself again with it, before the
 * solver is loaded
 * (`DELIVERY_PLANNER_SOLVE_IN_PROCESS=1`: not, for a caller that measures the process itself).
 */
export const SYNC_COMPILE_FLAG = '--no-concurrent-recompilation';

/** Runs this command again in a node process started with SYNC_COMPILE_FLAG; resolves to its exit code. */
async function againWithSyncCompile(): Promise<number> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [...process.execArgv, SYNC_COMPILE_FLAG, ...process.argv.slice(1)], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    for (const [s, h] of handlers) process.off(s, h);
  }
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // one thread only: with --threads the worker threads would compile synchronously too, in the
  // middle of a deadline (not measured yet on a quiet machine: --threads 2 meets its 1.05 s as it is)
  if (args.threads === 1 && !process.execArgv.includes(SYNC_COMPILE_FLAG) && process.env.DELIVERY_PLANNER_SOLVE_IN_PROCESS !== '1') return againWithSyncCompile();
  // solve-core, not solve.js: a Solomon file is checked by its own parser, and the schema (zod, for
  // JSON files) and the thread pool load only when used (a cold process starts sooner)
  const { solveValid } = await import('../solver/solve-core.js');
  let text: string;
  try {
    text = readFileSync(args.file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${args.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const format = args.format ?? (args.file.toLowerCase().endsWith('.json') ? 'json' : 'solomon');
  let problem: ProblemInput;
  if (format === 'json') {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      // the whole message on the one line the CLI prints (newer Node quotes the text, newlines too)
      throw new Error(`${args.file}: not valid JSON (${oneLine((e as Error).message)})`);
    }
    const { parseProblem } = await import('../schema/problem.js');
    try {
      problem = parseProblem(data);
    } catch (e) {
      // every problem, on the one line the CLI prints
      const lines = (e as Error).message.split('\n').filter((l) => l.trim() !== '');
      throw new Error(`${args.file}: ${lines.length} problem${lines.length === 1 ? '' : 's'}: ${lines.join('; ')}`);
    }
  } else {
    problem = parseSolomon(text, { file: args.file, rounding: args.rounding });
  }
  const timeLimit = args.timeLimit ?? (args.iterations === undefined ? 1 : undefined);
  const options = { timeLimit, seed: args.seed, iterations: args.iterations, objective: args.objective, validate: false };
  // the process's CPU time in milliseconds, all threads. process.cpuUsage is a system call
  // (getrusage) and the search asks for the time thousands of times a second: read at most once
  // per half millisecond of wall time, the value in between is the last one read (a solve stops
  // late by at most that). A cold 1 s solve of R207 spent about a tenth of its profile in it.
  let lastWall = -Infinity;
  let lastCpu = 0;
  const cpuNow = () => {
    const w = performance.now();
    if (w - lastWall < 0.5) return lastCpu;
    lastWall = w;
    const u = process.cpuUsage();
    return (lastCpu = (u.user + u.system) / 1000);
  };
  const result =
    args.threads > 1
      ? await (await import('../pool/parallel.js')).solveParallel(problem, { ...options, threads: args.threads })
      : solveValid(problem, options, args.cpuClock ? { now: cpuNow } : {});
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const out = {
    routes: result.routes.map((r) => ({
      vehicle: r.vehicleId,
      stops: r.stops.map((s) => s.orderId),
      // trips: the route goes back to its depot after this many of its stops
      ...(r.reloads ? { reloads_after: r.reloads.map((x) => x.after) } : {}),
      distance: round(r.distance),
      duration: round(r.duration),
    })),
    distance: round(result.distance),
    duration: round(result.duration),
    vehicles: result.vehicles,
    unassigned: result.unassigned.map((u) => ({ id: u.orderId, reason: u.reason })),
    elapsed_ms: Math.round(result.stats.elapsedMs),
    // search iterations done: the work a time limit bought (a cold or starved process does fewer)
    iterations: result.stats.iterations,
  };
  const json = JSON.stringify(out);
  if (args.out !== undefined) writeFileSync(args.out, json + '\n');
  else process.stdout.write(json + '\n');
  return 0;
}
