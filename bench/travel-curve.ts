/**
 * How well the haversine road model's travel times match road travel times, per distance band:
 * the old model (great circle x 1.3 at 30 km/h) against the travel curve (model/travel-time.ts,
 * great circle x 1.3 on the curve), and, with `--fit`, a grid search of the curve's parameters.
 *
 *   npx tsx bench/travel-curve.ts [--data /work/shared/data/rwvrp] [--fit]
 *
 * Data:
 * - published travel times of real places: the RWVRP benchmark (github.com/unizg-fer-lares/
 *   RWVRP_benchmark, static `time_matrix.json`: OpenStreetMap roads with a commercial routing
 *   API's times for delivery trucks, averaged over the day) for Lyon (city), Greater Copenhagen
 *   (metropolitan area) and Central Dalmatia (coastal towns and villages), a few rows of each with
 *   the locations' coordinates, kept outside the repository (no licence is stated) as JSON files
 *   `{name, type, lonlat: [[lon, lat]...], rows: [[seconds...]...], skipEastOf?}` in `--data`;
 * - the project's road city (data/city-road: the benchmark city on a made-up street network with
 *   one-way streets, lights and a ring road), every fifth row.
 * The error of a hop is model / road - 1; a band shows the median error (the bias: + means the
 * model plans too slow) and the median absolute error. The fit minimises the mean squared log
 * error with the three real places weighted alike (the road city is made up, so it only shows).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import turfDistance from '@turf/distance';
import { curveSeconds, DEFAULT_TRAVEL_CURVE, type TravelCurve } from '../src/model/travel-time.js';
import { SPEED_BANDS_KM } from '../src/service/speed-report.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const DETOUR = 1.3;

/** A hop: great-circle metres and road seconds. */
type Pair = [metres: number, seconds: number];
interface Place {
  name: string;
  type: string;
  real: boolean;
  pairs: Pair[];
}

const gc = (a: [number, number], b: [number, number]) => turfDistance(a, b, { units: 'meters' });

function published(dir: string): Place[] {
  if (!existsSync(dir)) {
    console.error(`no published travel times at ${dir}: the road city only`);
    return [];
  }
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name: string; type: string; lonlat: Array<[number, number]>; rows: number[][]; skipEastOf?: number };
      const east = d.skipEastOf ?? Infinity;
      const pairs: Pair[] = [];
      d.rows.forEach((row, i) =>
        row.forEach((t, j) => {
          if (i === j || t <= 0 || d.lonlat[i]![0] > east || d.lonlat[j]![0] > east) return;
          pairs.push([gc(d.lonlat[i]!, d.lonlat[j]!), t]);
        }),
      );
      return { name: d.name, type: d.type, real: true, pairs };
    });
}

function roadCity(): Place {
  const m = JSON.parse(readFileSync(join(root, 'data/city-road/city-road.json'), 'utf8')).matrix as {
    duration: Array<Array<number | null>>;
    coordinates: Array<[number, number]>;
  };
  const lonlat = m.coordinates.map(([lat, lon]) => [lon, lat] as [number, number]);
  const pairs: Pair[] = [];
  for (let i = 0; i < lonlat.length; i += 5)
    for (let j = 0; j < lonlat.length; j++) {
      const t = m.duration[i]![j];
      if (i !== j && t) pairs.push([gc(lonlat[i]!, lonlat[j]!), t]);
    }
  return { name: 'road city (Leipzig, made up)', type: 'synthetic', real: false, pairs };
}

type Model = (roadMetres: number) => number;
const OLD: Model = (d) => d / (30 / 3.6);
const curveModel = (c: TravelCurve): Model => (d) => curveSeconds(d, c);

/** log(model / road) of the hops longer than 50 m (shorter ones are one address). */
const logErrors = (model: Model, pairs: Pair[]) => pairs.filter(([m]) => m > 50).map(([m, t]) => Math.log(model(DETOUR * m) / t));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)]!;
};
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(0)} %`;
const msle = (model: Model, pairs: Pair[]) => {
  const e = logErrors(model, pairs);
  return e.reduce((s, x) => s + x * x, 0) / e.length;
};

function bandTable(places: Place[], models: Array<[string, Model]>): string {
  const lines = [
    `| band (great circle) | hops | ${models.map(([n]) => `${n}: bias / median abs. error`).join(' | ')} |`,
    `|---|---|${models.map(() => '---|').join('')}`,
  ];
  const pairs = places.flatMap((p) => p.pairs);
  for (let b = 0; b < SPEED_BANDS_KM.length; b++) {
    const lo = SPEED_BANDS_KM[b]! * 1000;
    const hi = (SPEED_BANDS_KM[b + 1] ?? Infinity) * 1000;
    const inBand = pairs.filter(([m]) => m >= lo && m < hi && m > 50);
    if (inBand.length === 0) continue;
    const cells = models.map(([, model]) => {
      const e = logErrors(model, inBand);
      return `${pct(Math.exp(median(e)) - 1)} / ${(100 * (Math.exp(median(e.map(Math.abs))) - 1)).toFixed(0)} %`;
    });
    lines.push(`| ${lo / 1000}-${hi === Infinity ? '' : hi / 1000} km | ${inBand.length} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

const places = [...published(arg('data', '/work/shared/data/rwvrp')), roadCity()];
const real = places.filter((p) => p.real);
const models: Array<[string, Model]> = [
  ['old (30 km/h)', OLD],
  [`curve (${DEFAULT_TRAVEL_CURVE.townKmh}/${DEFAULT_TRAVEL_CURVE.roadKmh} km/h, ${DEFAULT_TRAVEL_CURVE.transitionM / 1000} km)`, curveModel(DEFAULT_TRAVEL_CURVE)],
];

console.log(`Hops: ${places.map((p) => `${p.name} (${p.type}) ${p.pairs.length}`).join(', ')}.\n`);
console.log('Per place: mean squared log error, old / curve; median error (bias) old / curve\n');
console.log('| place | hops | MSLE old | MSLE curve | bias old | bias curve |\n|---|---|---|---|---|---|');
for (const p of places) {
  const [o, c] = models.map(([, m]) => msle(m, p.pairs));
  const [bo, bc] = models.map(([, m]) => pct(Math.exp(median(logErrors(m, p.pairs))) - 1));
  console.log(`| ${p.name} | ${p.pairs.length} | ${o!.toFixed(3)} | ${c!.toFixed(3)} | ${bo} | ${bc} |`);
}
if (real.length > 0) {
  console.log(`\nThe three real places together, per band:\n`);
  console.log(bandTable(real, models));
}
console.log(`\nThe road city, per band:\n`);
console.log(bandTable([roadCity()], models));

if (process.argv.includes('--fit') && real.length > 0) {
  const score = (c: TravelCurve) => real.reduce((s, p) => s + msle(curveModel(c), p.pairs), 0) / real.length;
  const rows: Array<[number, TravelCurve]> = [];
  for (let townKmh = 20; townKmh <= 34; townKmh += 2)
    for (let roadKmh = 50; roadKmh <= 90; roadKmh += 2)
      for (const transitionM of [2000, 3000, 4000, 5000, 6000, 8000]) rows.push([score({ townKmh, roadKmh, transitionM }), { townKmh, roadKmh, transitionM }]);
  rows.sort((a, b) => a[0] - b[0]);
  console.log('\nBest curves (mean over the real places of the mean squared log error), and the best for each town speed:\n');
  const best = new Map<number, [number, TravelCurve]>();
  for (const r of rows) if (!best.has(r[1].townKmh)) best.set(r[1].townKmh, r);
  for (const [s, c] of [...rows.slice(0, 3), ...[...best.values()].sort((a, b) => a[1].townKmh - b[1].townKmh)])
    console.log(`- town ${c.townKmh} km/h, road ${c.roadKmh} km/h, transition ${c.transitionM / 1000} km: ${s.toFixed(4)}`);
  console.log(`- the default (${DEFAULT_TRAVEL_CURVE.townKmh}/${DEFAULT_TRAVEL_CURVE.roadKmh}/${DEFAULT_TRAVEL_CURVE.transitionM / 1000}): ${score(DEFAULT_TRAVEL_CURVE).toFixed(4)}; the old line: ${(real.reduce((s, p) => s + msle(OLD, p.pairs), 0) / real.length).toFixed(4)}`);
}
