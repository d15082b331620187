/**
 * What the body parser of the API (src/http/json-body.ts) costs on the hostile bodies of issue 38 and
 * on the largest honest bulk, five runs each, in process. Usage: npx tsx bench/parse-bodies.ts
 */
import { parseJsonBody } from '../src/http/json-body.js';
import { JSON_VALUES } from '../src/http/limits.js';
const flat = (n: number) => `[${'1,'.repeat(n - 1)}1]`;
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const order = (c: string, i: number) => ({ external_id: `${i}`.padEnd(128, c), address: c.repeat(512), name: c.repeat(255), recipient: c.repeat(255), phone: c.repeat(30), notes: 'n'.repeat(10000), lat: '52.1', lon: '13.1', delivery_date: '2026-11-28' });
const bodies: Array<[string, string]> = [['3.5M flat', flat(3_500_000)], ['3.5M deep', nested(3_500_000)], ['500 max orders (3-byte script)', JSON.stringify(Array.from({ length: 500 }, (_, i) => order('ж', i)))], ['500 max orders ASCII', JSON.stringify(Array.from({ length: 500 }, (_, i) => order('a', i)))]];
const limits = { maxValues: JSON_VALUES.bulk, maxTopItems: { max: 500, error: (n: unknown) => new Error(String(n)) } };
for (const [name, body] of bodies) {
  const times: number[] = [];
  for (let k = 0; k < 5; k++) { const t = performance.now(); try { parseJsonBody(body, limits as never); } catch {} times.push(performance.now() - t); }
  console.log(name, body.length, 'chars; ms:', times.map((t) => t.toFixed(1)).join(' '));
}
