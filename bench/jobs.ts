/**
 * The planning-job benchmark: the generated city (data/city/city.json, 500 orders, 20 vehicles)
 * planned end to end through the job service on the real worker pool. Reports the job time
 * (submit -> done) p50 / p95 over several runs, and the gap of each run's total distance to jobs
 * with a 60 s budget on the same instance (the median of `--reference-runs` of them, seeds 1, 3, ...).
 *
 *   npx tsx bench/jobs.ts [--runs 7] [--budget S] [--reference 60] [--reference-runs 1 | --reference-km K] [--threads 2] [--seeds N]
 *                         [--twin [--warm-jobs K] [--null]] [--overlap S] [--first-job [--first-job-after S]] [--cpu-clock [--cpu-share S]] [--trace] [--instance city|road] [--plan 'k=v;k=v']
 *
 * Without `--budget` the service's default budget for 500 orders (`defaultBudgetSec`); without
 * `--seeds` the service's default (one seed, plus a spare seed on each idle pool thread);
 * `--seeds N` runs exactly N seeds in parallel per job (JobService seedsPerSolve). The reference
 * jobs run with the same seeds setting.
 *
 * `--instance road` plans the same city on its synthetic road graph: the job service's matrix
 * provider answers with data/city-road's explicit matrices (as an OSRM server would, rows only;
 * the locations must be the file's, checked), so the day goes through the road-matrix path.
 *
 * `--overlap S` measures instead two jobs on one service: a second company's copy of the city
 * submitted S seconds after the first (both 500 orders, no shared vehicles), `--runs` times: the
 * second job's time shows what a spare seed costs a job that arrives at a busy pool.
 *
 * `--twin` measures two processes at once, as two worker hosts' jobs on one machine's cores would
 * run (issue 42: "two 500-order city jobs at once on the two cores: each plan within 2 % of the
 * same job alone"): per run, the job alone in a child process, and the same job (same seed) in two
 * child processes at once, in turns (alone first on odd runs); each child warms up its own pool,
 * then all start together. Reports each twin's distance against the alone run's. `--warm-jobs K`:
 * each child first plans the city K times with other seeds, unmeasured (a worker host that has
 * planned before; without it every measured job is its process's first real one). `--null`: each
 * run also plans the same seed alone twice more, and the table gains a row of those two against the
 * first alone run: the gaps that the run-to-run spread of one job alone gives, with no second job
 * at all (the line's noise floor: each twin is compared to one noisy run alone).
 *
 * `--first-job` measures the first job of a service that has just started (a new pool each time),
 * in turns: `cold` submitted at once with no warm-up, `warm` after the service's own warm-up
 * (JobService.warmUp, as `serve` and `worker` run it at start; the job submitted `--first-job-after
 * S` seconds after the pool started, default 3), and `stopped`: the warm-up started and the job
 * submitted at once, so the job stops it (what the warm-up costs a job that comes right away).
 *
 * `--cpu-clock` times every solver task by the CPU time of its thread instead of wall time (the
 * budget is then seconds of CPU a thread; the 60 s references too), so that variants compared on
 * a machine shared with other work did the same work whatever the load; the cooperative solve's
 * epochs follow a clock that moves by each epoch's CPU time. The job times are still wall time.
 * `--cpu-share S` (with `--cpu-clock`) runs every thread's clock at 1/S of its CPU time: a job as
 * it would run on S of a core per thread, e.g. 0.5 for the twin case (two jobs on two cores at once,
 * the same wall budget) without a second job beside it. Below cooperate's CROWDED_BELOW_SHARE the
 * solve goes on alone after its first epoch, and the one thread keeps the share (a real machine
 * would give it the core the other gave up): `--plan crowdedBelowShare=0` keeps both threads.
 *
 * `--plan 'k=v;k=v'` sets the cooperative solve's CoopPlan (solver/cooperate.ts) in every job,
 * e.g. `crowdedBelowShare=0` for the solve as before session 40 (never alone when crowded).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { JobResult } from '../src/jobs/ports.js';
import type { MemoryPlanningStore } from '../src/jobs/memory-store.js';
import { JobService, defaultBudgetSec } from '../src/jobs/service.js';
import { SolverPool } from '../src/pool/pool.js';
import { cityStore, loadCity } from './jobs-city.js';
import { parseNumbers } from './plan-spec.js';
import { loadRoadCity } from './road-city.js';
import type { MatrixProvider } from '../src/jobs/problem.js';
import type { SolveRunner } from '../src/pool/scheduler.js';
import type { SolveTaskResult } from '../src/pool/messages.js';
import type { CoopPlan } from '../src/solver/cooperate.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const runs = arg('runs', 7);
const city = loadCity();
const budget = arg('budget', defaultBudgetSec(city.orders.length));
const reference = arg('reference', 60);
const referenceRuns = arg('reference-runs', 1);
/** `--reference-km K`: no reference jobs; the gaps are to K km (a reference measured before). */
const referenceKm = process.argv.includes('--reference-km') ? arg('reference-km', 0) : undefined;
const threads = arg('threads', 2);
const seeds = process.argv.includes('--seeds') ? arg('seeds', 1) : undefined;
/** Seeds one job uses: runs i and i + 1 do not share any. */
const seedStep = seeds ?? threads;
const overlap = process.argv.includes('--overlap') ? arg('overlap', 1) : undefined;
const instanceAt = process.argv.indexOf('--instance');
const instance = instanceAt > 0 ? process.argv[instanceAt + 1] : 'city';
if (instance !== 'city' && instance !== 'road') throw new Error(`--instance must be city or road, not ${instance}`);
const cpuClock = process.argv.includes('--cpu-clock');
/** `--plan 'k=v;k=v'`: the cooperative solve's CoopPlan (see the file's comment). */
const planAt = process.argv.indexOf('--plan');
const planText = planAt > 0 ? process.argv[planAt + 1] : undefined;
const coopPlan: CoopPlan | undefined = planText === undefined ? undefined : parseNumbers(planText, '--plan');
const cpuShare = arg('cpu-share', 1);
const trace = process.argv.includes('--trace');
if (!(cpuShare > 0 && cpuShare <= 1)) throw new Error('--cpu-share takes a share of a core in (0, 1]');

/** The road city's matrices for the job's points (which must be the file's locations, in order). */
function roadProvider(): MatrixProvider {
  const road = loadRoadCity().matrix;
  if (road.kind !== 'explicit' || road.coordinates === undefined) throw new Error('data/city-road: an explicit matrix with coordinates expected');
  const { distance, duration, coordinates } = road;
  return (points) => {
    const same = points.length === coordinates.length && points.every(([lat, lon], i) => Math.abs(lat - coordinates[i][0]) < 1e-9 && Math.abs(lon - coordinates[i][1]) < 1e-9);
    if (!same) throw new Error('the job\'s locations are not those of data/city-road');
    return { kind: 'explicit', distance, duration };
  };
}
const matrix = instance === 'road' ? roadProvider() : undefined;


interface Run {
  ms: number;
  km: number;
  routes: number;
  unassigned: number;
  reasons: string;
  /** Iterations of the job's solve, all threads. */
  iterations: number;
  /** CPU time its solver threads spent on the job's tasks, ms (their answers' cpuMs). */
  cpuMs: number;
}

/** Plans the whole city for one company of the store through the service, and times it. */
async function timedJob(service: JobService, store: MemoryPlanningStore, companyId: number, iterations: () => number = () => 0, cpuMs: () => number = () => NaN): Promise<Run> {
  const t0 = performance.now();
  const job = await service.submit(companyId, { external_ids: city.orders.map((o) => o.externalId!) });
  const done = await service.waitFor(companyId, job.job_id);
  const ms = performance.now() - t0;
  if (done.status !== 'done') throw new Error(`job failed: ${done.error}`);
  const result = done.result as JobResult;
  const km = result.route_ids.reduce((sum, id) => sum + store.getRoute(id)!.plannedMileageKm, 0);
  const count = new Map<string, number>();
  for (const u of result.unassigned) count.set(u.reason, (count.get(u.reason) ?? 0) + 1);
  return { ms, km, routes: result.route_ids.length, unassigned: result.unassigned.length, reasons: [...count].map(([r, n]) => `${r} ${n}`).join(', ') || '-', iterations: iterations(), cpuMs: cpuMs() };
}

/**
 * The pool as the job's scheduler sees it. `--cpu-clock`: the pool's tasks timed by their threads'
 * CPU time (scaled by `--cpu-share`), and the clock of the cooperative solve's epochs: a task that
 * settles moves it to the task's start plus the time the task's own clock measured (its time
 * limit when it came back empty), so an epoch of two tasks lasts as long as the longer one,
 * whatever the wait for a core. `--trace`: one line per task on stderr (when it started and ended
 * in the job's wall time, its orders, time limit, its own clock's time, its thread's CPU time,
 * iterations, distance). Always: the CPU time of the tasks' threads, summed (`cpuMs`).
 */
function instrumented(pool: SolverPool, clockShare: number | undefined = cpuClock ? cpuShare : undefined): { pool: SolveRunner; clock?: () => number; cpuMs: () => number } {
  let virtualMs = 0;
  let cpuMs = 0;
  const t0 = performance.now();
  return {
    ...(clockShare !== undefined ? { clock: () => virtualMs } : {}),
    cpuMs: () => cpuMs,
    pool: {
      size: pool.size,
      run: async (task, options) => {
        const startedMs = virtualMs;
        const startedWall = performance.now() - t0;
        let used = (task.options.timeLimit ?? 0) * 1000;
        let answer: SolveTaskResult | undefined;
        try {
          answer = await pool.run(clockShare !== undefined ? { ...task, cpuClock: clockShare } : task, options);
          used = answer.stats.elapsedMs;
          cpuMs += answer.cpuMs ?? 0;
          return answer;
        } finally {
          virtualMs = Math.max(virtualMs, startedMs + used);
          if (trace) {
            const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(0));
            console.error(
              `  task ${f(startedWall)}-${f(performance.now() - t0)} ms: ${task.problem.orders.length} orders, limit ${f((task.options.timeLimit ?? 0) * 1000)} ms, clock ${f(answer?.stats.elapsedMs)} ms, cpu ${f(answer?.cpuMs)} ms, ${answer?.stats.iterations ?? '-'} it, ${answer ? (answer.distance / 1000).toFixed(2) : '-'} km${task.stop ? ' (spare)' : ''}`,
            );
          }
        }
      },
    },
  };
}

function serviceFor(store: MemoryPlanningStore, pool: SolverPool, budgetSec: number, seed: number, onIterations?: (n: number) => void, warmUp = false): { service: JobService; cpuMs: () => number } {
  const timed = instrumented(pool, warmUp ? 1 : undefined);
  // a task timed by its CPU time may wait for a core far longer than its budget on a busy machine
  const service = new JobService({
    store,
    pool: timed.pool,
    ...(timed.clock ? { solveClock: timed.clock } : {}),
    timeBudgetSec: budgetSec,
    seed,
    seedsPerSolve: seeds,
    abortGraceSec: cpuClock || warmUp ? 3600 : 30,
    ...(coopPlan ? { coopPlan } : {}),
    ...(matrix ? { matrix } : {}),
    ...(onIterations ? { onSolved: ({ result }) => onIterations(result.stats.iterations) } : {}),
  });
  return { service, cpuMs: timed.cpuMs };
}

async function once(pool: SolverPool, budgetSec: number, seed: number, warmUp = false): Promise<Run> {
  const store = cityStore(city);
  let iterations = 0;
  const { service, cpuMs } = serviceFor(store, pool, budgetSec, seed, (n) => (iterations += n), warmUp);
  return timedJob(service, store, city.company.id, () => iterations, cpuMs);
}

/**
 * The warm-up before the measured jobs: threads started and the search's code compiled, as in a
 * service that has run jobs before. A job of WARM_UP_CPU_SEC seconds of CPU a thread (timed by its
 * threads' CPU time whatever the bench's clock), so that a busy machine, on which a wall-clock
 * warm-up of 0.5 s did no iteration of the search (issue 42, session 29), warms it up all the same.
 */
const WARM_UP_CPU_SEC = 1.5;
const warmUp = (pool: SolverPool) => once(pool, WARM_UP_CPU_SEC, 999, true);

function quantile(sorted: number[], q: number): number {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.ceil(i)] - sorted[lo]) * (i - lo);
}

/** Two companies' cities on one service; the second submitted `delaySec` after the first. */
async function pair(pool: SolverPool, budgetSec: number, seed: number, delaySec: number): Promise<[Run, Run]> {
  const store = cityStore(city, city.orders.length, 2);
  const { service } = serviceFor(store, pool, budgetSec, seed);
  const first = timedJob(service, store, city.company.id);
  await new Promise((r) => setTimeout(r, delaySec * 1000));
  const second = timedJob(service, store, city.company.id + 1);
  return [await first, await second];
}

/** A child process that plans the city once (`--single SEED`): it warms up, says `ready`, waits for a line on stdin, then prints its run as JSON. */
function child(seed: number): { ready: Promise<void>; go: () => void; result: Promise<Run> } {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--single', String(seed), '--budget', String(budget), '--threads', String(threads), '--instance', instance, '--warm-jobs', String(warmJobs)];
  if (seeds !== undefined) args.push('--seeds', String(seeds));
  if (cpuClock) args.push('--cpu-clock', '--cpu-share', String(cpuShare));
  if (trace) args.push('--trace');
  if (planText !== undefined) args.push('--plan', planText);
  const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (onReady = r));
  const result = new Promise<Run>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes('ready\n')) onReady();
    });
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`child exited ${code}: ${out.slice(-500)}`));
      else resolve(JSON.parse(line) as Run);
    });
  });
  return { ready, go: () => proc.stdin!.end('go\n'), result };
}

async function together(seed: number, n: number): Promise<Run[]> {
  const kids = Array.from({ length: n }, () => child(seed));
  await Promise.all(kids.map((k) => k.ready));
  for (const k of kids) k.go();
  return Promise.all(kids.map((k) => k.result));
}

const single = process.argv.includes('--single') ? arg('single', 1) : undefined;
/** `--warm-jobs K` (with `--twin`): each child plans the city K times (other seeds, not measured) before its measured job. */
const warmJobs = arg('warm-jobs', 0);
const firstJob = process.argv.includes('--first-job');

/** `--first-job`: the first job of a just-started service, without and with its warm-up (see the file's comment). */
async function firstJobs(): Promise<void> {
  const after = arg('first-job-after', 3);
  const kinds = ['cold', 'warm', 'stopped'] as const;
  const rows: Record<(typeof kinds)[number], Run[]> = { cold: [], warm: [], stopped: [] };
  for (let i = 0; i < runs; i++) {
    const seed = 1 + i * seedStep;
    // in turns, so that a slow minute of the machine falls on each kind alike
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(k + i) % kinds.length];
      const pool = new SolverPool({ threads });
      try {
        pool.warm();
        const store = cityStore(city);
        let iterations = 0;
        const { service, cpuMs } = serviceFor(store, pool, budget, seed, (n) => (iterations += n));
        if (kind !== 'cold') void service.warmUp();
        if (kind === 'warm') await new Promise((r) => setTimeout(r, after * 1000));
        // the warm-up's tasks go through the same counted pool: only the job's count
        const cpuBefore = cpuMs();
        const run = await timedJob(service, store, city.company.id, () => iterations, () => cpuMs() - cpuBefore);
        rows[kind].push(run);
        console.error(`run ${i + 1}/${runs} (seed ${seed}) ${kind}: ${run.km.toFixed(2)} km in ${(run.ms / 1000).toFixed(2)} s, ${run.iterations} it, ${(run.cpuMs / 1000).toFixed(2)} s of solver CPU`);
      } finally {
        await pool.destroy();
      }
    }
  }
  const med = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);
  console.log(`| first job of a started service | runs | job time p50 | distance median (min-max) | solver CPU a job, median | iterations, median |`);
  console.log('|---|---|---|---|---|---|');
  for (const kind of kinds) {
    const r = rows[kind];
    const label = kind === 'cold' ? 'no warm-up, submitted at once' : kind === 'warm' ? `after the warm-up (submitted ${after} s after start)` : 'warm-up stopped by the job (submitted at once)';
    const kms = r.map((x) => x.km);
    console.log(`| ${label} | ${r.length} | ${(med(r.map((x) => x.ms)) / 1000).toFixed(2)} s | ${med(kms).toFixed(2)} km (${Math.min(...kms).toFixed(2)}-${Math.max(...kms).toFixed(2)}) | ${(med(r.map((x) => x.cpuMs)) / 1000).toFixed(2)} s | ${med(r.map((x) => x.iterations)).toFixed(0)} |`);
  }
}
const twin = process.argv.includes('--twin');
/** `--null` (with `--twin`): the same seed alone twice more per run (see the file's comment). */
const nullRuns = process.argv.includes('--null');

/** Each seed alone in a child process, then in two at once (in turns); the children have their own pools. */
async function twins(): Promise<void> {
  const rows: Array<{ alone: Run; pair: Run[]; again: Run[] }> = [];
  const show = (rs: Run[]) => rs.map((r) => `${r.km.toFixed(2)} km in ${(r.ms / 1000).toFixed(2)} s (${r.iterations} it, ${(r.cpuMs / 1000).toFixed(2)} s of CPU)`).join(', ');
  for (let i = 0; i < runs; i++) {
    const seed = 1 + i * seedStep;
    // in turns, so that a slow minute of the machine falls on each kind alike
    const steps: Array<'alone' | 'pair' | 'again'> = nullRuns ? (i % 2 === 0 ? ['alone', 'again', 'pair', 'again'] : ['again', 'pair', 'again', 'alone']) : i % 2 === 0 ? ['alone', 'pair'] : ['pair', 'alone'];
    let alone: Run | undefined;
    let pairRuns: Run[] = [];
    const again: Run[] = [];
    for (const step of steps) {
      if (step === 'pair') pairRuns = await together(seed, 2);
      else if (step === 'alone') [alone] = await together(seed, 1);
      else again.push(...(await together(seed, 1)));
    }
    rows.push({ alone: alone!, pair: pairRuns, again });
    console.error(`run ${i + 1}/${runs} (seed ${seed}): alone ${show([alone!])}; two at once ${show(pairRuns)}${nullRuns ? `; alone again ${show(again)}` : ''}`);
  }
  const gapsOf = (pick: (r: (typeof rows)[number]) => Run[]) => rows.flatMap((r) => pick(r).map((p) => (100 * (p.km - r.alone.km)) / r.alone.km)).sort((a, b) => a - b);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`| runs | budget | threads per process | compared | alone: median km | compared: median km | gap of each to its run alone (median / mean / worst) | within 2 % | job time p50 | solver CPU a job, alone / compared (median) |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const med = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);
  const row = (label: string, pick: (r: (typeof rows)[number]) => Run[]) => {
    const g = gapsOf(pick);
    const them = rows.flatMap(pick);
    console.log(
      `| ${runs} | ${budget} s | ${threads} | ${label} | ${med(rows.map((r) => r.alone.km)).toFixed(2)} | ${med(them.map((p) => p.km)).toFixed(2)} | ${quantile(g, 0.5).toFixed(2)} % / ${mean(g).toFixed(2)} % / ${g.at(-1)!.toFixed(2)} % | ${g.filter((x) => x <= 2).length} of ${g.length} | ${(med(them.map((p) => p.ms)) / 1000).toFixed(2)} s | ${(med(rows.map((r) => r.alone.cpuMs)) / 1000).toFixed(2)} s / ${(med(them.map((p) => p.cpuMs)) / 1000).toFixed(2)} s |`,
    );
  };
  row('two at once (each twin)', (r) => r.pair);
  if (nullRuns) row('the same job alone, run again', (r) => r.again);
}

if (twin) await twins();
else if (firstJob) await firstJobs();
else {
  const pool = new SolverPool({ threads });
  try {
    if (single !== undefined) {
      await warmUp(pool);
      // a worker host that has planned before: its threads' code compiled by real jobs
      for (let k = 0; k < warmJobs; k++) await once(pool, budget, single + 1000 * (k + 1));
      process.stdout.write('ready\n');
      await new Promise<void>((r) => process.stdin.once('data', () => r()));
      process.stdout.write(JSON.stringify(await once(pool, budget, single)) + '\n');
      process.stdin.pause();
    } else {
      await warmUp(pool);
      if (overlap !== undefined) {
        const firsts: Run[] = [];
        const seconds: Run[] = [];
        for (let i = 0; i < runs; i++) {
          const [a, b] = await pair(pool, budget, 1 + i * seedStep, overlap);
          firsts.push(a);
          seconds.push(b);
          console.error(`pair ${i + 1}/${runs}: first ${(a.ms / 1000).toFixed(2)} s ${a.km.toFixed(2)} km, second ${(b.ms / 1000).toFixed(2)} s ${b.km.toFixed(2)} km`);
        }
        const med = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);
        console.log(`| jobs | budget | second job submitted after | first job: p50 time / median km | second job: p50 time / median km |`);
        console.log('|---|---|---|---|---|');
        console.log(
          `| ${runs} pairs | ${budget} s | ${overlap} s | ${(med(firsts.map((r) => r.ms)) / 1000).toFixed(2)} s / ${med(firsts.map((r) => r.km)).toFixed(2)} km | ${(med(seconds.map((r) => r.ms)) / 1000).toFixed(2)} s / ${med(seconds.map((r) => r.km)).toFixed(2)} km |`,
        );
      } else {
        const results: Run[] = [];
        for (let i = 0; i < runs; i++) {
          results.push(await once(pool, budget, 1 + i * seedStep));
          const r = results.at(-1)!;
          console.error(`run ${i + 1}/${runs}: ${(r.ms / 1000).toFixed(2)} s, ${r.km.toFixed(2)} km, ${r.routes} routes, ${r.unassigned} unassigned, ${r.iterations} iterations, ${(r.cpuMs / 1000).toFixed(2)} s of solver CPU`);
        }
        const refs: Run[] = [];
        for (let i = 0; referenceKm === undefined && i < referenceRuns; i++) {
          console.error(`reference ${i + 1}/${referenceRuns}: one job with a ${reference} s budget...`);
          refs.push(await once(pool, reference, 1 + i * seedStep));
          console.error(`  ${refs.at(-1)!.km.toFixed(2)} km, ${refs.at(-1)!.routes} routes`);
        }
        const ref: Run =
          referenceKm !== undefined
            ? { ms: NaN, km: referenceKm, routes: NaN, unassigned: NaN, reasons: 'given', iterations: NaN, cpuMs: NaN }
            : [...refs].sort((a, b) => a.km - b.km)[Math.floor((refs.length - 1) / 2)];
        const times = results.map((r) => r.ms).sort((a, b) => a - b);
        const gaps = results.map((r) => (100 * (r.km - ref.km)) / ref.km);
        const fmt = (x: number) => x.toFixed(2);
        console.log(`Instance: ${instance === 'road' ? 'the city on its road graph (data/city-road matrices)' : 'the city (haversine)'}. Seeds per job: ${seeds === undefined ? `service default (one, plus spares on idle threads of ${threads})` : seeds}.${cpuClock ? ` Budgets in CPU seconds of each thread${cpuShare < 1 ? `, every thread's clock at 1/${cpuShare} of its CPU time (as on ${cpuShare} of a core)` : ''}; job times are wall time.` : ''}\n`);
        console.log(`| runs | budget | p50 job time | p95 job time | distance (median) | routes | unassigned | gap to ${reference} s (median / worst) |`);
        console.log('|---|---|---|---|---|---|---|---|');
        const kms = results.map((r) => r.km).sort((a, b) => a - b);
        console.log(
          `| ${runs} | ${budget} s | ${fmt(quantile(times, 0.5) / 1000)} s | ${fmt(quantile(times, 0.95) / 1000)} s | ${fmt(quantile(kms, 0.5))} km | ${results.map((r) => r.routes).join('/')} | ${results.map((r) => r.unassigned).join('/')} | ${fmt(quantile([...gaps].sort((a, b) => a - b), 0.5))} % / ${fmt(Math.max(...gaps))} % |`,
        );
        if (referenceKm !== undefined) console.log(`\nReference: ${fmt(referenceKm)} km, given (--reference-km), not run.`);
        else
          console.log(
            `\nReference (${reference} s budget, median of ${refs.length}): ${fmt(ref.km)} km, ${ref.routes} routes, ${ref.unassigned} unassigned (${ref.reasons}), job time ${fmt(ref.ms / 1000)} s; all: ${refs.map((r) => fmt(r.km)).join(', ')} km.`,
          );
        const its = results.map((r) => r.iterations).sort((a, b) => a - b);
        console.log(`Iterations a job (all threads): median ${quantile(its, 0.5)}, ${its[0]}-${its.at(-1)}.`);
        console.log(`Unassigned reasons of the ${budget} s runs: ${[...new Set(results.map((r) => r.reasons))].join(' | ')}.`);
      }
    }
  } finally {
    await pool.destroy();
  }
}
