export { Store } from './sqlite/store.js';
export { openDatabase, migrate, type Db, type OpenOptions } from './sqlite/db.js';
export { migrations, type Migration } from './sqlite/migrations.js';
export * from './types.js';
