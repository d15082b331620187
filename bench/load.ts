/**
 * Mixed load on the real app over loopback while planning jobs run: 20 API keys of 5 companies,
 * one autocannon instance per endpoint (all at once, one of them an attacker sending the
 * 40,000-digit latitude of the hardening issue), and a loop submitting a planning job per
 * company every 3 s. Reports per endpoint: requests, p50 / p99 / max latency, status classes
 * (5xx must be 0), and the server's event-loop delay p99 and max (perf_hooks, measured in the
 * server process: bench/load-server.ts).
 * Issue 38 adds the hostile bodies of its review, one connection each: a flat array of 4 million
 * items and an array nested 4 million deep (8 MB each, under the bulk limit of before), and the
 * same at 3.5 million (7 MB, just under the limit of after), all to POST /orders/bulk/.
 * Usage: npx tsx bench/load.ts [--duration 15] [--no-hostile] [--hostile-rate 10] [--profile DIR] [--client-nice N] [--solver-nice 10]
 * `--solver-nice N`: the server's solver threads run N nice levels below its event loop, as `serve`
 * runs them by default (src/pool/worker-nice.ts; 0: as the loop; no effect on commits before it).
 * `--client-nice N`: once the server is started, this process (autocannon, the load generator) runs
 * N nice levels below it, so on a small machine the clients queue for a core behind the server, as
 * clients elsewhere would not compete with it at all (Linux: the main thread, where autocannon runs).
 * `--profile DIR`: the server runs under `node --cpu-prof` (its main thread's profile lands in DIR;
 * bench/long-tasks.ts lists the stretches that held its event loop, and what ran in them).
 * `--server-flags="..."`: node flags for the server process (e.g. --server-flags="--max-semi-space-size=32 --trace-gc").
 */
import { spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values } = parseArgs({ options: { duration: { type: 'string', default: '15' }, 'no-hostile': { type: 'boolean', default: false }, profile: { type: 'string' }, 'client-nice': { type: 'string', default: '0' }, 'solver-nice': { type: 'string', default: '10' }, 'server-flags': { type: 'string', default: '' }, 'hostile-rate': { type: 'string', default: '10' } } });
const DURATION = Number(values.duration);

interface Seed {
  url: string;
  date: string;
  keys: Array<{ key: string; company: number }>;
  orders: Record<string, number[]>;
  /** The server's monotonic clock (µs) when the measured window began (absent on older commits). */
  t0_us?: number;
}

const profile = values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile, '--cpu-prof-interval', '500'] : [];
const serverFlags = values['server-flags']!.split(' ').filter(Boolean);
const server = spawn(process.execPath, [...serverFlags, ...profile, '--import', 'tsx', `${here}load-server.ts`], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, DELIVERY_PLANNER_SOLVER_NICE: values['solver-nice'] },
});
const lines: string[] = [];
let buffer = '';
const nextLine = () =>
  new Promise<string>((resolve, reject) => {
    const check = () => {
      const line = lines.shift();
      if (line !== undefined) resolve(line);
      else setTimeout(check, 20);
    };
    // its last line may still be in the pipe when it exits: read what is left first
    server.once('exit', (code) => server.stdout!.once('close', () => setTimeout(() => (lines.length > 0 ? resolve(lines.shift()!) : reject(new Error(`load server exited ${code}`))), 50)));
    check();
  });
server.stdout!.on('data', (d: Buffer) => {
  buffer += d.toString();
  let i: number;
  while ((i = buffer.indexOf('\n')) >= 0) {
    // the server's JSON lines; anything else (--server-flags="--trace-gc") goes to stderr
    if (buffer.startsWith('{')) lines.push(buffer.slice(0, i));
    else process.stderr.write(buffer.slice(0, i + 1));
    buffer = buffer.slice(i + 1);
  }
});

const seed = JSON.parse(await nextLine()) as Seed;
const clientNice = Number(values['client-nice']);
const serverNice = getPriority(0); // the server inherited this one
if (clientNice > 0) setPriority(0, Math.min(19, getPriority(0) + clientNice));
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
const auth = (k: { key: string }) => ({ authorization: `Api-Key ${k.key}`, 'content-type': 'application/json' });
let serial = 0;

// `fixed`: one request built once per connection and sent again and again (autocannon rebuilds a
// request with setupRequest for every send: for a 7-8 MB body that copy starved the other endpoints
// of the client's one thread, so the server saw 40-80 ordinary requests in 15 s instead of thousands)
const endpoints: Array<{ name: string; connections: number; fixed?: boolean; rate?: number; request: () => { method: string; path: string; headers: Record<string, string>; body?: string | Buffer } }> = [
  { name: 'GET /orders/?page_size=50', connections: 4, request: () => ({ method: 'GET', path: '/api/public/v1/orders/?page_size=50', headers: auth(pick(seed.keys)) }) },
  {
    name: 'GET /orders/{id}/', connections: 3,
    request: () => {
      const k = pick(seed.keys);
      return { method: 'GET', path: `/api/public/v1/orders/${pick(seed.orders[k.company]!)}/`, headers: auth(k) };
    },
  },
  {
    name: 'POST /orders/', connections: 3,
    request: () => ({ method: 'POST', path: '/api/public/v1/orders/', headers: auth(pick(seed.keys)), body: JSON.stringify({ external_id: `N-${serial++}`, address: 'Somewhere 1', lat: '52.5', lon: '13.4', delivery_date: seed.date }) }),
  },
  { name: 'GET /routes/', connections: 2, request: () => ({ method: 'GET', path: `/api/public/v1/routes/?date=${seed.date}`, headers: auth(pick(seed.keys)) }) },
  {
    name: 'POST positions', connections: 2,
    request: () => {
      const k = pick(seed.keys);
      const vehicle = (k.company - 1) * 3 + 1 + Math.floor(Math.random() * 3);
      return { method: 'POST', path: `/api/internal/v1/vehicles/${vehicle}/positions`, headers: auth(k), body: JSON.stringify({ lat: 52.5, lon: 13.4, timestamp: new Date().toISOString() }) };
    },
  },
  {
    // the attack of the hardening issue: a 40,000-digit latitude ending in a letter
    name: 'POST positions, 40,000-digit lat (attack)', connections: 1,
    request: () => {
      const k = pick(seed.keys);
      return { method: 'POST', path: `/api/internal/v1/vehicles/${(k.company - 1) * 3 + 1}/positions`, headers: auth(k), body: JSON.stringify({ lat: `${'1'.repeat(40_000)}x`, lon: 13.4 }) };
    },
  },
];

// issue 38: bodies whose parsing cost grows with their node count, built once
const flatArray = (items: number) => `[${'1,'.repeat(items - 1)}1]`;
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const hostile: Array<[string, string]> = [
  ['bulk, 4M-item flat array (attack)', flatArray(4_000_000)],
  ['bulk, 4M-deep nesting (attack)', nested(4_000_000)],
  ['bulk, 3.5M-item flat array (attack)', flatArray(3_500_000)],
  ['bulk, 3.5M-deep nesting (attack)', nested(3_500_000)],
];
const HOSTILE_RATE = Number(values['hostile-rate']);
if (!(HOSTILE_RATE > 0)) throw new Error(`--hostile-rate: expected a positive number, got ${values['hostile-rate']}`);
if (!values['no-hostile']) {
  for (const [name, body] of hostile) {
    const bytes = Buffer.from(body);
    // at most --hostile-rate sends a second each (default 10: 2,400 a minute in all, about a hundred
    // times the issue's 25). Unbounded, a quiet server refused them so fast that autocannon queued
    // 8 MB sends faster than it freed them: the client grew past its 4 GB heap and the run never ended
    endpoints.push({
      name, connections: 1, fixed: true, rate: HOSTILE_RATE,
      request: () => ({ method: 'POST', path: '/api/public/v1/orders/bulk/', headers: auth(pick(seed.keys)), body: bytes }),
    });
  }
}

// planning jobs while the load runs: one per company every 3 s, 50 of its seeded orders each
let jobs = 0;
const jobStatus: Record<number, number> = {};
const planner = setInterval(() => {
  for (const c of Object.keys(seed.orders).map(Number)) {
    const k = seed.keys.find((x) => x.company === c)!;
    const ids = seed.orders[c]!.splice(0, 50);
    if (ids.length === 0) continue;
    jobs++;
    void fetch(`${seed.url}/api/public/v1/planning/jobs/`, { method: 'POST', headers: auth(k), body: JSON.stringify({ order_ids: ids }) }).then(
      (r) => (jobStatus[r.status] = (jobStatus[r.status] ?? 0) + 1),
      () => (jobStatus[0] = (jobStatus[0] ?? 0) + 1), // no answer (0)
    );
  }
}, 3_000);

const results = await Promise.all(
  endpoints.map(
    (e) =>
      autocannon({
        url: seed.url,
        connections: e.connections,
        duration: DURATION,
        ...(e.rate ? { overallRate: e.rate } : {}),
        requests: e.fixed ? [e.request() as autocannon.Request] : [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...e.request() }) as autocannon.Request }],
      }) as Promise<autocannon.Result>,
  ),
);
clearInterval(planner);

server.kill('SIGTERM');
const loop = JSON.parse(await nextLine()) as { loop: { p50_ms: number; p99_ms: number; max_ms: number; p999_ms?: number; over_100ms_pct?: number; samples?: number } };

const classes = (r: autocannon.Result) => {
  const out: Record<string, number> = { '2xx': 0, '4xx': 0, '5xx': 0 };
  for (const [code, stats] of Object.entries(r.statusCodeStats ?? {})) out[`${code[0]}xx`] = (out[`${code[0]}xx`] ?? 0) + (stats?.count ?? 0);
  return out;
};
const rows = results.map((r, i) => {
  const c = classes(r);
  return `| ${endpoints[i]!.name} | ${r.requests.total} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${c['2xx']} | ${c['4xx']} | ${c['5xx']} | ${r.errors + r.timeouts} |`;
});
const total5xx = results.reduce((n, r) => n + classes(r)['5xx']!, 0);
console.log(`client nice ${getPriority(0)} (server ${serverNice}, its solver threads +${values['solver-nice']}); duration ${DURATION} s, 20 keys of 5 companies, ${jobs} planning jobs submitted (answers ${JSON.stringify(jobStatus)})`);
console.log('| endpoint | requests | p50 ms | p99 ms | max ms | 2xx | 4xx | 5xx | errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log(`5xx in all: ${total5xx}; slowest request: ${Math.max(...results.map((r) => r.latency.max))} ms`);
console.log(`server event-loop delay: p50 ${loop.loop.p50_ms.toFixed(1)} ms, p99 ${loop.loop.p99_ms.toFixed(1)} ms, ${loop.loop.p999_ms === undefined ? '' : `p99.9 ${loop.loop.p999_ms.toFixed(1)} ms, `}max ${loop.loop.max_ms.toFixed(1)} ms${loop.loop.over_100ms_pct === undefined ? '' : `; over 100 ms: ${loop.loop.over_100ms_pct.toFixed(3)} % of ${loop.loop.samples} samples`}`);
if (values.profile && seed.t0_us !== undefined) console.log(`profile of the measured window: npx tsx bench/long-tasks.ts ${values.profile}/CPU.*.0.001.cpuprofile --from-us ${seed.t0_us}`);
process.exit(total5xx === 0 ? 0 : 1);
