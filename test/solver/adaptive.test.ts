/**
 * The adaptive choice: weights follow the options' success, never starve an option that is on,
 * and never pick one that starts off.
 */
import { describe, expect, it } from 'vitest';
import { AdaptiveChoice, MIN_SHARE, SEGMENT } from '../../src/solver/adaptive.js';
import { Rng } from '../../src/solver/rng.js';

function run(choice: AdaptiveChoice, rng: Rng, uses: number, success: (option: number) => number): number[] {
  const picked = choice.weights.map(() => 0);
  for (let t = 0; t < uses; t++) {
    const o = choice.pick(rng);
    picked[o]++;
    choice.score(o, success(o));
  }
  return picked;
}

describe('AdaptiveChoice', () => {
  it('starts even and moves towards the option that succeeds', () => {
    const rng = new Rng(1);
    const choice = new AdaptiveChoice([1, 1]);
    const first = run(choice, rng, SEGMENT, () => 0);
    expect(Math.abs(first[0] - first[1])).toBeLessThan(SEGMENT * 0.3);
    run(choice, rng, 20 * SEGMENT, (o) => (o === 1 ? 1 : 0));
    const late = run(choice, rng, 10 * SEGMENT, (o) => (o === 1 ? 1 : 0));
    expect(late[1] / (10 * SEGMENT)).toBeGreaterThan(0.8);
  });

  it('keeps a losing option at a tenth of the total weight, so it is still tried', () => {
    const rng = new Rng(2);
    const choice = new AdaptiveChoice([1, 1]);
    const picked = run(choice, rng, 50 * SEGMENT, (o) => (o === 0 ? 1 : 0));
    const total = choice.weights[0] + choice.weights[1];
    expect(choice.weights[1] / total).toBeCloseTo(MIN_SHARE, 9);
    expect(picked[1]).toBeGreaterThan(0.05 * 50 * SEGMENT);
  });

  it('turns back to an option that starts to succeed', () => {
    const rng = new Rng(3);
    const choice = new AdaptiveChoice([1, 1]);
    run(choice, rng, 20 * SEGMENT, (o) => (o === 0 ? 1 : 0));
    expect(choice.weights[0]).toBeGreaterThan(choice.weights[1]);
    run(choice, rng, 40 * SEGMENT, (o) => (o === 1 ? 1 : 0));
    expect(choice.weights[1]).toBeGreaterThan(choice.weights[0]);
  });

  it('settles on each option\'s share of the successes, and survives long runs without any', () => {
    const rng = new Rng(5);
    const choice = new AdaptiveChoice([1, 1]);
    // option 0 succeeds on 30 % of its uses, option 1 on 10 %: the rest point is 3 : 1
    const u = new Rng(6);
    run(choice, rng, 200 * SEGMENT, (o) => (u.next() < (o === 0 ? 0.3 : 0.1) ? 1 : 0));
    expect(choice.weights[0] / (choice.weights[0] + choice.weights[1])).toBeGreaterThan(0.6);
    expect(choice.weights[0] / (choice.weights[0] + choice.weights[1])).toBeLessThan(0.9);
    run(choice, rng, 5000 * SEGMENT, () => 0);
    const picked = run(choice, rng, 10 * SEGMENT, () => 0);
    for (const w of choice.weights) expect(w).toBeGreaterThan(0.05);
    expect(picked[0]).toBeGreaterThan(0);
    expect(picked[1]).toBeGreaterThan(0);
  });

  it('never picks an option whose weight starts at 0', () => {
    for (const start of [
      [0, 1],
      [1, 0],
      [0, 1, 1],
    ]) {
      const choice = new AdaptiveChoice(start);
      const picked = run(choice, new Rng(4), 20 * SEGMENT, () => 1);
      start.forEach((w, i) => (w === 0 ? expect(picked[i]).toBe(0) : expect(picked[i]).toBeGreaterThan(0)));
    }
  });
});
