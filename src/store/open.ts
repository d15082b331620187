/**
 * Opens the store a `--db` value names: a PostgreSQL URL (`postgres://USER@HOST:PORT/DB`) or a
 * SQLite file path (the default, embedded). Both are created and migrated on open.
 *
 * SQLite's durability: an answered write is on disk, power cut included, with either setting.
 * 'group' (the default) commits at synchronous=NORMAL and answers after a sync of the WAL that
 * began after the commit, off the event loop and shared by the requests of a moment
 * (src/store/sqlite/durability.ts), with checkpoints on a thread; 'full' (the environment's
 * `DELIVERY_PLANNER_SQLITE_SYNC=full`) syncs every commit on the event loop, as before.
 */
import type { StorePort } from './port.js';
import { isPostgresUrl } from './postgres/db.js';
import { PgStore } from './postgres/store.js';
import { portOf } from './sqlite/port.js';
import { Store } from './sqlite/store.js';
import type { OutboxQuota } from './types.js';

export { isPostgresUrl };

/** The environment variable that sets SQLite's sync ('group' or 'full') for every command. */
export const SQLITE_SYNC_ENV = 'DELIVERY_PLANNER_SQLITE_SYNC';

export interface StoreOptions {
  /** The outbox's pending-deliveries quota per subscription (`--max-pending-deliveries`). */
  outboxQuota?: OutboxQuota;
  /** SQLite only: 'group' (default) or 'full' (see the file comment); default from SQLITE_SYNC_ENV. */
  sqliteSync?: 'group' | 'full';
}

export function sqliteSyncOf(env: NodeJS.ProcessEnv = process.env): 'group' | 'full' {
  const value = env[SQLITE_SYNC_ENV];
  if (value === undefined || value === '' || value === 'group') return 'group';
  if (value === 'full') return 'full';
  throw new Error(`${SQLITE_SYNC_ENV}: expected 'group' or 'full', got '${value.slice(0, 40)}'`);
}

export async function openStore(location: string, options: StoreOptions = {}): Promise<StorePort> {
  if (isPostgresUrl(location)) return PgStore.open(location, { outboxQuota: options.outboxQuota });
  return portOf(Store.open(location, { outboxQuota: options.outboxQuota, synchronous: options.sqliteSync ?? sqliteSyncOf() }));
}
