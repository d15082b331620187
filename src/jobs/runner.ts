/**
 * The job runner: takes queued jobs from the store and runs them, the same code in `serve` and in
 * `worker`. The queue is the store: any number of runners (processes) on one store take jobs with
 * `claimJob`, which leases a job to one of them; companies take turns (round-robin; FIFO within a
 * company). The holder renews its lease every third of its length while it plans; a process that
 * dies stops renewing, and when the lease runs out another runner takes the job over. Every status
 * write names the holder, so a runner that lost its lease (it stalled, or was taken for dead)
 * writes nothing. A store write that fails for a fault (busy, full, gone) is tried again with
 * growing delays; a job whose process died `MAX_JOB_ATTEMPTS` times fails.
 */
import { describeFailure, JobFailure } from './errors.js';
import type { EventBus } from './events.js';
import type { JobRun } from './plan-date.js';
import { LeaseLostError, MAX_JOB_ATTEMPTS, OrdersChangedError, OrdersNotNewError, StopsChangedError, TooManyJobsError, VehicleBusyError, type JobRecord, type PlanningStore } from './ports.js';
import { toJobView } from './view.js';

export const DEFAULT_LEASE_MS = 30_000;

export interface JobRunnerOptions {
  store: PlanningStore;
  events: EventBus;
  /** Plans a claimed job and commits it; returns the done job. */
  plan: (job: JobRecord, run: JobRun) => Promise<JobRecord>;
  /** Aborts every solve (close('abandon')). */
  abortSolves: () => void;
  /** The name this runner claims jobs under. */
  owner: string;
  /** Jobs running at once. */
  concurrency: number;
  /** How long a claimed job stays leased without renewal, ms (default 30 000). */
  leaseMs?: number;
  /** How often the store is asked for claimable work after start(), ms (default 1 000). */
  pollMs?: number;
  /** First delay before a failed store write is tried again, doubling to 30 s (default 100 ms). */
  storeRetryBaseMs?: number;
  /** false: run nothing (an API process beside worker processes). Default true. */
  runJobs?: boolean;
  stamp: () => string;
  onError?: (error: unknown, jobId: number) => void;
  onJobFailed?: (error: unknown, jobId: number) => void;
  onLeaseLost?: (jobId: number) => void;
}

export class JobRunner {
  private readonly store: PlanningStore;
  private readonly options: JobRunnerOptions;
  private readonly leaseMs: number;
  /** The jobs this runner holds, each with the controller that stops its work. */
  private readonly held = new Map<number, AbortController>();
  private pumping = false;
  private pumpAgain = false;
  private poll: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];
  private active = 0;
  private closed = false;
  private abandoned = false;
  /** Back-off sleepers, woken by close(). */
  private readonly wakeOnClose = new Set<() => void>();

  constructor(options: JobRunnerOptions) {
    this.options = options;
    this.store = options.store;
    this.leaseMs = Math.max(300, options.leaseMs ?? DEFAULT_LEASE_MS);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Work waits for room: a claim pass was asked for while one ran (spare seeds then give way). */
  get waiting(): boolean {
    return this.pumpAgain;
  }

  /**
   * Starts taking work from the store: what is queued now, and from then on, every `pollMs`, what
   * other processes queue and the jobs whose holder's lease ran out.
   */
  start(): void {
    if (this.options.runJobs === false || this.closed) return;
    clearInterval(this.poll);
    this.poll = setInterval(() => this.pump(), Math.max(50, this.options.pollMs ?? 1_000));
    this.poll.unref();
    this.pump();
  }

  /** Resolves when this runner runs no job and found nothing more to claim. */
  idle(): Promise<void> {
    if (this.active === 0 && !this.pumping) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops taking jobs. `drain` (default) waits for the running jobs and leaves queued ones queued
   * in the store; `abandon` aborts running solves, writes no outcome and hands their jobs back
   * (lease ended, still `running`, the attempt not counted) for this or another process to run.
   */
  async close(mode: 'drain' | 'abandon' = 'drain'): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    for (const wake of [...this.wakeOnClose]) wake();
    if (mode === 'abandon') {
      this.abandoned = true;
      this.options.abortSolves();
      const at = this.options.stamp();
      await Promise.all(
        [...this.held.keys()].map((jobId) =>
          // a store that fails here leaves the lease to run out: the job is taken over then
          Promise.resolve()
            .then(() => this.store.releaseJob(jobId, this.options.owner, at))
            .catch((error) => this.options.onError?.(error, jobId)),
        ),
      );
      return;
    }
    await this.idle();
  }

  /** Claims jobs while there is room (once at a time; a call meanwhile makes it look again). */
  pump(): void {
    if (this.options.runJobs === false || this.closed) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.fill().finally(() => {
      this.pumping = false;
      this.settleIdle();
    });
  }

  private async fill(): Promise<void> {
    let faults = 0;
    do {
      this.pumpAgain = false;
      while (!this.closed && this.active < this.options.concurrency) {
        let job: JobRecord | undefined;
        try {
          job = await this.store.claimJob(this.options.owner, this.options.stamp(), this.leaseUntil());
        } catch (error) {
          // a store that fails here (busy, full, gone) leaves the job queued: try again
          this.options.onError?.(error, 0);
          await this.backOff(faults++);
          continue;
        }
        if (!job) break;
        this.active++;
        const claimed = job;
        void this.runJob(claimed)
          .catch((error) => this.options.onError?.(error, claimed.id))
          .finally(() => {
            this.active--;
            this.pump();
            this.settleIdle();
          });
      }
    } while (this.pumpAgain && !this.closed);
  }

  private settleIdle(): void {
    if (this.active !== 0 || this.pumping) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private leaseUntil(): string {
    return new Date(Date.parse(this.options.stamp()) + this.leaseMs).toISOString();
  }

  /** Runs a claimed job under its lease: renewed every third of its length; lost, the work stops. */
  private async runJob(job: JobRecord): Promise<void> {
    const { owner } = this.options;
    const lease = new AbortController();
    this.held.set(job.id, lease);
    const renew = setInterval(() => {
      void Promise.resolve()
        .then(() => this.store.renewLease(job.id, owner, this.leaseUntil()))
        .then(
          (still) => {
            if (!still) lease.abort(new LeaseLostError(job.id));
          },
          // a storage fault: the next renewal tries again (the lease is three renewals long)
          (error) => this.options.onError?.(error, job.id),
        );
    }, Math.floor(this.leaseMs / 3));
    renew.unref();
    const run: JobRun = {
      lease: lease.signal,
      owner,
      write: (write) => this.storeWrite(write, job.id),
      abandoned: () => this.abandoned,
    };
    try {
      let finished: JobRecord | undefined;
      try {
        const attempts = job.attempts ?? 1;
        if (attempts > MAX_JOB_ATTEMPTS) {
          throw new JobFailure(
            `The planning was interrupted ${attempts - 1} times (the process running it stopped each time) and was not tried again. Nothing was planned.`,
          );
        }
        finished = await this.options.plan(job, run);
      } catch (error) {
        if (this.abandoned) return;
        if (error instanceof LeaseLostError || lease.signal.aborted) {
          this.options.onLeaseLost?.(job.id);
          return;
        }
        this.options.onJobFailed?.(error, job.id);
        const text = describeFailure(error);
        try {
          finished = await this.storeWrite(() => this.store.updateJob(job.id, { status: 'failed', error: text }, this.options.stamp(), owner), job.id);
        } catch (lost) {
          if (!(lost instanceof LeaseLostError)) throw lost;
          this.options.onLeaseLost?.(job.id);
          return;
        }
      }
      if (finished) this.options.events.emit('planning_job.finished', finished.companyId, toJobView(finished), finished.updatedAt);
    } finally {
      clearInterval(renew);
      this.held.delete(job.id);
    }
  }

  /**
   * A store write that must happen: a storage fault (anything but the store's own refusals) is
   * retried with growing delays, 0.1 s doubling to 30 s, for as long as the service runs. After
   * close() it gives up (undefined): the job stays queued or running in the store and runs again
   * on the next start.
   */
  private async storeWrite<T>(write: () => T | Promise<T>, jobId: number): Promise<T | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (isRefusal(error) || this.closed) throw error;
        this.options.onError?.(error, jobId);
        await this.backOff(attempt);
        if (this.closed) return undefined;
      }
    }
  }

  private backOff(attempt: number): Promise<void> {
    const ms = Math.min(30_000, (this.options.storeRetryBaseMs ?? 100) * 2 ** Math.min(attempt, 20));
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeOnClose.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeOnClose.add(wake);
    });
  }
}

/** The store's own answers (not faults): retrying the same write cannot change them. */
function isRefusal(error: unknown): boolean {
  return error instanceof VehicleBusyError || error instanceof OrdersChangedError || error instanceof OrdersNotNewError || error instanceof TooManyJobsError || error instanceof LeaseLostError || error instanceof StopsChangedError;
}
