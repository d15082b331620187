/**
 * The solver pool: Piscina worker threads that run `solve` off the main thread.
 *
 * Failure modes become one typed error, `PoolTaskError`, whose `kind` says what happened:
 * `aborted` (the caller's signal fired: a queued task is dropped, a running one has its thread
 * terminated), `out_of_memory` (the worker hit resourceLimits), `crashed` (the thread exited) or
 * `failed` (the task threw). Piscina replaces a lost thread by itself.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { SolveResult } from '../model/input.js';
import { settleSharedTask } from '../model/shared-matrix.js';
import type { SolveTask } from './messages.js';
import { defaultWorkerFile } from './worker-file.js';

export { defaultWorkerFile };

export interface SolverPoolOptions {
  /** Worker threads (default: the machine's cores, at most 4). */
  threads?: number;
  /** Threads kept running while idle (default: all of them). A job's spare seed starts at once
   *  only on a running thread, and a thread terminated by an abort is replaced only up to this
   *  number (Piscina starts new threads when tasks arrive, not for tasks already queued). */
  minThreads?: number;
  /** A thread above `minThreads` idle this long is stopped (ms; default 60 s: respawning costs). */
  idleTimeoutMs?: number;
  /** Heap cap of one worker (MB; default 1024); beyond it the task fails as out_of_memory. */
  maxOldGenerationSizeMb?: number;
  /** The worker module (default: the built `worker.js`, else the TypeScript source). Tests pass
   *  their own fixtures here. */
  filename?: string | URL;
}

/**
 * What a Piscina thread posts once its task module has loaded (piscina's `READY` message,
 * piscina/dist/common.js, not exported): until then the thread is still loading and linking the
 * module graph. Should a piscina upgrade rename it, `destroy` would wait LOAD_WAIT_MS for threads
 * that loaded long ago: test/pool/pool.test.ts compares it with the installed piscina's.
 */
export const PISCINA_READY = '_WORKER_READY';

/** How long `destroy` waits for a thread still loading its module before it stops it anyway. */
const LOAD_WAIT_MS = 10_000;

export type PoolFailure = 'aborted' | 'out_of_memory' | 'crashed' | 'failed';

export class PoolTaskError extends Error {
  override readonly name = 'PoolTaskError';
  constructor(readonly kind: PoolFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The solver's worker threads. The threads start on `warm()` or the first `run()`, not in the
 * constructor: a process that gives up before then (serve on a port already taken) has no thread
 * half-loaded to tear down (that aborted Node with `v8::Module::IsGraphAsync`).
 */
export class SolverPool {
  readonly size: number;
  private piscina: Piscina<SolveTask, SolveResult> | undefined;
  private readonly options: SolverPoolOptions;
  private destroyed = false;

  constructor(options: SolverPoolOptions = {}) {
    this.size = Math.max(1, options.threads ?? Math.min(4, availableParallelism()));
    this.options = { ...options, filename: options.filename ?? defaultWorkerFile() };
  }

  /** Starts the threads now (the service does once it listens), so the first job does not wait. */
  warm(): void {
    this.threads();
  }

  private threads(): Piscina<SolveTask, SolveResult> {
    if (this.destroyed) throw new PoolTaskError('aborted', 'the solver pool is shut down');
    if (!this.piscina) {
      const filename = this.options.filename!;
      const piscina = new Piscina<SolveTask, SolveResult>({
        filename: typeof filename === 'string' ? filename : fileURLToPath(filename),
        minThreads: Math.min(this.size, Math.max(1, this.options.minThreads ?? this.size)),
        maxThreads: this.size,
        idleTimeout: this.options.idleTimeoutMs ?? 60_000,
        resourceLimits: { maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb ?? 1024 },
      });
      // The threads Piscina starts with exist now and are still loading: each is watched for its
      // ready message. One it starts later (a replacement for a thread that died or was stopped,
      // or one past minThreads) is announced by 'workerCreate' only once it has loaded.
      const first = new WeakSet<Worker>();
      for (const thread of piscina.threads) {
        first.add(thread);
        void this.untilLoaded(thread);
      }
      piscina.on('workerCreate', (created: { id: number }) => {
        const thread = piscina.threads.find((t) => t.threadId === created.id);
        if (thread !== undefined && !first.has(thread)) this.loaded.add(thread);
      });
      this.piscina = piscina;
    }
    return this.piscina;
  }

  /** Threads started and loaded, ready for a task (readiness, src/service/ops.ts); 0 before start(). */
  get threadsReady(): number {
    return this.piscina ? this.piscina.threads.filter((t) => this.loaded.has(t)).length : 0;
  }

  /** The threads whose task module has loaded. */
  private readonly loaded = new WeakSet<Worker>();

  /** Resolves once `thread` has loaded its task module (or has exited). */
  private untilLoaded(thread: Worker): Promise<void> {
    if (this.loaded.has(thread) || thread.threadId < 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        thread.off('message', onMessage);
        thread.off('exit', done);
        resolve();
      };
      const onMessage = (message: unknown) => {
        if (typeof message !== 'object' || message === null || !(PISCINA_READY in message)) return;
        this.loaded.add(thread);
        done();
      };
      thread.on('message', onMessage);
      thread.once('exit', done);
    });
  }

  /**
   * Runs one solve on a worker thread; rejects with PoolTaskError only. Once the task settles, a
   * shared matrix it claimed and never published (its thread died or was terminated mid-build) is
   * marked failed, so the tasks waiting for it stop waiting.
   */
  async run(task: SolveTask, options: { signal?: AbortSignal } = {}): Promise<SolveResult> {
    try {
      return await this.threads().run(task, { signal: options.signal });
    } catch (error) {
      throw classify(error, options.signal);
    } finally {
      if (task.matrix !== undefined) settleSharedTask(task.matrix);
    }
  }

  /**
   * Stops every thread; running tasks are rejected. A thread still loading its task module is
   * first given time to finish (at most LOAD_WAIT_MS): Node aborts the whole process when a
   * thread is terminated while it links an ES module graph (`v8::Module::IsGraphAsync must be
   * used on an instantiated module`, seen on a `serve` stopped by SIGTERM within a second of its
   * start on a busy machine: exit by SIGABRT instead of 0). The same holds for a thread Piscina
   * started later, to replace one that crashed or whose task was aborted (a job's spare seed).
   */
  async destroy(): Promise<void> {
    this.destroyed = true;
    if (this.piscina === undefined) return;
    const starting = this.piscina.threads.filter((thread) => !this.loaded.has(thread));
    if (starting.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(starting.map((thread) => this.untilLoaded(thread))), new Promise<void>((resolve) => (timer = setTimeout(resolve, LOAD_WAIT_MS)))]);
      clearTimeout(timer);
    }
    await this.piscina.destroy();
  }
}

function classify(error: unknown, signal: AbortSignal | undefined): PoolTaskError {
  if (error instanceof PoolTaskError) return error;
  const e = error as { name?: string; code?: string; message?: string };
  const message = e?.message ?? String(error);
  if (signal?.aborted || e?.name === 'AbortError') return new PoolTaskError('aborted', message, { cause: error });
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') return new PoolTaskError('out_of_memory', message, { cause: error });
  if (/^worker exited with code/.test(message) || e?.code === 'ERR_WORKER_INIT_FAILED') return new PoolTaskError('crashed', message, { cause: error });
  return new PoolTaskError('failed', message, { cause: error });
}
