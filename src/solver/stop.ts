/**
 * When the search stops: a wall-clock deadline (hard), an iteration budget, or both, and early
 * when the caller asks it to (`halted`: a solve that gives its thread back to other work returns
 * the best it has). The clock is passed in, so the pure core never reads the time itself.
 */
export type Clock = () => number;

/**
 * A solve asked to stop (`halted`) before its search had a solution to return: while it builds its
 * model, neighbour lists and start. A spare seed or a warm-up task asked to give its thread back
 * (pool/scheduler.ts) is dropped by the caller that asked, so there is nothing to finish: the
 * phases before the search check for it between them (`Stop.checkHalted`) and the task fails at
 * once instead of holding its thread for the rest of a start built on cold code (a warm-up task
 * held a thread 250-565 ms past its stop in session 36's trace, bench/RESULTS.md).
 */
export class SolveHalted extends Error {
  override readonly name = 'SolveHalted';
  constructor() {
    super('the solve was stopped before it began its search');
  }
}

export class Stop {
  iterations = 0;
  private readonly deadline: number;
  constructor(
    private readonly clock: Clock,
    timeLimitMs: number | undefined,
    private readonly maxIterations: number | undefined,
    readonly startedAt = clock(),
    private readonly halted?: () => boolean,
  ) {
    this.deadline = timeLimitMs === undefined ? Infinity : startedAt + timeLimitMs;
  }

  /** True once the deadline or the iteration budget is reached. */
  done(): boolean {
    if (this.halted?.()) return true;
    if (this.maxIterations !== undefined && this.iterations >= this.maxIterations) return true;
    return this.clock() >= this.deadline;
  }

  /** Throws SolveHalted when the caller has asked the solve to stop (between the phases before the search). */
  checkHalted(): void {
    if (this.halted?.()) throw new SolveHalted();
  }

  /** Only the deadline: inner loops check it so a long local search never overruns. */
  timeUp(): boolean {
    if (this.halted?.()) return true;
    return this.deadline !== Infinity && this.clock() >= this.deadline;
  }

  elapsed(): number {
    return this.clock() - this.startedAt;
  }

  /** Which share of an overall search this run covers (parallel epochs); default all of it. */
  window: { from: number; to: number } = { from: 0, to: 1 };

  /** Fraction of this run's own budget used, in [0, 1]. */
  used(): number {
    const byIt = this.maxIterations !== undefined ? this.iterations / this.maxIterations : 0;
    const byTime = this.deadline !== Infinity ? (this.clock() - this.startedAt) / (this.deadline - this.startedAt) : 0;
    return Math.min(1, Math.max(byIt, byTime));
  }

  /** Fraction of the overall budget used, in [0, 1] (for annealing schedules). */
  progress(): number {
    return this.window.from + (this.window.to - this.window.from) * this.used();
  }
}
