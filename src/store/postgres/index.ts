export { PgStore, pgRepositories, type PgOpenOptions } from './store.js';
export { PgPlanningStore, type PlanningPublisher, type PlanningEvent } from './planning.js';
export { PgWebhookOutbox } from './outbox.js';
export { pgMigrations, migratePg, type PgMigration } from './migrations.js';
export { createPool, isPostgresUrl, isTransientPgError, PoolConn, type Conn, type PoolOptions } from './db.js';
