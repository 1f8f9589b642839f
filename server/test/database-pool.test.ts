import { sql } from 'kysely';
import { inject, it, expect } from 'vitest';
import { connect } from '../src/db/database.js';
import { withClient } from './global-setup.js';
import { createTestDatabase } from './test-database.js';

it('fails the transaction whose connection the server ends while it is in use, and the pool serves the next query', async () => {
  const database = await createTestDatabase({ empty: true });
  const db = connect(database.url, 2);
  try {
    const cutOff = db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
      // As a server restart does: the connection ends under a transaction that holds it.
      await withClient(inject('testServerUrl'), (client) => client.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]));
      await sql`SELECT 1`.execute(trx);
    });
    await expect(cutOff).rejects.toThrow();
    const { rows } = await sql<{ answer: number }>`SELECT 42 AS answer`.execute(db);
    expect(rows[0]?.answer).toBe(42);
  } finally {
    await db.destroy();
    await database.drop();
  }
});
