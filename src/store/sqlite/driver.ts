/**
 * The SQLite driver for this Node: better-sqlite3 13 (Node-API prebuilds shipped in the package,
 * no compiler needed; Node 22 and later) or, on Node 20, better-sqlite3 12 compiled on install
 * (installed under the alias `better-sqlite3-node20`). One API, chosen once at load. Why not
 * node:sqlite: it is missing on Node 20, experimental on 22, and lacks the transaction helper,
 * the statement cache and the error codes this store relies on.
 *
 * Why two: better-sqlite3 12 aborts Node 24 when a statement is collected during shutdown
 * (`Assertion failed: (env) != nullptr` in Statement::~Statement), and 13 does not load on Node 20.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

/** The resolved path of the driver module for the running Node (a thread of our own loads it too). */
export const driverPath: string = require.resolve(major >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20');

/** The better-sqlite3 Database class that works on the running Node. */
export const Database: typeof BetterSqlite3 = require(driverPath);
export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
