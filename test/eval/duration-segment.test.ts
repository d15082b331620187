import { describe, expect, it } from 'vitest';
import { DurationSegment } from '../../src/eval/duration-segment.js';
import { lcg } from '../helpers/problems.js';

interface Visit {
  service: number;
  early: number;
  late: number;
}

function randomVisits(rnd: () => number, n: number): { visits: Visit[]; travel: number[] } {
  const visits: Visit[] = [];
  const travel: number[] = [];
  for (let i = 0; i < n; i++) {
    const early = Math.round(rnd() * 200);
    visits.push({ service: Math.round(rnd() * 10), early, late: early + Math.round(rnd() * 80) });
    travel.push(Math.round(rnd() * 30));
  }
  return { visits, travel };
}

const single = (v: Visit) => new DurationSegment(v.service, 0, v.early, v.late);

/** Left-to-right merge of visits i..j. */
function mergeRange(vs: Visit[], travel: number[], i: number, j: number): DurationSegment {
  const s = single(vs[i]);
  for (let k = i + 1; k <= j; k++) s.append(travel[k - 1], vs[k].service, 0, vs[k].early, vs[k].late);
  return s;
}

/** Direct simulation from a start time: finish time and total lateness (time warp). */
function simulate(vs: Visit[], travel: number[], start: number): { finish: number; warp: number } {
  let t = Math.max(start, vs[0].early);
  let warp = 0;
  for (let k = 0; k < vs.length; k++) {
    if (k > 0) t = Math.max(t + travel[k - 1], vs[k].early);
    if (t > vs[k].late) {
      warp += t - vs[k].late;
      t = vs[k].late; // time warp: travel back to the latest allowed start
    }
    t += vs[k].service;
  }
  return { finish: t, warp };
}

describe('DurationSegment (Vidal et al. 2013 merge)', () => {
  it('merges associatively', () => {
    const rnd = lcg(5);
    for (let trial = 0; trial < 300; trial++) {
      const { visits, travel } = randomVisits(rnd, 6);
      const all = mergeRange(visits, travel, 0, 5);
      const cut = 1 + Math.floor(rnd() * 4);
      const left = mergeRange(visits, travel, 0, cut);
      const right = mergeRange(visits, travel, cut + 1, 5);
      left.append(travel[cut], right.d, right.tw, right.e, right.l);
      const pre = mergeRange(visits, travel, cut + 1, 5);
      pre.prepend(mergeRange(visits, travel, 0, cut).d, mergeRange(visits, travel, 0, cut).tw, mergeRange(visits, travel, 0, cut).e, mergeRange(visits, travel, 0, cut).l, travel[cut]);
      for (const s of [left, pre]) {
        expect(s.d).toBeCloseTo(all.d, 9);
        expect(s.tw).toBeCloseTo(all.tw, 9);
        expect(s.e).toBeCloseTo(all.e, 9);
        expect(s.l).toBeCloseTo(all.l, 9);
      }
    }
  });

  it('agrees with a direct simulation: time warp, and the minimal duration from its earliest start', () => {
    const rnd = lcg(9);
    let feasibleSeen = 0;
    for (let trial = 0; trial < 500; trial++) {
      const { visits, travel } = randomVisits(rnd, 1 + Math.floor(rnd() * 5));
      const s = mergeRange(visits, travel, 0, visits.length - 1);
      // brute force over integer start times: the least warp, then the least duration
      let bestWarp = Infinity;
      let bestDuration = Infinity;
      for (let start = 0; start <= 400; start++) {
        const r = simulate(visits, travel, start);
        const dur = r.finish - Math.max(start, visits[0].early) + (Math.max(start, visits[0].early) - start);
        if (r.warp < bestWarp - 1e-9 || (Math.abs(r.warp - bestWarp) <= 1e-9 && dur < bestDuration)) {
          bestWarp = r.warp;
          bestDuration = dur;
        }
      }
      if (s.tw === 0) {
        feasibleSeen++;
        expect(bestWarp).toBe(0);
        const r = simulate(visits, travel, s.e);
        expect(r.warp).toBe(0);
        expect(r.finish - s.e).toBeCloseTo(s.d, 9);
        expect(s.d).toBeCloseTo(bestDuration, 9);
      } else {
        expect(bestWarp).toBeGreaterThan(0);
      }
    }
    expect(feasibleSeen).toBeGreaterThan(50);
  });
});
