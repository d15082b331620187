/**
 * API benchmark against the real server on loopback: spawns `delivery-planner serve` (from
 * source through tsx, default JSON logging at info, table geocoder on the demo address book) on a
 * fresh SQLite file, then
 *   1. POST /orders/bulk/ with 500 new orders, ROUNDS times, one after another: p50 and p95 of
 *      the client-side latency (geocoding of the previous batches runs in the background);
 *   2. GET /orders/ (page 1, page_size 50, newest first) with autocannon: requests per second.
 * Usage: npx tsx bench/api.ts [--rounds 30] [--duration 10] [--connections 10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { parseCsv } from '../src/geocode/address-book.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const ROUNDS = Number(values.rounds);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function startServer(db: string): Promise<{ url: string; key: string; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli.ts'), 'serve', '--port', '0', '--db', db, '--demo', '--rate-limit', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    proc.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      const key = /demo API key \(every scope, shown once\): (\S+)/.exec(out)?.[1];
      if (url && key) {
        resolve({
          url,
          key,
          stop: () =>
            new Promise<void>((done) => {
              proc.removeAllListeners('exit');
              proc.on('exit', () => done());
              proc.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'dp-bench-api-'));
  const server = await startServer(join(dir, 'bench.db'));
  const headers = { authorization: `Api-Key ${server.key}`, 'content-type': 'application/json' };
  const book = parseCsv(readFileSync(join(root, 'data/demo/addresses.csv'), 'utf8')).slice(1).map((r) => r[0]!);
  try {
    const batch = (round: number) =>
      JSON.stringify(
        Array.from({ length: 500 }, (_, i) => ({
          external_id: `B${round}-${i}`,
          address: i % 2 === 0 ? book[i % book.length] : `Unknown street ${i}, Berlin`,
          recipient: `Recipient ${i}`,
          phone: '+49 30 1234567',
          weight: (1 + (i % 40) * 0.25).toFixed(3),
          volume: '0.050',
          time_window_start: '09:00:00',
          time_window_end: '17:00:00',
          service_time: 5,
          delivery_date: '2026-12-01',
        })),
      );
    // warm-up (JIT, prepared statements), not counted
    await fetch(`${server.url}/api/public/v1/orders/bulk/`, { method: 'POST', headers, body: batch(-1) }).then((r) => r.text());
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const body = batch(round);
      const t0 = performance.now();
      const r = await fetch(`${server.url}/api/public/v1/orders/bulk/`, { method: 'POST', headers, body });
      const json = (await r.json()) as { summary: { created: number } };
      times.push(performance.now() - t0);
      if (r.status !== 200 || json.summary.created !== 500) throw new Error(`bulk round ${round}: ${r.status} ${JSON.stringify(json.summary)}`);
    }
    times.sort((a, b) => a - b);
    console.log(
      `bulk 500: rounds ${ROUNDS}, p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
    );

    const result = await autocannon({
      url: `${server.url}/api/public/v1/orders/`,
      headers: { authorization: headers.authorization },
      connections: Number(values.connections),
      duration: Number(values.duration),
    });
    const non2xx = result.non2xx + result.errors;
    console.log(
      `GET /orders/ (page of 50 of ${(ROUNDS + 1) * 500} orders): ${result.requests.average.toFixed(0)} req/s average, ` +
        `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${Number(values.connections)} connections, ${values.duration} s, non-2xx/errors ${non2xx}`,
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
