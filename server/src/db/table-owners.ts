import type { DB as Database } from './schema.js';
import { TABLE_OWNERS as DECLARED_OWNERS } from './tables.js';

/**
 * The one folder that writes each table (server/src/<owner>): an area, an engine, or shared
 * machinery (auth, audit, files). Another folder that needs a row written calls the owner's
 * function, or its port when it may not import the owner (engines/work-units/system-writer.ts), so
 * a table's rules (history, events, audit, payload checks) live in one place. A test
 * (server/test/table-owners.test.ts) fails on an insert, update, delete or merge of a table
 * written outside its owner, raw `sql` included. A new table names its owner in the migration that
 * creates it (`declareTable`), and `npm run db:types` writes it to tables.ts; the type checker holds
 * this list to the database's tables.
 *
 * Not checked: migrations, and the installation's own set-up (db/seed.ts with the demo work
 * units), which writes the first tenants, users and categories before any area's function can run.
 */
export const TABLE_OWNERS = DECLARED_OWNERS satisfies Record<keyof Database, string>;
