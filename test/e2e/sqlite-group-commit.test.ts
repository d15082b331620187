/**
 * Group commit on a real `serve` process (src/store/sqlite/durability.ts; issue 38): every order
 * answered 201 is in the file after a kill -9 sent right after the answers, with the service's
 * default (group) and with DELIVERY_PLANNER_SQLITE_SYNC=full. (A power cut cannot be made here;
 * test/store/sqlite-group-commit.test.ts checks that each answer waits for a sync begun after its
 * commit.)
 */
import { existsSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { client, orders, readDb, seedDb, startServe, type Served } from './serve.js';

describe('SQLite group commit in a real serve process', () => {
  const cleanup: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f();
    cleanup.length = 0;
  });

  for (const sync of ['group', 'full'] as const) {
    it(`keeps every answered order through a kill -9 right after the answers (${sync})`, async () => {
      const s = seedDb();
      cleanup.push(() => rmSync(s.dir, { recursive: true, force: true }));
      const previous = process.env.DELIVERY_PLANNER_SQLITE_SYNC;
      process.env.DELIVERY_PLANNER_SQLITE_SYNC = sync;
      let served: Served;
      try {
        served = await startServe(s.db, ['--jobs', 'off']);
      } finally {
        if (previous === undefined) delete process.env.DELIVERY_PLANNER_SQLITE_SYNC;
        else process.env.DELIVERY_PLANNER_SQLITE_SYNC = previous;
      }
      cleanup.push(() => (served.child.exitCode === null && served.child.signalCode === null ? served.kill('SIGKILL') : undefined));
      const call = client(served.base, s.key);
      // 60 single orders at once (many commits sharing syncs) and one bulk of 100 (one transaction)
      const single = orders(60, 'S');
      const answers = await Promise.all([
        ...single.map((o) => call('POST', '/api/public/v1/orders/', o)),
        call('POST', '/api/public/v1/orders/bulk/', orders(100, 'B')),
      ]);
      expect(await served.kill('SIGKILL')).toBe('SIGKILL');
      const ids: number[] = [];
      for (const a of answers.slice(0, 60)) {
        expect(a.status).toBe(201);
        ids.push(a.body.id);
      }
      const bulk = answers[60]!;
      expect(bulk.body.summary.created).toBe(100);
      for (const r of bulk.body.results) ids.push(r.id);
      // the -wal file is left as the killed process left it: the open below replays it
      expect(existsSync(`${s.db}-wal`)).toBe(true);
      const found = readDb(s.db, (db) => db.prepare(`SELECT id FROM orders WHERE id IN (${ids.map(() => '?').join(', ')})`).pluck().all(...ids) as number[]);
      expect(found.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    });
  }
});
