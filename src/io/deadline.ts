/**
 * A time limit for one HTTP exchange that holds even when an abort does not reach the request.
 * Node's fetch (undici) follows the caller's signal through a weak link that garbage collection
 * can cut (nodejs/node#55428): a request to a server that never answers then waits for the next
 * deadline up (the geocoder's 300 ms attempt waited for its 30 s lookup deadline in a loaded test
 * run). Here the timer is the caller's own: on expiry it aborts the request's signal and also
 * rejects every `race`d promise, so the caller stops waiting whatever the request does.
 */
export class Deadline {
  /** The signal to hand to fetch. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly expired: Promise<never>;
  private fail: (reason: unknown) => void = () => undefined;
  private readonly onOuterAbort: () => void;

  /** `ms` from now, or sooner when `outer` aborts (its reason is then the error). */
  constructor(
    ms: number,
    private readonly outer?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.expired = new Promise<never>((_, reject) => (this.fail = reject));
    // a rejection nobody races is not an unhandled one
    this.expired.catch(() => undefined);
    const stop = (reason: unknown) => {
      this.controller.abort(reason);
      this.fail(reason);
    };
    this.timer = setTimeout(() => stop(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
    this.onOuterAbort = () => stop(outer!.reason);
    if (outer?.aborted) this.onOuterAbort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  /** `p`, or the deadline's error if it comes first. */
  race<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.expired]);
  }

  /** Lets go of an answer's body unread, within the limit; a body that will not cancel is no error. */
  async discard(response: Response): Promise<void> {
    await this.race(response.body?.cancel() ?? Promise.resolve()).catch(() => undefined);
  }

  /** Ends the deadline (the exchange is over): no timer and no listener left behind. */
  close(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}
