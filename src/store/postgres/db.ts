/**
 * The PostgreSQL connection layer of the store: a node-postgres (`pg`) Pool, and `Conn`, the small
 * query interface every PostgreSQL repository is written against. A `Conn` is either the pool (each
 * statement on whichever client is free; `atomic` takes one client for a BEGIN ... COMMIT) or one
 * client inside a transaction (`atomic` joins that transaction, as better-sqlite3 nests them).
 *
 * Why `pg` (node-postgres) and not `postgres` (porsager): pure JavaScript (no native build on any
 * Node we support), the most used and longest maintained driver, and an explicit Pool whose
 * clients we check out one per transaction, so a transaction is plainly "this client between
 * BEGIN and COMMIT" and can never interleave with another request's statements. Its per-pool type
 * parsers let BIGINT come back as JS numbers without touching other users of `pg` in the process.
 *
 * Values: every user value goes in as a parameter ($1, $2, ...), never into the SQL text.
 */
import pg from 'pg';

/** BIGINT (int8, oid 20) as a JS number: ids, epoch milliseconds and counts stay below 2^53. */
const INT8_OID = 20;
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

export interface Conn {
  /** The rows of one statement. */
  rows<R = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /** The first row of one statement, or undefined. */
  one<R = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<R | undefined>;
  /** Runs one statement; the number of rows it wrote (or returned). */
  run(text: string, values?: readonly unknown[]): Promise<number>;
  /** Runs `fn` in one transaction: the caller's when this Conn is bound to one, else a new one. */
  atomic<T>(fn: (tx: Conn) => Promise<T>): Promise<T>;
  /** True when bound to one client inside BEGIN ... COMMIT. */
  readonly inTransaction: boolean;
  /** The transaction-scoped advisory lock keys this transaction holds (locks.ts), so each is taken once. */
  readonly heldLocks?: Set<string>;
}

class ClientConn implements Conn {
  readonly inTransaction = true;
  readonly heldLocks = new Set<string>();
  constructor(private readonly client: pg.PoolClient) {}
  async rows<R>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    return (await this.client.query(text, values as unknown[])).rows as R[];
  }
  async one<R>(text: string, values: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.rows<R>(text, values))[0];
  }
  async run(text: string, values: readonly unknown[] = []): Promise<number> {
    return (await this.client.query(text, values as unknown[])).rowCount ?? 0;
  }
  atomic<T>(fn: (tx: Conn) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

export class PoolConn implements Conn {
  readonly inTransaction = false;
  constructor(readonly pool: pg.Pool) {}
  async rows<R>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    return (await this.pool.query(text, values as unknown[])).rows as R[];
  }
  async one<R>(text: string, values: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.rows<R>(text, values))[0];
  }
  async run(text: string, values: readonly unknown[] = []): Promise<number> {
    return (await this.pool.query(text, values as unknown[])).rowCount ?? 0;
  }
  /** BEGIN on one pooled client, `fn`, then COMMIT; ROLLBACK when `fn` rejects (and rethrow). */
  async atomic<T>(fn: (tx: Conn) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        const value = await fn(new ClientConn(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // the connection is unusable (server gone, protocol error): destroy it, not back to the pool
          broken = rollbackError as Error;
        }
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }
}

export interface PoolOptions {
  /** Clients at most (default 10). Each transaction holds one for its duration. */
  max?: number;
  /** How long a request for a client waits when all are busy, ms (default 10 000; 0 = for ever). */
  connectionTimeoutMillis?: number;
  /** How long a statement waits for a lock (a row, an advisory lock) before failing with
   *  SQLSTATE 55P03, ms (default 15 000): a busy database answers "try again", never hangs. */
  lockTimeoutMs?: number;
  /** A transaction left idle this long is ended by the server, its locks released, ms (default 60 000). */
  idleInTransactionTimeoutMs?: number;
  /** An idle pooled connection failed (the server went away); the next query gets a new one. */
  onError?: (error: Error) => void;
}

/** A pool on the URL (`postgres://USER@HOST:PORT/DB`), BIGINT parsed to numbers. */
export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
    idleTimeoutMillis: 30_000,
    types: typeParsers,
    application_name: 'delivery-planner',
    lock_timeout: options.lockTimeoutMs ?? 15_000,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 60_000,
  });
  // an idle client whose server connection drops emits 'error' on the pool; without a listener
  // that would crash the process. The next query simply gets another client.
  pool.on('error', (error) => options.onError?.(error));
  return pool;
}

/**
 * SQLSTATEs after which nothing of the transaction was written and running it again may succeed:
 * serialization failure, deadlock (PostgreSQL aborted one of two transactions waiting for each
 * other), lock wait timed out (lockTimeoutMs), too many connections, the server shutting down or
 * restarting. The service answers these as SQLite's SQLITE_BUSY: 503 with Retry-After, or the
 * background loop tries again later.
 */
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03', '53300', '57P01', '57P02', '57P03']);

/** Whether `error` is a transient PostgreSQL failure (above) or a lost or refused connection. */
export function isTransientPgError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TRANSIENT_SQLSTATES.has(code)) return true;
  if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code)) return true;
  const message = (error as Error | null)?.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect/i.test(message);
}

/** Whether `value` is a `postgres://` or `postgresql://` URL (the `--db` switch between stores). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** Transaction-scoped advisory lock keys: a name space and a text, hashed to a bigint in SQL. */
export const LOCK = {
  /** One key for the migrations of the whole database (session lock, not transaction). */
  migrations: 7_316_041_160_216_001n,
} as const;
