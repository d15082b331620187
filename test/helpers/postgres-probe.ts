/** The test PostgreSQL server's URL and a probe of it (no database made), for the suites and the summary line. */
import pg from 'pg';

export const POSTGRES_URL = process.env.DP_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL without its password, for messages. */
const shown = (() => {
  try {
    const u = new URL(POSTGRES_URL);
    u.password = '';
    return u.toString();
  } catch {
    return POSTGRES_URL;
  }
})();

/** Whether the test server answers; `reason` is the skip message when it does not. */
export async function probePostgres(): Promise<{ available: boolean; reason: string }> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { available: true, reason: '' };
  } catch (error) {
    return { available: false, reason: `skipped: no PostgreSQL at ${shown} (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

