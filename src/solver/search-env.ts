/**
 * What the local search reads while it runs (LocalSearchEnv): the neighbour lists, how many of them
 * to use, the shuffle and when to stop. One class for every run of a solve, so that `LocalSearch.run`
 * sees one object layout and one `shuffle` and one `timeUp` function. Object literals made at each
 * call site (`{ ...env, timeUp: tooLong }`) had different layouts and closures: each new one, met
 * after `run` was optimised, threw the compiled `run` away (V8 "wrong map", "wrong call target"),
 * and `run`, with the operators inlined, is the costliest function to compile in a cold second.
 */
import type { LocalSearchEnv } from '../search/local-search.js';
import type { Rng } from './rng.js';
import type { Stop } from './stop.js';

export class SearchEnv implements LocalSearchEnv {
  /**
   * @param use the first `use` neighbours of each order (default all)
   * @param limit stop also once this share of the budget is used (default Infinity: never; a
   *   double from the start, see DOUBLE in route/search-route.ts)
   * @param overall the share is of the overall budget (Stop.progress: parallel epochs map their
   *   window into it) rather than of this run's own (Stop.used)
   */
  constructor(
    readonly neighbours: { k: number; list: Int32Array },
    private readonly rng: Rng,
    private readonly stop: Stop,
    readonly use: number = neighbours.k,
    private readonly limit: number = Infinity,
    private readonly overall: boolean = false,
  ) {}

  shuffle(a: number[]): number[] {
    return this.rng.shuffle(a);
  }

  timeUp(): boolean {
    if (this.stop.timeUp()) return true;
    if (this.limit === Infinity) return false;
    return this.overall ? this.stop.progress() > this.limit : this.stop.used() >= this.limit;
  }

  /** The same with another neighbour count. */
  using(use: number): SearchEnv {
    return new SearchEnv(this.neighbours, this.rng, this.stop, use, this.limit, this.overall);
  }

  /** The same, stopping also past `share` of the overall budget (Stop.progress). */
  untilProgress(share: number): SearchEnv {
    return new SearchEnv(this.neighbours, this.rng, this.stop, this.use, share, true);
  }

  /** The same, stopping also once `share` of this run's budget is used (Stop.used). */
  untilUsed(share: number): SearchEnv {
    return new SearchEnv(this.neighbours, this.rng, this.stop, this.use, share, false);
  }
}
