/**
 * `delivery-planner demo`: the whole flow on the embedded defaults, against a real server.
 *
 * Sets up the demo company, key, depot and vans (src/service/demo.ts) in a temp database (or
 * `--db FILE`), subscribes a local webhook receiver to both events, starts `serve` as a child
 * process on 127.0.0.1 port 0, then drives the public API like a client would: bulk-uploads
 * orders for tomorrow from the demo address book, waits for geocoding, starts a planning job,
 * waits for `planning_job.finished` (webhook, with polling as the fallback), prints the routes,
 * writes one route as GeoJSON, confirms one delivery through the dispatch API and waits for its
 * `order.status_changed`. Stops the server and exits 0.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';
import { defaultBudgetSec } from '../jobs/service.js';
import { DEMO_ADDRESS_BOOK, ensureDemo } from '../service/demo.js';
import { openStore } from '../store/open.js';
import { verifySignature } from '../webhooks/signature.js';
import { localDate } from '../service/time.js';

const USAGE = 'demo [--db FILE] [--out FILE.geojson] [--job-time-limit SECONDS] [--orders N]';

interface Hook {
  event: string;
  data: any;
  verified: boolean;
}

export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        db: { type: 'string' },
        out: { type: 'string' },
        'job-time-limit': { type: 'string' },
        orders: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (usage: ${USAGE})`);
  }
  if (values.help) {
    process.stdout.write(`usage: delivery-planner ${USAGE}\n`);
    return 0;
  }
  const limit = values['job-time-limit'];
  if (limit !== undefined && (!/^\d{1,4}(\.\d{1,3})?$/.test(limit) || Number(limit) <= 0)) throw new UsageError(`--job-time-limit: expected seconds above 0, got '${limit}'`);
  const book = readAddressBook(DEMO_ADDRESS_BOOK());
  if (values.orders !== undefined && (!/^\d{1,3}$/.test(values.orders) || Number(values.orders) < 1)) {
    throw new UsageError(`--orders: expected 1 to ${book.length}, got '${values.orders}'`);
  }
  const started = Date.now();
  const say = (line: string) => process.stdout.write(line + '\n');
  const temp = values.db === undefined ? mkdtempSync(join(tmpdir(), 'delivery-planner-demo-')) : undefined;
  const dbPath = values.db ?? join(temp!, 'planner.db');

  // 1. a local webhook receiver, checking every signature
  const hooks: Hook[] = [];
  let secret = '';
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const verified = verifySignature(secret, String(req.headers['x-planner-signature'] ?? ''), raw, Math.floor(Date.now() / 1000));
      try {
        const body = JSON.parse(raw) as { event: string; data: unknown };
        hooks.push({ event: body.event, data: body.data, verified });
      } catch {
        /* not ours */
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  // 2. the demo company, key and fleet, and the subscription (what `admin` would do)
  const store = await openStore(dbPath);
  const demo = await ensureDemo(store, new Date().toISOString());
  secret = (await store.webhooks.create({ company_id: demo.company.id, url: hookUrl, events: ['planning_job.finished', 'order.status_changed'] }, new Date().toISOString())).secret;
  await store.close();
  const tz = demo.company.timezone;
  say(`demo company "${demo.company.name}" (${tz}): depot "${demo.warehouse.name}", vans ${demo.vehicles.map((v) => v.name).join(', ')}`);

  // 3. the real server, as `serve` runs (its solver warm-up too: the demo's job, which comes within
  // a second or two, stops it at once; docs/operations.md "The first job after a start")
  const script = process.argv[1]!;
  const child = spawn(
    process.execPath,
    [...process.execArgv, script, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', dbPath, '--log-level', 'warn', ...(limit === undefined ? [] : ['--job-time-limit', limit])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let serverErr = '';
  child.stderr!.on('data', (c: Buffer) => (serverErr = (serverErr + c.toString('utf8')).slice(-4000)));
  const exited = new Promise<number | string>((r) => child.on('exit', (code, signal) => r(code ?? signal ?? -1)));
  let code = 0;
  try {
    const base = await new Promise<string>((resolveBase, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolveBase(m[1]!);
      });
      void exited.then((c) => reject(new Error(`the server exited (${c}) before listening: ${serverErr.trim().split('\n').pop() ?? ''}`)));
    });
    say(`server ${base} (database ${dbPath})`);
    const api = async (method: string, path: string, body?: unknown): Promise<any> => {
      const res = await fetch(base + path, {
        method,
        headers: { authorization: `Api-Key ${demo.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : undefined;
    };

    // 4. orders for tomorrow (or the first later day with no demo route yet, on a reused db)
    let date = addDays(localDate(new Date(), tz), 1);
    while ((await api('GET', `/api/public/v1/routes/?date=${date}`)).count > 0) date = addDays(date, 1);
    const addresses = book.filter((a) => a !== demo.warehouse.address).slice(0, values.orders === undefined ? undefined : Number(values.orders));
    const orders = addresses.map((address, i) => demoOrder(address, i, date));
    const bulk = await api('POST', '/api/public/v1/orders/bulk/', orders);
    say(`uploaded ${orders.length} orders for ${date}: ${bulk.summary.created} created, ${bulk.summary.existing} existing, ${bulk.summary.failed} failed`);
    const ids = new Set<number>(bulk.results.filter((r: any) => r.id !== null).map((r: any) => r.id));

    // 5. geocoding (the table provider on the demo address book)
    await waitUntil(60_000, 'geocoding', async () => {
      const page = await api('GET', '/api/public/v1/orders/?page_size=200');
      const ours = page.results.filter((o: any) => ids.has(o.id));
      return ours.length === ids.size && ours.every((o: any) => o.lat !== null) ? true : undefined;
    });
    say(`geocoded ${ids.size} addresses`);

    // 6. plan, wait for the event
    const job = await api('POST', '/api/public/v1/planning/jobs/', { external_ids: orders.map((o) => o.external_id) });
    const t0 = Date.now();
    const budget = limit === undefined ? defaultBudgetSec(job.input.order_ids.length) : Number(limit);
    say(`planning job ${job.job_id} ${job.status} (${job.input.order_ids.length} orders, budget ${Number(budget.toFixed(2))} s)`);
    const finished = await waitUntil(60_000 + budget * 1000, 'the planning job', async () => {
      const hook = hooks.find((h) => h.event === 'planning_job.finished' && h.data.job_id === job.job_id);
      if (hook) return { view: hook.data, via: `webhook${hook.verified ? ' (signature verified)' : ''}` };
      // polling only once the webhook is well overdue: on a loaded machine a job of a 1 s budget
      // took 5.1 s, and a fallback after 5 s reported "via polling" although the webhook came
      if (Date.now() - t0 > budget * 1000 + 15_000) {
        const polled = await api('GET', `/api/public/v1/planning/jobs/${job.job_id}/`);
        if (polled.status === 'done' || polled.status === 'failed') return { view: polled, via: 'polling' };
      }
      return undefined;
    });
    const view = finished.view;
    say(`planning_job.finished: ${view.status} after ${((Date.now() - t0) / 1000).toFixed(1)} s, via ${finished.via}`);
    if (view.status !== 'done') throw new Error(`the planning job failed: ${view.error}`);

    // 7. the routes
    const routes: any[] = [];
    for (const id of view.result.route_ids) routes.push(await api('GET', `/api/public/v1/routes/${id}/`));
    say('');
    say(table(routes, tz));
    say('');
    const unassigned = view.result.unassigned as Array<{ order_id: number; reason: string }>;
    say(`${view.result.summary.route_count} routes, ${unassigned.length} unassigned${unassigned.length ? ': ' + unassigned.map((u) => `${u.order_id} (${u.reason})`).join(', ') : ''}`);

    // 8. one route as GeoJSON
    const first = routes[0];
    if (first) {
      const out = resolve(values.out ?? join(tmpdir(), 'delivery-planner-demo', `route-${first.id}.geojson`));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(routeGeoJson(first), null, 2) + '\n');
      say(`route ${first.id} as GeoJSON: ${out}`);

      // 9. the dispatcher's and driver's side: assign, start, confirm one delivery
      const vehicles = demo.vehicles.map((v) => v.id);
      let assigned: any;
      for (const vehicleId of vehicles) {
        const res = await fetch(`${base}/api/internal/v1/routes/${first.id}/vehicle`, {
          method: 'POST',
          headers: { authorization: `Api-Key ${demo.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ vehicle_id: vehicleId }),
        });
        if (res.ok) {
          assigned = { vehicleId, route: await res.json() };
          break;
        }
      }
      if (assigned) {
        await api('POST', `/api/internal/v1/routes/${first.id}/start`);
        const stop = first.stops.find((s: any) => s.stop_type === 'order');
        await api('POST', `/api/internal/v1/stops/${stop.id}/status`, { status: 'confirmed' });
        const hook = await waitUntil(30_000, 'the status event', async () =>
          hooks.find((h) => h.event === 'order.status_changed' && h.data.order_id === stop.order_id && h.data.status === 'confirmed'),
        );
        say(`dispatch: route ${first.id} assigned a van and started; stop ${stop.position} (${stop.order_external_id}) confirmed -> order.status_changed ${hook.data.previous_status} -> ${hook.data.status}`);
      }
    }
    const count = (e: string) => hooks.filter((h) => h.event === e).length;
    say(`webhooks received: ${count('planning_job.finished')} planning_job.finished, ${count('order.status_changed')} order.status_changed, ${hooks.every((h) => h.verified) ? 'all signatures valid' : 'SOME SIGNATURES INVALID'}`);
    say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    code = 1;
    process.stderr.write(`demo: ${(err as Error).message}\n`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const exit = await exited;
    if (exit !== 0 && code === 0) {
      code = 1;
      process.stderr.write(`demo: the server exited with ${exit}: ${serverErr.trim().split('\n').pop() ?? ''}\n`);
    }
    await new Promise<void>((r) => {
      receiver.closeAllConnections();
      receiver.close(() => r());
    });
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
  return code;
}

function readAddressBook(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((line) => (line.startsWith('"') ? line.slice(1, line.indexOf('"', 1)) : line.split(',')[0]!));
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** A reproducible order: weights 3-40 kg, some morning or afternoon windows. */
function demoOrder(address: string, i: number, date: string) {
  const r = (k: number) => ((i * 7919 + k * 104729) % 1000) / 1000;
  const order: Record<string, unknown> = {
    external_id: `DEMO-${date}-${String(i + 1).padStart(3, '0')}`,
    address,
    name: `Parcel ${i + 1}`,
    recipient: `Customer ${i + 1}`,
    weight: (3 + 37 * r(1)).toFixed(1),
    volume: (0.02 + 0.25 * r(2)).toFixed(3),
    service_time: 5 + Math.floor(6 * r(3)),
    delivery_date: date,
  };
  if (i % 3 === 0) Object.assign(order, { time_window_start: '09:00:00', time_window_end: '12:00:00' });
  else if (i % 5 === 0) Object.assign(order, { time_window_start: '13:00:00', time_window_end: '17:00:00' });
  return order;
}

function hhmm(ts: string | null, tz: string): string {
  if (!ts) return '--:--';
  return new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(ts));
}

/** route, name, stops, km, minutes, first and last planned arrival (local time). */
function table(routes: any[], tz: string): string {
  const rows = [['route', 'name', 'stops', 'km', 'min', 'kg', 'planned arrivals (local)']];
  for (const r of routes) {
    const orders = r.stops.filter((s: any) => s.stop_type === 'order');
    const arrivals = orders.map((s: any) => hhmm(s.planned_arrival_at, tz));
    const shown = arrivals.length > 6 ? [...arrivals.slice(0, 3), '...', ...arrivals.slice(-2)] : arrivals;
    rows.push([String(r.id), r.name, String(orders.length), r.planned_mileage_km, String(r.planned_duration_min), r.total_weight_kg, shown.join(' ')]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const right = new Set([0, 2, 3, 4, 5]);
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : right.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ')).join('\n');
}

/** The route as a GeoJSON FeatureCollection: the path as a LineString, each stop as a Point. */
export function routeGeoJson(route: any) {
  const coords = route.stops.map((s: any) => [Number(s.lon), Number(s.lat)]);
  return {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: coords },
        properties: { route_id: route.id, name: route.name, date: route.date, planned_mileage_km: route.planned_mileage_km, planned_duration_min: route.planned_duration_min },
      },
      ...route.stops.map((s: any) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [Number(s.lon), Number(s.lat)] },
        properties: {
          position: s.position,
          stop_type: s.stop_type,
          order_external_id: s.order_external_id,
          address: s.address,
          planned_arrival_at: s.planned_arrival_at,
        },
      })),
    ],
  };
}

async function waitUntil<T>(timeoutMs: number, what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
