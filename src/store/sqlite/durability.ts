/**
 * Group commit for the SQLite store (issue 38: no fsync on the event loop), keeping what
 * synchronous=FULL promised: an answer never leaves before what it wrote is on disk.
 *
 * The connection runs at synchronous=NORMAL in WAL mode: a COMMIT writes its frames to the -wal
 * file and returns without a sync. The storage port (port.ts) then notes the commit (`observe`,
 * right after the call, in the same synchronous step) and resolves the call only after an
 * `fs.fsync` of the -wal file that *began after* the commit (`until`). The sync runs on libuv's
 * thread pool, one at a time; every commit made while one runs waits for the next, so the
 * requests of a busy moment share one sync, and the event loop never waits for the disk.
 *
 * What counts as a commit: this connection's row changes (`total_changes()`, which moves with
 * every INSERT, UPDATE and DELETE; a rolled-back change only costs a needless sync) and another
 * connection's commits (`PRAGMA data_version`: another process on the same file, whose commit a
 * read of ours may have seen; fsync flushes the file whoever wrote it).
 *
 * A call that only read answers at once, even while another request's commit waits for its sync
 * (session 29; the first version made such a read wait too). With FULL a reader never saw a commit
 * before its sync; here it may, for the milliseconds of that sync: if the power fails then, the
 * reader saw a write that is lost, and its writer was never answered (it retries). A write that
 * read it is safe: its own commit comes later, and the sync it waits for covers both. What it buys:
 * a flood of requests that only read (an attacker's bad keys and bodies: each reads its key) no
 * longer queues behind the disk; with reads waiting, the hostile load of bench/load.ts cut the
 * service's answers to a third of FULL's.
 *
 * Why that is enough after a power cut: SQLite recovers from the WAL every commit whose frames
 * (checksummed, in order) reached the disk; a completed fsync of the file puts everything written
 * before it began there. Checkpoints (checkpointer.ts) sync the WAL before they copy it and the
 * database file after, so nothing moves out of the WAL unsynced. A failed fsync cannot be retried
 * (Linux reports a lost write once): every later call fails, and the process must restart (the
 * WAL is replayed on open), as PostgreSQL panics on a failed fsync.
 */
import { closeSync, fdatasync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from './db.js';
import type { Statement } from './driver.js';

/** What a sync covers and when: the hook tests read (the order of commits, syncs and answers). */
export interface SyncListener {
  /** A sync of the WAL begins; it covers every commit counted so far (`commits`). */
  onSyncStart?(commits: number): void;
  /** That sync completed (or failed, with the error). */
  onSyncEnd?(commits: number, error?: Error): void;
}

export class GroupCommit {
  /** Commits counted (this connection's and others'). */
  private commits = 0;
  /** Commits known to be on disk. */
  private synced = 0;
  private inFlight = false;
  private waiters: Array<{ commits: number; resolve: () => void; reject: (error: Error) => void }> = [];
  private failed: Error | undefined;
  private closed = false;
  private lastChanges: number;
  private lastVersion: number;
  private readonly changes: Statement;
  private readonly version: Statement;
  private readonly fd: number;
  /** Syncs begun, commits counted, the syncs' summed and longest time in ms (tests, bench). */
  readonly stats = { syncs: 0, commits: 0, syncMs: 0, maxSyncMs: 0, waits: 0, waitMs: 0, maxWaitMs: 0 };
  listener: SyncListener | undefined;

  constructor(db: Db, path: string) {
    this.changes = db.prepare('SELECT total_changes()').pluck();
    this.version = db.prepare('PRAGMA data_version').pluck();
    this.lastChanges = this.changes.get() as number;
    this.lastVersion = this.version.get() as number;
    // the -wal file lives as long as a connection is open (this one is until close); SQLite takes
    // no POSIX lock on it, so a descriptor of our own cannot release one of SQLite's when closed
    this.fd = openSync(`${path}-wal`, 'r+');
    // what was written before (migrations at NORMAL), and the -wal file's directory entry
    fsyncSync(this.fd);
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }

  /**
   * Notes the commits made since the last look. Call it where no transaction is open, in the same
   * synchronous step as the work (a later look could count another request's open transaction).
   * Answers the count to wait for with `until`.
   */
  observe(): number {
    const changes = this.changes.get() as number;
    const version = this.version.get() as number;
    if (changes !== this.lastChanges || version !== this.lastVersion) {
      this.lastChanges = changes;
      this.lastVersion = version;
      this.commits++;
      this.stats.commits++;
    }
    return this.commits;
  }

  /** Resolves once the first `commits` commits are on disk (undefined: they already are). */
  until(commits: number): Promise<void> | undefined {
    if (this.failed) return Promise.reject(this.failed);
    if (this.synced >= commits) return undefined;
    const began = performance.now();
    this.stats.waits++;
    const waited = () => {
      const ms = performance.now() - began;
      this.stats.waitMs += ms;
      if (ms > this.stats.maxWaitMs) this.stats.maxWaitMs = ms;
    };
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ commits, resolve: () => (waited(), resolve()), reject });
      this.next();
    });
  }

  /** Every commit counted so far is on disk and no sync is running (close). */
  async idle(): Promise<void> {
    await this.until(this.commits);
    while (this.inFlight) await new Promise((resolve) => setImmediate(resolve));
  }

  private next(): void {
    if (this.inFlight || this.waiters.length === 0 || this.failed) return;
    if (this.released) {
      for (const w of this.waiters.splice(0)) w.reject(new Error('the SQLite store is closed'));
      return;
    }
    this.inFlight = true;
    // everything counted by now was committed before this sync begins
    const covers = this.commits;
    this.stats.syncs++;
    this.listener?.onSyncStart?.(covers);
    const began = performance.now();
    fdatasync(this.fd, (error) => {
      this.inFlight = false;
      const ms = performance.now() - began;
      this.stats.syncMs += ms;
      if (ms > this.stats.maxSyncMs) this.stats.maxSyncMs = ms;
      if (error) {
        this.failed = new Error(`the SQLite write-ahead log could not be synced to disk (${error.message}); restart the process`, { cause: error });
        this.listener?.onSyncEnd?.(covers, error);
        for (const w of this.waiters.splice(0)) w.reject(this.failed);
        return;
      }
      this.synced = Math.max(this.synced, covers);
      this.listener?.onSyncEnd?.(covers);
      const waiting = this.waiters;
      this.waiters = [];
      for (const w of waiting) {
        if (w.commits <= covers) w.resolve();
        else this.waiters.push(w);
      }
      if (this.closed && !this.inFlight && this.waiters.length === 0) this.release();
      else this.next();
    });
  }

  /** Closes the -wal descriptor (after the sync in flight, if one is). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.inFlight) this.release();
  }

  private released = false;
  private release(): void {
    if (this.released) return;
    this.released = true;
    closeSync(this.fd);
  }
}
