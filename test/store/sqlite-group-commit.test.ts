/**
 * Group commit on SQLite (src/store/sqlite/durability.ts, checkpointer.ts; issue 38): the storage
 * port answers a write only after an fsync of the WAL that began after its commit, many writes
 * share a sync, reads answer at once, and the checkpoint thread
 * keeps the WAL bounded and is noticed when it dies. Real files; the order of commits and syncs is
 * watched through the store's sync hook, with a second connection that sees what is committed.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { Database } from '../../src/store/sqlite/driver.js';
import { SqliteStorePort } from '../../src/store/sqlite/port.js';
import { Store } from '../../src/store/sqlite/store.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function groupStore(options: { checkpointIntervalMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'dp-group-'));
  const file = join(dir, 'planner.db');
  const store = Store.open(file, { synchronous: 'group', ...options });
  const port = new SqliteStorePort(store);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => port.close());
  return { file, store, port, durability: store.durability! };
}

const now = '2026-11-28T08:00:00.000Z';

describe('SQLite group commit', () => {
  it('answers a write only after a sync that began once the write was committed', async () => {
    const { file, port, durability } = groupStore();
    const other = new Database(file, { readonly: true });
    cleanups.push(() => void other.close());
    // at each sync's start: the companies another connection sees committed; at its end: they are on disk
    const events: Array<{ kind: 'start' | 'end' | 'answer'; names: string[] }> = [];
    const names = () => (other.prepare('SELECT name FROM companies').pluck().all() as string[]);
    durability.listener = {
      onSyncStart: () => events.push({ kind: 'start', names: names() }),
      onSyncEnd: () => events.push({ kind: 'end', names: [] }),
    };
    const writes = Array.from({ length: 20 }, (_, i) =>
      port.companies.create({ name: `C${i}`, timezone: 'UTC' }, now).then((c) => events.push({ kind: 'answer', names: [c.name] })),
    );
    await Promise.all(writes);
    expect(events.filter((e) => e.kind === 'answer')).toHaveLength(20);
    for (const [i, e] of events.entries()) {
      if (e.kind !== 'answer') continue;
      // the last sync that ended before this answer, and its start
      const before = events.slice(0, i);
      const end = before.map((x) => x.kind).lastIndexOf('end');
      expect(end, `answer of ${e.names[0]} before any sync ended`).toBeGreaterThan(-1);
      const start = before.slice(0, end).map((x) => x.kind).lastIndexOf('start');
      expect(before[start]!.names, `the sync before the answer of ${e.names[0]} began before its commit`).toContain(e.names[0]);
    }
  });

  it('shares one sync among the writes of a moment', async () => {
    const { port, durability } = groupStore();
    const before = { ...durability.stats };
    await Promise.all(Array.from({ length: 200 }, (_, i) => port.companies.create({ name: `C${i}`, timezone: 'UTC' }, now)));
    const commits = durability.stats.commits - before.commits;
    const syncs = durability.stats.syncs - before.syncs;
    expect(commits).toBe(200);
    expect(syncs).toBeGreaterThan(0);
    expect(syncs).toBeLessThan(commits / 4);
  });

  it('answers a read at once, even beside a commit waiting for its sync; transactions wait for theirs', async () => {
    const { file, port, durability } = groupStore();
    const company = await port.companies.create({ name: 'A', timezone: 'UTC' }, now);
    let ended = 0;
    durability.listener = { onSyncEnd: () => ended++ };
    // a write and a read in the same moment: the write waits for its sync, the read does not
    // (a flood of reads must not queue behind the disk); the write answers after the sync
    const write = port.companies.update(company.id, { name: 'B' }).then(() => ended);
    const read = port.companies.get(company.id).then((c) => ({ name: c!.name, ended }));
    expect(await read).toEqual({ name: 'B', ended: 0 });
    expect(await write).toBe(1);
    // nothing unsynced: a read answers without a sync
    const syncs = durability.stats.syncs;
    await port.companies.get(company.id);
    expect(durability.stats.syncs).toBe(syncs);
    // a transaction's commit is synced before it answers
    const other = new Database(file, { readonly: true });
    cleanups.push(() => void other.close());
    let seen: string[] = [];
    durability.listener = { onSyncStart: () => (seen = other.prepare('SELECT name FROM companies').pluck().all() as string[]) };
    await port.transaction(async (tx) => {
      await tx.companies.create({ name: 'T1', timezone: 'UTC' }, now);
      await tx.companies.create({ name: 'T2', timezone: 'UTC' }, now);
    });
    expect(seen).toEqual(expect.arrayContaining(['T1', 'T2']));
  });

  it("is the service's default; DELIVERY_PLANNER_SQLITE_SYNC=full keeps a sync on every commit", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dp-group-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const group = (await openStore(join(dir, 'a.db'))) as SqliteStorePort;
    cleanups.push(() => group.close());
    expect(group.store.db.pragma('synchronous', { simple: true })).toBe(1);
    expect(group.store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect(group.store.durability).toBeDefined();
    const full = (await openStore(join(dir, 'b.db'), { sqliteSync: 'full' })) as SqliteStorePort;
    cleanups.push(() => full.close());
    expect(full.store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(full.store.durability).toBeUndefined();
    expect(full.store.checkpointer).toBeUndefined();
  });
});

describe('the checkpoint thread', () => {
  const payload = 'x'.repeat(4000);
  async function write(port: SqliteStorePort, n: number): Promise<number> {
    let largest = 0;
    for (let i = 0; i < n; i++) {
      await port.transaction(async (tx) => {
        for (let k = 0; k < 5; k++) await tx.companies.create({ name: `${payload}${i}-${k}`, timezone: 'UTC' }, now);
      });
      if (i % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      largest = Math.max(largest, statSync(`${port.store.db.name}-wal`).size);
    }
    return largest;
  }

  it('keeps the WAL bounded while the API connection never checkpoints', async () => {
    const { port, store } = groupStore({ checkpointIntervalMs: 20 });
    // 600 transactions of 5 rows of 4 kB: about 12 MB written through the WAL
    const largest = await write(port, 600);
    expect(largest).toBeLessThan(6 * 1024 * 1024);
    expect(store.checkpointer!.last.checkpoints).toBeGreaterThan(3);
    expect(store.checkpointer!.mode).toBe('thread');
  });

  it('is noticed when it dies: checkpoints go back to the commits, with a warning, and the WAL stays bounded', async () => {
    const { port, store } = groupStore({ checkpointIntervalMs: 20 });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    cleanups.push(() => void process.off('warning', onWarning));
    await write(port, 10);
    await store.checkpointer!.kill();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.checkpointer!.mode).toBe('automatic');
    expect(store.checkpointer!.lost).toMatch(/exited/);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(warnings.some((w) => /checkpoint thread exited.*on commit again/.test(w))).toBe(true);
    const checkpoints = store.checkpointer!.last.checkpoints;
    const largest = await write(port, 600);
    expect(store.checkpointer!.last.checkpoints).toBe(checkpoints);
    expect(largest).toBeLessThan(6 * 1024 * 1024);
  });
});
