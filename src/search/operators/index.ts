/** The operator registry, in the default order the local search tries them. */
import type { Operator } from '../operator.js';
import { Relocate } from './relocate.js';
import { Swap } from './swap.js';
import { TwoOpt } from './two-opt.js';
import { TwoOptStar } from './two-opt-star.js';

export { Relocate, Swap, TwoOpt, TwoOptStar };

export function defaultOperators(): Operator[] {
  return [new Relocate(1), new Swap(), new TwoOptStar(), new Relocate(2), new Relocate(3), new TwoOpt()];
}
