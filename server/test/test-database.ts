import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { withDatabaseName } from '../src/db/database.js';
import { withClient } from './global-setup.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test: a copy of the run's migrated and seeded template, or an
 * empty one (`{ empty: true }`) for tests that make their own tables.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = inject('testServerUrl');
  const name = `${inject('testRunPrefix')}_${randomBytes(5).toString('hex')}`;
  const template = options.empty ? 'template0' : inject('testTemplate');
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabaseName(serverUrl, name),
    drop: () => withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
