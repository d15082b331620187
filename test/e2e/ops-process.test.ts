/**
 * Health, readiness, metrics and request ids on real processes (docs/contract/operations.md, "Health, readiness,
 * metrics and request ids"; issue 38): `serve` with /metrics on the API port or on `--metrics-port`,
 * `worker --metrics-port`; on SIGTERM /readyz turns 503 before the process exits 0; every log line
 * of a request carries its id.
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgs } from '../helpers/cli-command.js';
import { seedDb, startServe } from './serve.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const stops: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** Polls /readyz until it answers 503 or the request fails (the port closed); the 503s seen. */
async function watchReadiness(url: string, exited: Promise<unknown>): Promise<Array<{ status: number; body: unknown }>> {
  const seen: Array<{ status: number; body: unknown }> = [];
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    try {
      const r = await fetch(`${url}/readyz`);
      const body = await r.json();
      if (r.status === 503) seen.push({ status: r.status, body });
    } catch {
      break;
    }
    await new Promise((res) => setTimeout(res, 20));
  }
  return seen;
}

describe('serve', () => {
  it('answers /healthz, /readyz and /metrics on the API port; echoes X-Request-Id into every log line of the request; SIGTERM: 503 first, then exit 0', async () => {
    const { db, key } = seedDb();
    const s = await startServe(db, ['--log-level', 'info']);
    stops.push(() => (s.child.exitCode === null ? s.kill('SIGKILL') : undefined));
    expect(await (await fetch(`${s.base}/healthz`)).json()).toEqual({ status: 'ok' });
    // ready once the solver threads are up (503 with that reason until then)
    expect(await untilReady(s.base)).toEqual({ status: 'ready' });

    const traced = await fetch(`${s.base}/api/public/v1/orders/`, { headers: { authorization: `Api-Key ${key}`, 'x-request-id': 'trace-issue-38' } });
    expect(traced.headers.get('x-request-id')).toBe('trace-issue-38');
    const insane = await fetch(`${s.base}/api/public/v1/orders/`, { headers: { authorization: `Api-Key ${key}`, 'x-request-id': 'no spaces allowed' } });
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const metrics = await fetch(`${s.base}/metrics`);
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await metrics.text()).toContain('planner_http_requests_total{route="/api/public/v1/orders/",method="GET",status="200"} 2');

    const watching = watchReadiness(s.base, s.exited);
    s.child.kill('SIGTERM');
    const [notReady, code] = await Promise.all([watching, s.exited]);
    expect(code).toBe(0);
    expect(notReady[0]).toEqual({ status: 503, body: { status: 'not_ready', reason: 'shutting down' } });

    const lines = s.stderr().split('\n').filter((l) => l.includes('trace-issue-38'));
    // fastify's own lines of the request (received, completed), each with the id
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line).reqId).toBe('trace-issue-38');
  });

  it('--metrics-port moves /metrics off the API port', async () => {
    const { db } = seedDb();
    const port = await freePort();
    const s = await startServe(db, ['--metrics-port', String(port)]);
    stops.push(() => (s.child.exitCode === null ? s.kill('SIGKILL') : undefined));
    expect((await fetch(`${s.base}/metrics`)).status).toBe(404);
    const out = `http://127.0.0.1:${port}`;
    expect(await (await fetch(`${out}/metrics`)).text()).toMatch(/^# HELP planner_/m);
    expect(await untilReady(out)).toEqual({ status: 'ready' });
    expect(await s.kill('SIGTERM')).toBe(0);
  });
});

describe('worker --metrics-port', () => {
  it('serves /healthz, /readyz and /metrics; SIGTERM: 503 first, then exit 0', async () => {
    const { db } = seedDb();
    const child = spawn(process.execPath, [...cliArgs(), 'worker', '--db', db, '--log-level', 'warn', '--metrics-port', '0', '--workers', '1'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
    stops.push(() => (child.exitCode === null ? void child.kill('SIGKILL') : undefined));
    const url = await metricsUrl(child);
    await waitFor(child, 'worker ready\n');
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await untilReady(url)).toEqual({ status: 'ready' });
    const text = await (await fetch(`${url}/metrics`)).text();
    for (const name of ['planner_planning_queue_depth', 'planner_webhook_backlog', 'planner_geocoding_backlog', 'planner_planning_jobs_total']) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    const watching = watchReadiness(url, exited);
    child.kill('SIGTERM');
    const [notReady, code] = await Promise.all([watching, exited]);
    expect(code).toBe(0);
    expect(notReady[0]).toEqual({ status: 503, body: { status: 'not_ready', reason: 'shutting down' } });
  });
});

/** Polls /readyz until 200 (503 while the solver threads load); its body. */
async function untilReady(base: string): Promise<unknown> {
  for (;;) {
    const r = await fetch(`${base}/readyz`);
    const body = await r.json();
    if (r.status === 200) return body;
    expect(r.status).toBe(503);
    expect(body).toEqual({ status: 'not_ready', reason: 'the solver threads are not up yet' });
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const output = new WeakMap<object, { text: string }>();
function stdoutOf(child: ReturnType<typeof spawn>): { text: string } {
  let o = output.get(child);
  if (!o) {
    const box = { text: '' };
    child.stdout!.on('data', (c: Buffer) => (box.text += c.toString('utf8')));
    output.set(child, box);
    o = box;
  }
  return o;
}

async function waitFor(child: ReturnType<typeof spawn>, needle: string): Promise<string> {
  const box = stdoutOf(child);
  for (let i = 0; i < 600; i++) {
    if (box.text.includes(needle)) return box.text;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`no '${needle.trim()}' on stdout: ${box.text}`);
}

async function metricsUrl(child: ReturnType<typeof spawn>): Promise<string> {
  const text = await waitFor(child, 'metrics on ');
  return /metrics on (http:\/\/\S+)/.exec(text)![1]!;
}
