/**
 * Opens the store a `--db` value names: a PostgreSQL URL (`postgres://USER@HOST:PORT/DB`) or a
 * SQLite file path (the default, embedded). Both are created and migrated on open.
 */
import type { StorePort } from './port.js';
import { isPostgresUrl } from './postgres/db.js';
import { PgStore } from './postgres/store.js';
import { portOf } from './sqlite/port.js';
import { Store } from './sqlite/store.js';
import type { OutboxQuota } from './types.js';

export { isPostgresUrl };

export interface StoreOptions {
  /** The outbox's pending-deliveries quota per subscription (`--max-pending-deliveries`). */
  outboxQuota?: OutboxQuota;
}

export async function openStore(location: string, options: StoreOptions = {}): Promise<StorePort> {
  if (isPostgresUrl(location)) return PgStore.open(location, { outboxQuota: options.outboxQuota });
  return portOf(Store.open(location, { outboxQuota: options.outboxQuota }));
}
