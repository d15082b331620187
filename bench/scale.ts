/**
 * Scaling out: 60 planning jobs of 200 orders from 10 companies, submitted at once through the API,
 * run by 1 or 2 `worker` processes (one solver thread each) beside an API process (`serve --jobs
 * off`) on one PostgreSQL database, and by one `serve` process alone on SQLite. Reports finished
 * jobs per minute, the time of a job from submit to done (p50/p95), and the API's latency while the
 * jobs run (GET /orders/ and GET /planning/jobs/{id}/ in a loop, p50/p99).
 *
 *   npx tsx bench/scale.ts [--setups sqlite,pg1,pg2] [--companies 10] [--jobs-per-company 6]
 *                          [--orders 200] [--job-time-limit 1] [--postgres postgres://postgres@127.0.0.1:5432/postgres]
 *
 * Every process runs from source through tsx, on loopback. Each PostgreSQL setup gets a database of
 * its own (created and dropped here); each SQLite setup a temporary file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStore } from '../src/store/open.js';
import { SCOPES } from '../src/store/types.js';

const { values } = parseArgs({
  options: {
    setups: { type: 'string', default: 'sqlite,pg1,pg2' },
    companies: { type: 'string', default: '10' },
    'jobs-per-company': { type: 'string', default: '6' },
    orders: { type: 'string', default: '200' },
    'job-time-limit': { type: 'string', default: '1' },
    postgres: { type: 'string', default: process.env.DP_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const COMPANIES = Number(values.companies);
const JOBS = Number(values['jobs-per-company']);
const ORDERS = Number(values.orders);
const root = fileURLToPath(new URL('..', import.meta.url));

interface Proc {
  child: ChildProcess;
  ready: Promise<string>;
  stop(): Promise<unknown>;
}

function start(args: string[], readyLine: RegExp): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', `${root}src/cli.ts`, ...args, '--log-level', 'warn'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-4000)));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = readyLine.exec(out);
      if (m) resolve(m[1] ?? m[0]);
    });
    void exited.then(() => reject(new Error(`${args[0]} exited before it was ready: ${err}`)));
  });
  return {
    child,
    ready,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** Orders for one job: a delivery date of its own, so every job has the whole fleet. */
function orders(company: number, job: number) {
  const date = `2027-03-${String(job + 1).padStart(2, '0')}`;
  return Array.from({ length: ORDERS }, (_, i) => {
    const k = company * 7919 + job * 104729 + i * 31;
    return {
      external_id: `C${company}-J${job}-${i}`,
      address: `Benchstraße ${i}, Berlin`,
      lat: (52.42 + ((k * 37) % 1000) / 6000).toFixed(6),
      lon: (13.25 + ((k * 53) % 1000) / 3500).toFixed(6),
      delivery_date: date,
      weight: String(2 + (k % 9)),
      volume: '0.02',
      ...(i % 4 === 0 ? { time_window_start: '09:00', time_window_end: '13:00' } : {}),
    };
  });
}

async function seed(db: string): Promise<string[]> {
  const store = await openStore(db);
  const now = new Date().toISOString();
  const keys: string[] = [];
  try {
    for (let c = 0; c < COMPANIES; c++) {
      await store.transaction(async (tx) => {
        const company = await tx.companies.create({ name: `Scale ${c}`, timezone: 'Europe/Berlin' }, now);
        const warehouse = await tx.warehouses.create({ company_id: company.id, name: 'Depot', address: 'Depot 1, Berlin', lat: 52.5, lon: 13.4 }, now);
        for (let v = 0; v < 8; v++) {
          await tx.vehicles.create(
            {
              company_id: company.id, warehouse_id: warehouse.id, name: `Van ${v + 1}`, capacity_kg: 300, capacity_m3: 6,
              shift_start: '08:00', shift_end: '18:00', max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: true,
            },
            now,
          );
        }
        keys.push((await tx.apiKeys.create({ company_id: company.id, scopes: [...SCOPES] }, now)).key);
      });
    }
  } finally {
    await store.close();
  }
  return keys;
}

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Api-Key ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

interface Outcome {
  setup: string;
  jobs: number;
  done: number;
  failed: number;
  seconds: number;
  perMinute: number;
  jobP50: number;
  jobP95: number;
  apiP50: number;
  apiP99: number;
  apiRequests: number;
}

async function runSetup(setup: string): Promise<Outcome> {
  const postgres = setup.startsWith('pg');
  const workers = postgres ? Number(setup.slice(2)) : 0;
  let db: string;
  let cleanup: () => Promise<void>;
  if (postgres) {
    const name = `dp_bench_scale_${process.pid}_${setup}`;
    const admin = new pg.Client({ connectionString: values.postgres });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(values.postgres!);
    url.pathname = `/${name}`;
    db = url.toString();
    cleanup = async () => {
      const c = new pg.Client({ connectionString: values.postgres });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'dp-bench-scale-'));
    db = join(dir, 'planner.db');
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const procs: Proc[] = [];
  try {
    const keys = await seed(db);
    const common = ['--db', db, '--job-time-limit', values['job-time-limit']!, '--max-jobs-per-company', String(JOBS), '--geocoder', 'none'];
    const api = start(['serve', '--port', '0', '--rate-limit', '0', ...common, ...(postgres ? ['--jobs', 'off'] : ['--workers', '1'])], /listening on (http:\/\/\S+)/);
    procs.push(api);
    const base = await api.ready;
    for (let w = 0; w < workers; w++) {
      const worker = start(['worker', ...common, '--workers', '1'], /worker ready/);
      procs.push(worker);
      await worker.ready;
    }
    // every order first (bulk, 200 at a time), then every job at once
    for (let c = 0; c < COMPANIES; c++) {
      for (let j = 0; j < JOBS; j++) {
        const r = await call(base, keys[c]!, 'POST', '/api/public/v1/orders/bulk/', orders(c, j));
        if (r.status !== 200) throw new Error(`bulk: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
    const submitted = new Map<number, { key: string; at: number }>();
    const t0 = performance.now();
    const submits = [];
    for (let c = 0; c < COMPANIES; c++) {
      for (let j = 0; j < JOBS; j++) {
        const key = keys[c]!;
        submits.push(
          call(base, key, 'POST', '/api/public/v1/planning/jobs/', { external_ids: orders(c, j).map((o) => o.external_id) }).then((r) => {
            if (r.status !== 202) throw new Error(`submit: ${r.status} ${JSON.stringify(r.body)}`);
            submitted.set(r.body.job_id, { key, at: performance.now() });
          }),
        );
      }
    }
    await Promise.all(submits);

    // the API under load: one client reading while the jobs run
    const latencies: number[] = [];
    const finished = new Map<number, { status: string; at: number }>();
    let reading = true;
    const reader = (async () => {
      let i = 0;
      while (reading) {
        const key = keys[i % COMPANIES]!;
        const t = performance.now();
        await call(base, key, 'GET', '/api/public/v1/orders/?page_size=50');
        latencies.push(performance.now() - t);
        i++;
      }
    })();
    while (finished.size < submitted.size) {
      for (const [id, s] of submitted) {
        if (finished.has(id)) continue;
        const t = performance.now();
        const r = await call(base, s.key, 'GET', `/api/public/v1/planning/jobs/${id}/`);
        latencies.push(performance.now() - t);
        if (r.body.status === 'done' || r.body.status === 'failed') finished.set(id, { status: r.body.status, at: performance.now() });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    reading = false;
    await reader;
    const seconds = (Math.max(...[...finished.values()].map((f) => f.at)) - t0) / 1000;
    const jobTimes = [...finished].map(([id, f]) => (f.at - submitted.get(id)!.at) / 1000);
    const done = [...finished.values()].filter((f) => f.status === 'done').length;
    return {
      setup,
      jobs: submitted.size,
      done,
      failed: submitted.size - done,
      seconds,
      perMinute: (submitted.size / seconds) * 60,
      jobP50: quantile(jobTimes, 0.5),
      jobP95: quantile(jobTimes, 0.95),
      apiP50: quantile(latencies, 0.5),
      apiP99: quantile(latencies, 0.99),
      apiRequests: latencies.length,
    };
  } finally {
    for (const p of procs.reverse()) await p.stop();
    await cleanup();
  }
}

const NAMES: Record<string, string> = { sqlite: 'SQLite, serve alone (1 solver thread)', pg1: 'PostgreSQL, serve --jobs off + 1 worker', pg2: 'PostgreSQL, serve --jobs off + 2 workers' };
console.log(`# ${COMPANIES} companies x ${JOBS} jobs of ${ORDERS} orders, --job-time-limit ${values['job-time-limit']}; ${availableParallelism()} cores (${cpus()[0]?.model}), Node ${process.version}`);
console.log('| setup | jobs done / failed | wall s | jobs per minute | job time p50 s | p95 s | API p50 ms | p99 ms | API requests |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const setup of values.setups!.split(',')) {
  const o = await runSetup(setup);
  console.log(
    `| ${NAMES[setup] ?? setup} | ${o.done} / ${o.failed} | ${o.seconds.toFixed(1)} | ${o.perMinute.toFixed(1)} | ${o.jobP50.toFixed(1)} | ${o.jobP95.toFixed(1)} | ${o.apiP50.toFixed(1)} | ${o.apiP99.toFixed(1)} | ${o.apiRequests} |`,
  );
}
