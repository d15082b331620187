/**
 * What the body parser of the API (src/http/json-body.ts) costs on the hostile bodies of issue 38 and
 * on the largest honest bulk, five runs each, in process. Two ways: `whole` (parseJsonBody on the
 * whole body as one string: the scan, then JSON.parse) and `chunks` (as the app reads a body: its
 * bytes in 64 KiB chunks, each scanned and decoded as it comes, then joined and parsed at the end).
 * For `chunks` it gives the longest single step (what holds the event loop at once) and the sum.
 * Usage: npx tsx bench/parse-bodies.ts
 */
import { StringDecoder } from 'node:string_decoder';
import { JsonScanner, parseJsonBody, parseScanned } from '../src/http/json-body.js';
import { JSON_VALUES } from '../src/http/limits.js';
const flat = (n: number) => `[${'1,'.repeat(n - 1)}1]`;
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const order = (c: string, i: number) => ({ external_id: `${i}`.padEnd(128, c), address: c.repeat(512), name: c.repeat(255), recipient: c.repeat(255), phone: c.repeat(30), notes: 'n'.repeat(10000), lat: '52.1', lon: '13.1', delivery_date: '2026-11-28' });
const bodies: Array<[string, string]> = [['3.5M flat', flat(3_500_000)], ['3.5M deep', nested(3_500_000)], ['500 max orders (3-byte script)', JSON.stringify(Array.from({ length: 500 }, (_, i) => order('ж', i)))], ['500 max orders ASCII', JSON.stringify(Array.from({ length: 500 }, (_, i) => order('a', i)))]];
const limits = { maxValues: JSON_VALUES.bulk, maxTopItems: { max: 500, error: (n: unknown) => new Error(String(n)) } };
const CHUNK = 64 * 1024;
for (const [name, body] of bodies) {
  const times: number[] = [];
  for (let k = 0; k < 5; k++) { const t = performance.now(); try { parseJsonBody(body, limits as never); } catch {} times.push(performance.now() - t); }
  console.log(`${name}, whole: ${body.length} chars; ms: ${times.map((t) => t.toFixed(1)).join(' ')}`);
  const bytes = Buffer.from(body, 'utf8');
  const runs: string[] = [];
  for (let k = 0; k < 5; k++) {
    // fresh chunk buffers each run, as a socket hands them over
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(Buffer.from(bytes.subarray(at, at + CHUNK)));
    const scanner = new JsonScanner(limits as never);
    let longest = 0;
    let sum = 0;
    let read = 0;
    let refused = false;
    const kept: string[] = [];
    const decoder = new StringDecoder('utf8');
    for (const chunk of chunks) {
      const t = performance.now();
      try { scanner.push(chunk); kept.push(decoder.write(chunk)); } catch { refused = true; }
      const d = performance.now() - t;
      longest = Math.max(longest, d); sum += d; read++;
      if (refused) break;
    }
    let last = 0;
    if (!refused) {
      const t = performance.now();
      scanner.end();
      kept.push(decoder.end());
      parseScanned(kept.join(''));
      last = performance.now() - t;
      sum += last;
    }
    runs.push(`${refused ? `refused at chunk ${read} of ${chunks.length}` : `${chunks.length} chunks`}: longest scan+decode step ${longest.toFixed(2)}, ${refused ? '' : `join+parse ${last.toFixed(1)}, `}sum ${sum.toFixed(1)}`);
  }
  console.log(`${name}, chunks (ms):\n  ${runs.join('\n  ')}`);
}
