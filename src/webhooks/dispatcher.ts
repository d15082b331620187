/**
 * Webhook delivery: `publish` writes one delivery per matching subscription into the outbox (the
 * service writes them inside the change's transaction instead, src/webhooks/publish.ts, and calls
 * `kick`); a background loop
 * sends what is due, signed, with a per-request time-out, a bounded number in flight, and growing
 * delays between tries. Nothing here is awaited by the API or the planner: a slow or dead
 * receiver costs one slot of the loop for at most the time-out.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { OutboxPort } from '../store/ports.js';
import type { Delivery } from '../store/types.js';
import { deliveriesFor, type Subscription } from './publish.js';
import { signatureHeader } from './signature.js';
import { Deadline } from '../io/deadline.js';
import { redactText } from '../io/redact.js';

export type { Subscription } from './publish.js';

/** The outbox as the loop uses it: the storage port's (src/store/ports.ts), or a synchronous repository of the same shape. */
export type OutboxLike = { [K in keyof OutboxPort]: (...args: Parameters<OutboxPort[K]>) => Awaited<ReturnType<OutboxPort[K]>> | ReturnType<OutboxPort[K]> };

/**
 * Delays between tries: a few seconds at first, hours at the end; 11 tries over about 25.7 hours
 * (the Standard Webhooks schedule, stretched past the 24 h that docs/contract/operations.md asks for).
 */
export const defaultRetryDelaysMs: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 36_000_000,
];

export interface WebhookDispatcherOptions {
  outbox: OutboxLike;
  /** The subscriptions of a company that asked for an event (for `publish`). */
  subscriptions: (companyId: number, event: string) => Subscription[] | Promise<Subscription[]>;
  /** A 2xx within this many milliseconds delivers; docs/contract/operations.md: 10 s. */
  timeoutMs?: number;
  /** Delay before try k+2 after try k+1 failed; past the end the delivery is given up. */
  retryDelaysMs?: readonly number[];
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Longest sleep of the loop between looks at the outbox. */
  pollMs?: number;
  /** Deliveries of one subscription in flight at once (default 2): a dead receiver holds no more. */
  perSubscription?: number;
  /**
   * The subscription's URL and secret now, read as each try is sent, so `webhook rotate-secret`
   * (and a changed URL) take effect at the next try, pending deliveries included. Without it (or
   * when it finds no subscription) a delivery goes where, and signed as, it was queued.
   */
  target?: (subscriptionId: number) => Target | undefined | Promise<Target | undefined>;
  /** Subscriptions whose deliveries wait (disabled or paused); read on every look at the outbox. */
  paused?: () => ReadonlySet<number> | Promise<ReadonlySet<number>>;
  /** Every try's outcome per subscription (the service pauses one failing for 24 h). */
  onOutcome?: (subscriptionId: number, ok: boolean, at: number) => void | Promise<void>;
  now?: () => number;
  /** Every try's outcome (the metrics count them). */
  onTry?: (outcome: 'delivered' | 'retrying' | 'given_up') => void;
  onError?: (delivery: Delivery, error: string) => void;
  /** The outbox could not be read or written (busy or full database): the loop backs off. */
  onFault?: (error: unknown) => void;
  /** The name this loop claims deliveries under (default: host, pid and a random part). */
  owner?: string;
  /** How long a claimed delivery is this loop's alone, ms (default 30 s; never under 2 time-outs).
   *  Longer than any try can last, so it needs no renewal; a process that dies mid-send leaves
   *  it to run out, and the delivery goes out again from another process. */
  leaseMs?: number;
}

export interface Target {
  url: string;
  secret: string;
}

type Settings = Required<Omit<WebhookDispatcherOptions, 'onError' | 'onFault' | 'onOutcome' | 'paused' | 'owner' | 'leaseMs' | 'target' | 'onTry'>> &
  Pick<WebhookDispatcherOptions, 'onError' | 'onFault' | 'onOutcome' | 'paused' | 'target' | 'onTry'>;

const DEFAULTS = { timeoutMs: 10_000, retryDelaysMs: defaultRetryDelaysMs, concurrency: 8, pollMs: 1_000, perSubscription: 2, now: Date.now };
/** Longest back-off of the loop after outbox faults. */
const MAX_FAULT_BACKOFF_MS = 30_000;
const NONE: ReadonlySet<number> = new Set();

export class WebhookDispatcher {
  private readonly o: Settings;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Deliveries whose outcome could not be written: not tried again before this (epoch ms). */
  private readonly cooling = new Map<string, number>();
  private faults = 0;
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** A look at the outbox is under way (one at a time). */
  private looking = false;
  /** The lease holder name of this loop. */
  readonly owner: string;
  private readonly leaseMs: number;

  constructor(options: WebhookDispatcherOptions) {
    // an option given as undefined takes its default (a spread would keep the undefined)
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.o = { ...DEFAULTS, ...given } as Settings;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = Math.max(options.leaseMs ?? 30_000, 2 * this.o.timeoutMs);
  }

  /** Queues `event` for every subscription of the company; returns the delivery ids. */
  async publish(companyId: number, event: string, data: unknown): Promise<string[]> {
    const deliveries = deliveriesFor(await this.o.subscriptions(companyId, event), event, data, this.o.now());
    if (deliveries.length > 0) {
      await this.o.outbox.add(deliveries);
      this.kick();
    }
    return deliveries.map((d) => d.id);
  }

  start(): void {
    if (this.running || this.stopping.signal.aborted) return;
    this.running = true;
    this.kick();
  }

  /** Stops the loop and aborts what is in flight; those stay pending and go out after a restart. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.stopping.abort();
    await Promise.allSettled(this.inFlight.values());
  }

  /** Resolves once nothing is in flight and nothing is due now (for tests and shutdown). */
  async settled(): Promise<void> {
    // a look under way may have claimed rows not yet in flight here (an asynchronous store): wait for it
    while (this.inFlight.size > 0 || this.looking || (this.running && ((await this.o.outbox.nextDue(await this.paused(), this.o.now())) ?? Infinity) <= this.o.now())) {
      await Promise.race([...this.inFlight.values(), new Promise((r) => setTimeout(r, 10))]);
    }
  }

  /** Looks at the outbox now (deliveries were written elsewhere, e.g. in a change's transaction). */
  kick(): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 0);
  }

  private async paused(): Promise<ReadonlySet<number>> {
    return (await this.o.paused?.()) ?? NONE;
  }

  private tick(): void {
    if (!this.running || this.looking) return;
    this.looking = true;
    void this.look().finally(() => (this.looking = false));
  }

  private async look(): Promise<void> {
    let wait: number;
    try {
      const now = this.o.now();
      for (const [id, until] of this.cooling) if (until <= now) this.cooling.delete(id);
      const paused = await this.paused();
      const free = this.o.concurrency - this.inFlight.size;
      if (free > 0) {
        const skip = new Set([...this.inFlight.keys(), ...this.cooling.keys()]);
        const lease = { owner: this.owner, until: now + this.leaseMs };
        for (const d of await this.o.outbox.due(now, free, skip, { perSubscription: this.o.perSubscription, paused, lease })) {
          const attempt = this.send(d).finally(() => {
            this.inFlight.delete(d.id);
            this.kick();
          });
          this.inFlight.set(d.id, attempt);
        }
      }
      const next = await this.o.outbox.nextDue(paused, now);
      wait = next === null ? this.o.pollMs : Math.min(this.o.pollMs, Math.max(0, next - now));
      this.faults = 0;
    } catch (error) {
      // a busy or full database: nothing was sent or changed; look again later
      this.o.onFault?.(error);
      wait = Math.min(MAX_FAULT_BACKOFF_MS, 100 * 2 ** Math.min(this.faults++, 20));
    }
    if (!this.running) return;
    clearTimeout(this.timer);
    // at least 50 ms between looks: deliveries due at once go out in one look, and a row that is
    // due but cannot be taken (its subscription at its cap) never spins the loop
    this.timer = setTimeout(() => this.tick(), Math.max(wait, 50));
    this.timer.unref();
  }

  /** Writes a try's outcome; when the outbox cannot take it, the delivery waits in memory. */
  private async record(d: Delivery, write: () => boolean | Promise<boolean> | Promise<void> | void, notBefore: number): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.cooling.set(d.id, notBefore);
      this.o.onFault?.(error);
    }
  }

  private async send(d: Delivery): Promise<void> {
    const attempts = d.attempts + 1;
    let problem: string;
    try {
      const target = (await this.o.target?.(d.subscriptionId)) ?? d;
      // the try's own timer (see io/deadline.ts): a receiver that never answers cannot hold it
      const limit = new Deadline(this.o.timeoutMs, this.stopping.signal);
      let response: Response;
      try {
        response = await limit.race(
          fetch(target.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'user-agent': 'delivery-planner-webhooks/1',
              'x-planner-delivery-id': d.id,
              'x-planner-event': d.event,
              'x-planner-signature': signatureHeader(target.secret, Math.floor(this.o.now() / 1000), d.body),
            },
            body: d.body,
            redirect: 'manual',
            signal: limit.signal,
          }),
        );
        await limit.discard(response);
      } finally {
        limit.close();
      }
      if (response.status >= 200 && response.status < 300) {
        const at = this.o.now();
        // not written: it stays pending and goes out again later (at-least-once, same id)
        await this.record(d, () => this.o.outbox.delivered(d.id, attempts, at, this.owner), at + (this.o.retryDelaysMs[0] ?? 5_000));
        this.o.onTry?.('delivered');
        await this.outcome(d, true, at);
        return;
      }
      problem = `HTTP ${response.status}`;
    } catch (err) {
      if (this.stopping.signal.aborted) {
        // shutting down: it stays pending, untouched, free for the next process at once
        await this.record(d, () => this.o.outbox.release(d.id, this.owner), 0);
        return;
      }
      problem = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${this.o.timeoutMs} ms` : describe(err);
    }
    const now = this.o.now();
    const delay = this.o.retryDelaysMs[attempts - 1];
    const last = this.o.retryDelaysMs.at(-1) ?? 5_000;
    if (delay === undefined) await this.record(d, () => this.o.outbox.giveUp(d.id, attempts, problem, this.owner), now + last);
    else await this.record(d, () => this.o.outbox.retryLater(d.id, attempts, now + delay, problem, this.owner), now + delay);
    this.o.onTry?.(delay === undefined ? 'given_up' : 'retrying');
    await this.outcome(d, false, now);
    this.o.onError?.(d, problem);
  }

  private async outcome(d: Delivery, ok: boolean, at: number): Promise<void> {
    try {
      await this.o.onOutcome?.(d.subscriptionId, ok, at);
    } catch (error) {
      this.o.onFault?.(error);
    }
  }
}

/** A failed try in words, for the outbox's last_error and the log: never a URL's password. */
function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    return redactText(cause instanceof Error ? `${err.message}: ${cause.message}` : err.message);
  }
  return redactText(String(err));
}
