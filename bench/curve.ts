/**
 * Gap-versus-time curve from the JSON rows that bench/solve.ts leaves in bench/results/.
 *
 *   npx tsx bench/curve.ts --set solomon --times 1,2,5,10 [--threads 2] [--suffix -every10] [--write]
 *
 * Draws bench/gap-<set>.svg (average gap to the distance BKS against seconds per instance, log
 * scale) and prints the table; --write puts it into bench/RESULTS.md inside the solver section.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const set = arg('set', 'solomon')!;
const times = arg('times', '1,2,5,10')!.split(',').map(Number);
const threads = Number(arg('threads', '2'));
const suffix = arg('suffix', '')!;

interface Row {
  gap: number;
  vehicles: number;
  feasible: boolean;
  ms: number;
}
const points: Array<{ t: number; gap: number; n: number; feasible: boolean; vehicles: number }> = [];
for (const t of times) {
  const file = join(root, `bench/results/${set}-${t}s${threads > 1 ? `-t${threads}` : ''}${suffix}.json`);
  if (!existsSync(file)) {
    process.stderr.write(`missing ${file} (run: npm run bench -- --set ${set} --time-limit ${t}${threads > 1 ? ` --threads ${threads}` : ''})\n`);
    continue;
  }
  const rows = (JSON.parse(readFileSync(file, 'utf8')) as { rows: Row[] }).rows;
  points.push({
    t,
    n: rows.length,
    gap: rows.reduce((a, r) => a + r.gap, 0) / rows.length,
    feasible: rows.every((r) => r.feasible),
    vehicles: rows.reduce((a, r) => a + r.vehicles, 0),
  });
}
if (points.length === 0) process.exit(1);

// SVG: log-scale x (seconds), linear y (gap %)
const W = 560;
const H = 340;
const M = { l: 60, r: 20, t: 30, b: 50 };
const xs = points.map((p) => Math.log10(p.t));
const x0 = Math.floor(Math.min(...xs));
const x1 = Math.ceil(Math.max(...xs, x0 + 1));
const yMax = Math.max(0.5, ...points.map((p) => p.gap)) * 1.2;
const X = (t: number) => M.l + ((Math.log10(t) - x0) / (x1 - x0)) * (W - M.l - M.r);
const Y = (g: number) => H - M.b - (Math.max(0, g) / yMax) * (H - M.t - M.b);
const parts: string[] = [];
parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`);
parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
parts.push(`<text x="${W / 2}" y="18" text-anchor="middle" font-size="14">${set}: average gap to the distance BKS (${threads} thread${threads > 1 ? 's' : ''}, trunc1)</text>`);
parts.push(`<line x1="${M.l}" y1="${H - M.b}" x2="${W - M.r}" y2="${H - M.b}" stroke="black"/><line x1="${M.l}" y1="${M.t}" x2="${M.l}" y2="${H - M.b}" stroke="black"/>`);
for (let e = x0; e <= x1; e++)
  for (const m of [1, 2, 5]) {
    const t = m * 10 ** e;
    if (Math.log10(t) > x1) continue;
    parts.push(`<line x1="${X(t)}" y1="${H - M.b}" x2="${X(t)}" y2="${H - M.b + 5}" stroke="black"/><text x="${X(t)}" y="${H - M.b + 18}" text-anchor="middle">${t}</text>`);
  }
const step = yMax > 4 ? 1 : yMax > 2 ? 0.5 : 0.25;
for (let g = 0; g <= yMax; g += step)
  parts.push(`<line x1="${M.l}" y1="${Y(g)}" x2="${W - M.r}" y2="${Y(g)}" stroke="#ddd"/><text x="${M.l - 6}" y="${Y(g) + 4}" text-anchor="end">${g.toFixed(2)}</text>`);
parts.push(`<text x="${W / 2}" y="${H - 12}" text-anchor="middle">seconds per instance (log scale)</text>`);
parts.push(`<text x="16" y="${H / 2}" transform="rotate(-90 16 ${H / 2})" text-anchor="middle">average gap %</text>`);
parts.push(`<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${points.map((p) => `${X(p.t)},${Y(p.gap)}`).join(' ')}"/>`);
for (const p of points) parts.push(`<circle cx="${X(p.t)}" cy="${Y(p.gap)}" r="4" fill="#1f77b4"/><text x="${X(p.t) + 6}" y="${Y(p.gap) - 6}">${p.gap.toFixed(2)} %</text>`);
parts.push('</svg>');
const svgFile = `bench/gap-${set}${suffix}.svg`;
writeFileSync(join(root, svgFile), parts.join('\n') + '\n');

const table = [
  `Gap versus time, ${set}${suffix} (${threads} thread${threads > 1 ? 's' : ''}): ![gap curve](${svgFile.replace('bench/', '')})`,
  '',
  '| seconds per instance | instances | average gap % | vehicles | all feasible | command |',
  '|---:|---:|---:|---:|:-:|---|',
  ...points.map((p) => `| ${p.t} | ${p.n} | ${p.gap.toFixed(2)} | ${p.vehicles} | ${p.feasible ? 'yes' : 'NO'} | \`npm run bench -- --set ${set} --time-limit ${p.t}${threads > 1 ? ` --threads ${threads}` : ''}${suffix.startsWith('-every') ? ` --sample ${suffix.slice(6)}` : ''}\` |`),
].join('\n');
process.stdout.write(table + '\n');
if (process.argv.includes('--write')) {
  const file = join(root, 'bench/RESULTS.md');
  const start = `<!-- bench:curve-${set}${suffix}:start -->`;
  const end = `<!-- bench:curve-${set}${suffix}:end -->`;
  const block = `${start}\n${table}\n${end}`;
  const doc = readFileSync(file, 'utf8');
  const out = doc.includes(start)
    ? doc.slice(0, doc.indexOf(start)) + block + doc.slice(doc.indexOf(end) + end.length)
    : doc.replace('<!-- solver:end -->', `${block}\n\n<!-- solver:end -->`);
  writeFileSync(file, out);
}
