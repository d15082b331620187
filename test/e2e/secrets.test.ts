/**
 * Logs never show a password (docs/contract/operations.md, "Quotas and outbound rules"; issue 38): `serve` and
 * `worker` on a PostgreSQL URL with a password log the URL without it. Real processes, real
 * PostgreSQL (the test server trusts loopback, so any password is accepted).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { redactText, redactUrl } from '../../src/io/redact.js';
import { createTestDatabase, postgres, type TestDatabase } from '../helpers/postgres.js';
import { startServe, startWorker } from './serve.js';

describe('redaction', () => {
  it('drops user and password from URLs, masks secret parameters, leaves paths alone', () => {
    expect(redactUrl('postgres://planner:s3cret@db.internal:5432/planner')).toBe('postgres://db.internal:5432/planner');
    expect(redactUrl('postgres://db/planner?user=planner&password=s3cret')).toBe('postgres://db/planner?user=planner&password=***');
    expect(redactUrl('./var/planner.db')).toBe('./var/planner.db');
    expect(redactText('connect to redis://:s3cret@cache:6379 and https://u:p@x/y failed')).toBe('connect to redis://cache:6379 and https://x/y failed');
  });
});

describe.skipIf(!postgres.available)('serve and worker log the database URL without its password', () => {
  let database: TestDatabase | undefined;
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await database?.drop();
  });

  it('on PostgreSQL', async () => {
    database = await createTestDatabase();
    const url = new URL(database.url);
    url.password = 'hunter2-not-for-logs';
    const db = url.toString();
    const serve = await startServe(db, ['--log-level', 'info']);
    stops.push(() => serve.kill('SIGTERM'));
    const worker = await startWorker(db, ['--log-level', 'info']);
    stops.push(() => worker.kill('SIGTERM'));
    for (const [name, stderr] of [['serve', serve.stderr()], ['worker', worker.stderr()]] as const) {
      // the start line names the database, without the password
      expect(stderr, name).toContain(`"db":"postgres://${url.host}${url.pathname}"`);
      expect(stderr, name).not.toContain('hunter2');
    }
  });
});
