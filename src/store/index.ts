export { Store } from './store.js';
export { openDatabase, migrate, type Db, type OpenOptions } from './db.js';
export { migrations, type Migration } from './migrations.js';
export type { OrderListQuery } from './orders.js';
export * from './types.js';
