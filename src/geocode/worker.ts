/**
 * Drains the persisted geocoding queue in the background, after the create responses. A task
 * leaves the queue in the same transaction that writes its result, so a crash or kill -9 only
 * means the task runs again on the next start. Results are committed in small batches (one
 * fsync for up to `batchSize` table lookups); between batches the loop yields to the event loop
 * so the API stays responsive.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { StorePort } from '../store/port.js';
import { portOf } from '../store/sqlite/port.js';
import type { Store } from '../store/sqlite/store.js';
import type { GeocodeTask } from '../store/types.js';
import { systemClock, type Clock } from '../service/time.js';
import { GeocodeError, type Coordinates, type Geocoder } from './providers.js';

export interface GeocodeWorkerOptions {
  /** The storage port, or the SQLite store (used through its one port). */
  store: Store | StorePort;
  geocoder: Geocoder;
  clock?: Clock;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  batchSize?: number;
  /** Delay before retrying a task whose provider failed: base * 2^attempts, capped at 1 h. */
  retryBaseMs?: number;
  /** After this many failed attempts the task is dropped and the order keeps null lat/lon. */
  maxAttempts?: number;
  /** The name this worker claims tasks under (default: host, pid and a random part). */
  owner?: string;
  /** How long claimed tasks are this worker's alone, ms (default 30 000). Each look at the queue
   *  claims them anew. A lookup that outlives its lease is harmless: its result is written only
   *  while this worker still holds the task, else another process looks it up again. */
  leaseMs?: number;
  /** Longest sleep between looks at the queue when idle, ms (default 1 000): other processes
   *  queue tasks too, and a dead process's leases run out. */
  pollMs?: number;
}

type Outcome = { task: GeocodeTask; coordinates: Coordinates | null } | { task: GeocodeTask; error: GeocodeError };

export class GeocodeWorker {
  private readonly store: StorePort;
  private readonly clock: Clock;
  private readonly batchSize: number;
  private readonly retryBaseMs: number;
  private readonly maxAttempts: number;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];
  private abort = new AbortController();
  readonly owner: string;

  constructor(private readonly options: GeocodeWorkerOptions) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.store = portOf(options.store);
    this.clock = options.clock ?? systemClock;
    this.batchSize = options.batchSize ?? 50;
    this.retryBaseMs = options.retryBaseMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 10;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    this.loop = this.run();
  }

  /** New work was committed: look at the queue now. */
  notify(): void {
    this.wake?.();
  }

  /** Aborts the lookup in flight (its task stays queued), commits the finished ones, stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.notify();
    await this.loop;
    try {
      await this.store.geocodeQueue.releaseAll(this.owner);
    } catch {
      // the leases run out instead
    }
    this.releaseIdle();
  }

  /** Resolves when no task is due (tests wait on it instead of sleeping). */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.notify();
    });
  }

  private releaseIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.step();
      } catch (err) {
        // e.g. SQLITE_BUSY while another process holds the write lock: the tasks stay queued
        this.options.log?.warn({ err: (err as Error).message }, 'geocoding queue step failed; retrying in 1 s');
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.timer = setTimeout(resolve, 1000);
        });
        this.wake = undefined;
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    }
  }

  /** One round: the due tasks, or a sleep until the next is due or new work is notified. */
  private async step(): Promise<void> {
    const now = this.clock();
    const lease = { owner: this.owner, until: new Date(now.getTime() + (this.options.leaseMs ?? 30_000)).toISOString() };
    const tasks = await this.store.geocodeQueue.due(now.toISOString(), this.batchSize, lease);
    if (tasks.length === 0) {
      this.releaseIdle();
      await this.sleepUntilDue();
      return;
    }
    const outcomes: Outcome[] = [];
    const started = Date.now();
    for (const task of tasks) {
      if (!this.running) break;
      try {
        outcomes.push({ task, coordinates: await this.options.geocoder.lookup(task.address, this.abort.signal) });
      } catch (err) {
        if (!this.running) break; // aborted by stop(): the task stays as it is
        const error = err instanceof GeocodeError ? err : new GeocodeError(String((err as Error)?.message ?? err), true);
        outcomes.push({ task, error });
      }
      if (Date.now() - started >= 500) {
        // commit, then look at the queue again: a company whose task arrived meanwhile gets its
        // turn now, not after the rest of this batch (at one request a second, 50 s)
        break;
      }
    }
    await this.commit(outcomes);
    await yieldToLoop();
  }

  private async commit(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const now = this.clock();
    const nowIso = now.toISOString();
    await this.store.transaction(async (tx) => {
      for (const outcome of outcomes) {
        const { task } = outcome;
        const current = await tx.geocodeQueue.get(task.id);
        // replaced by a newer address, cancelled, done elsewhere, or taken over by another process
        if (!current || (await tx.geocodeQueue.leaseOwner(task.id)) !== this.owner) continue;
        if ('error' in outcome) {
          const attempts = current.attempts + 1;
          if (!outcome.error.transient || attempts >= this.maxAttempts) {
            await tx.geocodeQueue.remove(task.id);
            this.options.log?.warn({ order_id: task.order_id, attempts, err: outcome.error.message }, 'geocoding given up');
          } else {
            const delay = Math.min(this.retryBaseMs * 2 ** (attempts - 1), 3_600_000);
            await tx.geocodeQueue.retryLater(task.id, new Date(now.getTime() + delay).toISOString(), outcome.error.message);
            this.options.log?.warn({ order_id: task.order_id, attempts, err: outcome.error.message }, 'geocoding will retry');
          }
          continue;
        }
        await tx.geocodeQueue.remove(task.id);
        if (outcome.coordinates) {
          await tx.orders.applyGeocode(task.order_id, task.address, outcome.coordinates.lat_e6, outcome.coordinates.lon_e6, nowIso);
        }
      }
    });
  }

  private async sleepUntilDue(): Promise<void> {
    const now = this.clock();
    const next = await this.store.geocodeQueue.nextDueAt(now.toISOString());
    const poll = this.options.pollMs ?? 1_000;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      const ms = next === undefined ? poll : Math.max(0, Math.min(Date.parse(next) - now.getTime(), poll));
      this.timer = setTimeout(resolve, ms);
    });
    this.wake = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
