/**
 * What held an event loop: reads a V8 CPU profile (`node --cpu-prof`, e.g. bench/load.ts
 * --profile DIR) and lists the stretches of at least `--min` ms in which the main thread never
 * went idle (no `(idle)` sample and no gap between samples: the loop could not turn), longest
 * first, each with the functions that took most of its samples (self time, and the nearest frame
 * of our own code under them). A stretch's wall time holds the time the thread waited for a core
 * (on a loaded machine a sample comes late); its CPU time is samples x the sampling interval, what
 * the code itself held. `--skip S` leaves out the first S seconds (start-up: module loading).
 *
 * `--from-us T` leaves out what came before the monotonic clock read T (microseconds, the clock of
 * the profile's timestamps and of process.hrtime): bench/load.ts prints the T at which its
 * measured window began (after the server's seeding, which runs under the same profile).
 *
 * Then the gaps of at least `--gap-min` ms between two samples (the thread off the CPU: waiting for
 * a core, or blocked in a system call such as an fsync), each with the frame it resumed in.
 *
 *   npx tsx bench/long-tasks.ts PROFILE.cpuprofile [--min 50] [--top 15] [--skip 3] [--from-us T] [--gap-min 30] [--interval-us 500]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { min: { type: 'string', default: '50' }, top: { type: 'string', default: '15' }, skip: { type: 'string', default: '0' }, 'from-us': { type: 'string' }, 'gap-min': { type: 'string', default: '30' }, 'interval-us': { type: 'string', default: '500' } } });
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; parent?: number; children?: number[] }
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
for (const n of profile.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
const name = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const ours = (n: Node) => /\/src\//.test(n.callFrame.url) && !/node_modules/.test(n.callFrame.url);
const idle = (n: Node) => n.callFrame.functionName === '(idle)';

/** The nearest frame of our own code at or under which the sample ran. */
function ownFrame(id: number): string {
  for (let n: Node | undefined = byId.get(id); n; n = n.parent === undefined ? undefined : byId.get(n.parent)) if (ours(n)) return name(n);
  return '(no frame of src/)';
}

const min = Number(values.min) * 1000;
let t = profile.startTime;
let start = -1;
let ids: number[] = [];
const stretches: Array<{ start: number; us: number; ids: number[] }> = [];
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i]!;
  t += dt;
  const node = byId.get(profile.samples[i]!)!;
  if (idle(node)) {
    if (start >= 0 && t - start >= min) stretches.push({ start, us: t - start, ids });
    start = -1;
    ids = [];
  } else {
    if (start < 0) start = t - dt;
    ids.push(node.id);
  }
}
const interval = Number(values['interval-us']);
const from = values['from-us'] === undefined ? -Infinity : Number(values['from-us']);
const kept = stretches.filter((s) => s.start - profile.startTime >= Number(values.skip) * 1e6 && s.start >= from).sort((a, b) => b.ids.length - a.ids.length);
console.log(`${kept.length} stretches of ${values.min} ms or more (wall) without an idle sample after +${values.skip} s${values['from-us'] === undefined ? '' : ` and from +${((from - profile.startTime) / 1e6).toFixed(1)} s`} (profile ${((t - profile.startTime) / 1e6).toFixed(1)} s), most CPU first`);
for (const s of kept.slice(0, Number(values.top))) {
  const self = new Map<string, number>();
  const own = new Map<string, number>();
  for (const id of s.ids) {
    const n = byId.get(id)!;
    self.set(name(n), (self.get(name(n)) ?? 0) + 1);
    const o = ownFrame(id);
    own.set(o, (own.get(o) ?? 0) + 1);
  }
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${Math.round((100 * v) / s.ids.length)}% ${k}`).join('; ');
  console.log(`\n${((s.ids.length * interval) / 1000).toFixed(0)} ms CPU in ${(s.us / 1000).toFixed(0)} ms wall at +${((s.start - profile.startTime) / 1e6).toFixed(2)} s (${s.ids.length} samples)`);
  console.log(`  self: ${top(self)}`);
  console.log(`  ours: ${top(own)}`);
}

// Gaps: a sample that came long after the one before. The thread was off the CPU the whole time:
// waiting for a core (then the next sample lands anywhere), or blocked in a system call that the
// profiler's signal could not interrupt (an fsync: the next sample lands in the call that made it,
// e.g. better-sqlite3's `exec` of a COMMIT).
const gapMin = Number(values['gap-min']) * 1000;
const gaps: Array<{ at: number; us: number; id: number }> = [];
let clock = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i]!;
  clock += dt;
  if (dt >= gapMin && clock - dt >= from && clock - dt - profile.startTime >= Number(values.skip) * 1e6) gaps.push({ at: clock - dt, us: dt, id: profile.samples[i]! });
}
gaps.sort((a, b) => b.us - a.us);
console.log(`\n${gaps.length} gaps of ${values['gap-min']} ms or more between samples, longest first (the frame of the sample after the gap):`);
for (const g of gaps.slice(0, Number(values.top))) {
  const n = byId.get(g.id)!;
  console.log(`  ${(g.us / 1000).toFixed(0)} ms at +${((g.at - profile.startTime) / 1e6).toFixed(2)} s: ${name(n)} (ours: ${ownFrame(g.id)})`);
}
