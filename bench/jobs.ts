/**
 * The planning-job benchmark: the generated city (data/city/city.json, 500 orders, 20 vehicles)
 * planned end to end through the job service on the real worker pool. Reports the job time
 * (submit -> done) p50 / p95 over several runs, and the gap of each run's total distance to one
 * job with a 60 s budget on the same instance.
 *
 *   npx tsx bench/jobs.ts [--runs 7] [--budget 3] [--reference 60] [--threads 2] [--seeds 1]
 *
 * `--seeds 2` runs two seeds in parallel per job (JobService seedsPerSolve) and keeps the best;
 * the reference always uses one seed.
 */
import { performance } from 'node:perf_hooks';
import type { JobResult } from '../src/jobs/ports.js';
import { JobService } from '../src/jobs/service.js';
import { SolverPool } from '../src/pool/pool.js';
import { cityStore, loadCity } from './jobs-city.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const runs = arg('runs', 7);
const budget = arg('budget', 3);
const reference = arg('reference', 60);
const threads = arg('threads', 2);
const seeds = arg('seeds', 1);
const city = loadCity();


interface Run {
  ms: number;
  km: number;
  routes: number;
  unassigned: number;
  reasons: string;
}

async function once(pool: SolverPool, budgetSec: number, seed: number, seedCount = seeds): Promise<Run> {
  const store = cityStore(city);
  const service = new JobService({ store, pool, timeBudgetSec: budgetSec, seed, seedsPerSolve: seedCount, abortGraceSec: 30 });
  const t0 = performance.now();
  const job = await service.submit(city.company.id, { external_ids: city.orders.map((o) => o.externalId!) });
  const done = await service.waitFor(city.company.id, job.job_id);
  const ms = performance.now() - t0;
  if (done.status !== 'done') throw new Error(`job failed: ${done.error}`);
  const result = done.result as JobResult;
  const km = result.route_ids.reduce((sum, id) => sum + store.getRoute(id)!.plannedMileageKm, 0);
  const count = new Map<string, number>();
  for (const u of result.unassigned) count.set(u.reason, (count.get(u.reason) ?? 0) + 1);
  return { ms, km, routes: result.route_ids.length, unassigned: result.unassigned.length, reasons: [...count].map(([r, n]) => `${r} ${n}`).join(', ') || '-' };
}

function quantile(sorted: number[], q: number): number {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.ceil(i)] - sorted[lo]) * (i - lo);
}

const pool = new SolverPool({ threads });
try {
  await once(pool, 0.5, 1); // warm-up: threads started, code compiled
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) {
    results.push(await once(pool, budget, 1 + i * seeds));
    const r = results.at(-1)!;
    console.error(`run ${i + 1}/${runs}: ${(r.ms / 1000).toFixed(2)} s, ${r.km.toFixed(2)} km, ${r.routes} routes, ${r.unassigned} unassigned`);
  }
  console.error(`reference: one job with a ${reference} s budget...`);
  const ref = await once(pool, reference, 1, 1);
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const gaps = results.map((r) => (100 * (r.km - ref.km)) / ref.km);
  const fmt = (x: number) => x.toFixed(2);
  console.log(`| runs | budget | p50 job time | p95 job time | distance (median) | routes | unassigned | gap to ${reference} s (median / worst) |`);
  console.log('|---|---|---|---|---|---|---|---|');
  const kms = results.map((r) => r.km).sort((a, b) => a - b);
  console.log(
    `| ${runs} | ${budget} s | ${fmt(quantile(times, 0.5) / 1000)} s | ${fmt(quantile(times, 0.95) / 1000)} s | ${fmt(quantile(kms, 0.5))} km | ${results.map((r) => r.routes).join('/')} | ${results.map((r) => r.unassigned).join('/')} | ${fmt(quantile([...gaps].sort((a, b) => a - b), 0.5))} % / ${fmt(Math.max(...gaps))} % |`,
  );
  console.log(`\nReference (${reference} s budget): ${fmt(ref.km)} km, ${ref.routes} routes, ${ref.unassigned} unassigned (${ref.reasons}), job time ${fmt(ref.ms / 1000)} s.`);
  console.log(`Unassigned reasons of the ${budget} s runs: ${[...new Set(results.map((r) => r.reasons))].join(' | ')}.`);
} finally {
  await pool.destroy();
}
