/**
 * The storage port contract (contract.ts) on SQLite with group commit (synchronous: 'group', the
 * service's default through openStore): every answer waits for a sync of the WAL, checkpoints run
 * on a thread; the answers must be those of the reference (contract-sqlite.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStorePort } from '../../src/store/sqlite/port.js';
import { Store } from '../../src/store/sqlite/store.js';
import { describeStoreContract } from './contract.js';

const opened: Array<{ dir: string; port: SqliteStorePort }> = [];
afterAll(async () => {
  for (const { dir, port } of opened) {
    await port.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describeStoreContract('SQLite, group commit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dp-contract-group-'));
  const store = Store.open(join(dir, 'planner.db'), { synchronous: 'group' });
  const port = new SqliteStorePort(store);
  opened.push({ dir, port });
  return { store: port };
});
