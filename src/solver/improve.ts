/** The improvement phase: local search, then ruin-and-recreate until the stop says so. */
import type { Objective } from '../model/input.js';
import type { SearchSolution } from '../route/search-solution.js';
import { LocalSearch } from '../search/local-search.js';
import type { Rng } from './rng.js';
import type { Stop } from './stop.js';

export interface ImproveContext {
  neighbours: { k: number; list: Int32Array };
  rng: Rng;
  stop: Stop;
  objective: Objective;
}

export function improve(sol: SearchSolution, ctx: ImproveContext): void {
  const ls = new LocalSearch(sol);
  ls.touchAll();
  ls.run({ neighbours: ctx.neighbours, shuffle: (a) => ctx.rng.shuffle(a), timeUp: () => ctx.stop.timeUp() });
}
