/**
 * The storage port contract (contract.ts) on SQLite (SqliteStorePort), the reference the
 * PostgreSQL adapter mirrors: the suite's expectations are the SQLite repositories' own answers.
 * No second store: the cross-process part is PostgreSQL's (SQLite's is tested with real processes
 * in test/e2e/processes.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStorePort } from '../../src/store/sqlite/port.js';
import { Store } from '../../src/store/sqlite/store.js';
import { describeStoreContract } from './contract.js';

const opened: Array<{ dir: string; store: Store }> = [];
afterAll(() => {
  for (const { dir, store } of opened) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describeStoreContract('SQLite (reference)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dp-contract-'));
  const store = Store.open(join(dir, 'planner.db'));
  opened.push({ dir, store });
  return { store: new SqliteStorePort(store) };
});
