/**
 * PostgreSQL for the tests: the server at DP_TEST_POSTGRES (default
 * postgres://postgres@127.0.0.1:5432/postgres), a fresh database per test file
 * (`dp_test_<pid>_<random>`), dropped at the end, so runs never see each other.
 *
 * When the server cannot be reached, `postgres.available` is false and `postgres.reason` says
 * "skipped: no PostgreSQL at URL"; the suites skip with `describe.skipIf(!postgres.available)`
 * and print the reason once.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { POSTGRES_URL, probePostgres } from './postgres-probe.js';

export { POSTGRES_URL };

export const postgres = await probePostgres();
if (!postgres.available) console.warn(postgres.reason);

/** A URL for database `name` on the test server. */
export function databaseUrl(name: string): string {
  const u = new URL(POSTGRES_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  /** Empties every table but schema_migrations and restarts ids and sequences (a fresh store, migrated). */
  reset(): Promise<void>;
  /** Drops the database (closing any connection still open to it). */
  drop(): Promise<void>;
}

/** Creates an empty database `dp_test_<pid>_<random>` on the test server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `dp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  // a name of digits, letters and underscores made here: safe as an identifier
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(name);
  return {
    name,
    url,
    async reset() {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      try {
        const tables = (
          await client.query<{ name: string }>(
            `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`,
          )
        ).rows.map((r) => r.name);
        if (tables.length > 0) await client.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
        const sequences = (
          await client.query<{ name: string }>(`SELECT quote_ident(sequence_name) AS name FROM information_schema.sequences WHERE sequence_schema = 'public'`)
        ).rows.map((r) => r.name);
        for (const s of sequences) await client.query(`ALTER SEQUENCE ${s} RESTART`);
      } finally {
        await client.end().catch(() => {});
      }
    },
    async drop() {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
