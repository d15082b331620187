/**
 * A/B of the service's API speed: bench/api.ts (bulk upload of 500 orders: p50; GET /orders/:
 * requests per second) run from two checkouts in turns, A first on odd turns and B first on even
 * ones, so a machine whose speed drifts hits both alike. Each side runs its own bench/api.ts
 * against its own `serve` (its own src/ through its own tsx), so DIR needs a node_modules (for
 * example a symbolic link to this one's).
 *
 *   git worktree add --detach ../base <commit> && ln -s "$PWD/node_modules" ../base/node_modules
 *   npx tsx bench/ab-api.ts --b ../base [--a .] [--turns 4] [--rounds 30] [--duration 5]
 *
 * Prints each run, then per side the medians and the ratio A/B of each figure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    a: { type: 'string', default: '.' },
    b: { type: 'string' },
    turns: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '30' },
    duration: { type: 'string', default: '5' },
  },
});
if (!values.b) throw new Error('usage: npx tsx bench/ab-api.ts --b DIR [--a DIR] [--turns N] [--rounds N] [--duration S]');
const turns = Number(values.turns);
if (!Number.isInteger(turns) || turns < 1 || turns > 50) throw new Error('--turns must be an integer from 1 to 50');
const sides = { A: resolve(values.a), B: resolve(values.b) };
for (const dir of Object.values(sides)) if (!existsSync(resolve(dir, 'bench/api.ts'))) throw new Error(`no bench/api.ts in ${dir}`);

interface Figures {
  bulkP50: number;
  listRps: number;
}

function run(dir: string): Figures {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/api.ts', '--rounds', values.rounds, '--duration', values.duration], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    timeout: 600_000,
  });
  const bulk = /bulk 500: rounds \d+, p50 ([\d.]+) ms/.exec(r.stdout);
  const list = /GET \/orders\/ [^:]*: (\d+) req\/s average/.exec(r.stdout);
  if (r.status !== 0 || !bulk || !list) throw new Error(`bench/api.ts in ${dir} failed (${r.status}): ${r.stdout.slice(-500)} ${r.stderr.slice(-1000)}`);
  return { bulkP50: Number(bulk[1]), listRps: Number(list[1]) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const seen: Record<'A' | 'B', Figures[]> = { A: [], B: [] };
for (let t = 1; t <= turns; t++) {
  for (const side of t % 2 === 1 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
    const f = run(sides[side]);
    seen[side].push(f);
    console.log(`turn ${t} ${side}: bulk 500 p50 ${f.bulkP50.toFixed(1)} ms, GET /orders/ ${f.listRps} req/s`);
  }
}
const m = (side: 'A' | 'B', k: keyof Figures) => median(seen[side].map((f) => f[k]));
console.log(`A ${sides.A}: bulk p50 median ${m('A', 'bulkP50').toFixed(1)} ms, list median ${m('A', 'listRps').toFixed(0)} req/s`);
console.log(`B ${sides.B}: bulk p50 median ${m('B', 'bulkP50').toFixed(1)} ms, list median ${m('B', 'listRps').toFixed(0)} req/s`);
console.log(`A/B: bulk p50 ${(m('A', 'bulkP50') / m('B', 'bulkP50')).toFixed(3)} (lower is faster), list ${(m('A', 'listRps') / m('B', 'listRps')).toFixed(3)} (higher is faster)`);
