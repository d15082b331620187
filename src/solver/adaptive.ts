/**
 * Adaptive choice between a few options of the search, as in ALNS (Ropke & Pisinger 2006):
 * options are drawn by roulette on their weights; each use scores a value in [0, 1] (the search
 * scores 1 when the option improved on the current solution); every SEGMENT uses, each weight
 * moves a fifth of the way towards its option's mean score, and the weights are scaled back to a
 * sum of 1 (which leaves the weights' resting point, each option's share of the success, as it
 * is). No option falls below a tenth of the total (MIN_SHARE), so an option that starts to work
 * again is seen. A weight of 0 at the start switches an option off for good.
 */
import type { Rng } from './rng.js';

/** Uses between two weight updates. */
export const SEGMENT = 100;

/** The least share of the total weight an option that is on keeps (with fewer than ten options). */
export const MIN_SHARE = 0.1;

export class AdaptiveChoice {
  private readonly scores: Float64Array;
  private readonly uses: Float64Array;
  private readonly off: boolean[];
  private used = 0;
  constructor(readonly weights: number[]) {
    this.scores = new Float64Array(weights.length);
    this.uses = new Float64Array(weights.length);
    this.off = weights.map((w) => w === 0);
  }
  pick(rng: Rng): number {
    let total = 0;
    for (const w of this.weights) total += w;
    let x = rng.next() * total;
    for (let i = 0; i < this.weights.length; i++) {
      x -= this.weights[i];
      if (x < 0 && !this.off[i]) return i;
    }
    for (let i = this.weights.length - 1; i >= 0; i--) if (!this.off[i]) return i;
    return 0;
  }
  score(option: number, value: number): void {
    this.scores[option] += value;
    this.uses[option]++;
    if (++this.used < SEGMENT) return;
    this.used = 0;
    let total = 0;
    for (let i = 0; i < this.weights.length; i++) {
      if (this.off[i]) continue;
      if (this.uses[i] > 0) this.weights[i] = 0.8 * this.weights[i] + 0.2 * (this.scores[i] / this.uses[i]);
      total += this.weights[i];
    }
    // back to a sum of 1 (the same fixed point, and no underflow when nothing succeeds for long)
    if (total > 0) for (let i = 0; i < this.weights.length; i++) this.weights[i] /= total;
    else for (let i = 0; i < this.weights.length; i++) this.weights[i] = this.off[i] ? 0 : 1;
    total = 0;
    for (const w of this.weights) total += w;
    // lift the options below MIN_SHARE to exactly MIN_SHARE of the new total
    let low = 0;
    let rest = 0;
    for (let i = 0; i < this.weights.length; i++) {
      if (this.off[i]) continue;
      if (this.weights[i] < MIN_SHARE * total) low++;
      else rest += this.weights[i];
    }
    if (low > 0 && rest > 0) {
      const floor = (MIN_SHARE * rest) / (1 - MIN_SHARE * low);
      for (let i = 0; i < this.weights.length; i++) if (!this.off[i] && this.weights[i] < MIN_SHARE * total) this.weights[i] = floor;
    }
    this.scores.fill(0);
    this.uses.fill(0);
  }
}

