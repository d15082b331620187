/**
 * WAL checkpoints off the event loop. With `wal_autocheckpoint` on, the COMMIT that passes 1,000
 * WAL pages runs the checkpoint itself: it copies the WAL into the database file and syncs both, on
 * the event loop (35-187 ms under disk load, bench/RESULTS.md, issue 38). Here the API's
 * connection has `wal_autocheckpoint = 0` and a connection of its own on a worker thread runs
 * `wal_checkpoint(PASSIVE)` every `intervalMs` (PASSIVE: it never waits for a lock; the next
 * write after a complete checkpoint starts the WAL from its beginning again, so it stays bounded).
 *
 * The thread must never stop silently: with automatic checkpoints off, the WAL would grow without
 * bound. When it exits, fails, or sends no heartbeat for `stallMs`, the connection goes back to
 * automatic checkpoints (on the event loop, as before) and `onLost` says why (the store warns).
 */
import { Worker } from 'node:worker_threads';
import type { Db } from './db.js';
import { driverPath } from './driver.js';

export const DEFAULT_CHECKPOINT_INTERVAL_MS = 500;
/** SQLite's default `wal_autocheckpoint` (pages), restored when the thread is lost. */
const AUTOCHECKPOINT_PAGES = 1000;

export interface CheckpointerOptions {
  intervalMs?: number;
  /** No heartbeat for this long counts as a lost thread (default 30 s: a checkpoint under heavy disk load can take seconds). */
  stallMs?: number;
  onLost?: (reason: string) => void;
}

/** The thread's code (CommonJS, evaluated: no file to find from source or from dist). */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// a checkpoint syncs the WAL before it copies it and the database file after (NORMAL and FULL alike)
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');
const tick = () => {
  const [r] = db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage({ frames: r.log, checkpointed: r.checkpointed, busy: r.busy });
};
const timer = setInterval(tick, workerData.intervalMs);
tick();
parentPort.on('message', (m) => {
  if (m === 'stop') { clearInterval(timer); db.close(); parentPort.close(); }
});
`;


/** How long close waits for the checkpoint thread to close its connection before ending it. */
const STOP_WAIT_MS = 5_000;

export class Checkpointer {
  /** 'thread' while the thread checkpoints; 'automatic' once it was lost (the connection checkpoints on commit). */
  mode: 'thread' | 'automatic' = 'thread';
  /** Why the thread was lost (undefined while it runs). */
  lost: string | undefined;
  /** The WAL's frames at the last checkpoint, and checkpoints run (tests, bench). */
  readonly last = { frames: 0, checkpointed: 0, checkpoints: 0 };
  private readonly worker: Worker;
  private readonly watchdog: NodeJS.Timeout;
  private lastBeat = Date.now();
  private stopping = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly db: Db,
    file: string,
    private readonly options: CheckpointerOptions = {},
  ) {
    db.pragma('wal_autocheckpoint = 0');
    const intervalMs = options.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
    const stallMs = options.stallMs ?? Math.max(30_000, intervalMs * 20);
    this.worker = new Worker(THREAD, { eval: true, workerData: { file, driver: driverPath, intervalMs } });
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (m: { frames: number; checkpointed: number }) => {
      this.lastBeat = Date.now();
      this.last.frames = m.frames;
      this.last.checkpointed = m.checkpointed;
      this.last.checkpoints++;
    });
    this.worker.on('error', (error) => this.fallBack(`the checkpoint thread failed: ${error.message}`));
    this.worker.on('exit', (code) => this.fallBack(`the checkpoint thread exited (code ${code})`));
    this.watchdog = setInterval(() => {
      if (Date.now() - this.lastBeat > stallMs) {
        this.fallBack(`the checkpoint thread sent no heartbeat for ${stallMs} ms`);
        void this.worker.terminate();
      }
    }, Math.min(stallMs, 1_000));
    this.watchdog.unref();
  }

  /** The thread is gone: checkpoints go back to the connection's commits, loudly. */
  private fallBack(reason: string): void {
    clearInterval(this.watchdog);
    if (this.stopping || this.mode === 'automatic') return;
    this.mode = 'automatic';
    this.lost = reason;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    this.options.onLost?.(reason);
  }

  /** The thread as a test would lose it (terminated from outside, as a crash would end it). */
  kill(): Promise<number> {
    return this.worker.terminate();
  }

  /** Asks the thread to close its connection; resolves once the thread has exited (its files are let go). */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      clearInterval(this.watchdog);
      // awaited by close: the process must live until the thread has gone (it runs unref'd)
      this.worker.ref();
      this.worker.postMessage('stop');
      // a thread stuck in a checkpoint is not waited for long: it holds no lock a reader needs
      const force = setTimeout(() => void this.worker.terminate(), STOP_WAIT_MS);
      force.unref();
      void this.exited.then(() => clearTimeout(force));
    }
    return this.exited;
  }
}
