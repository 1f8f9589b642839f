import { sql } from 'kysely';
import { inject, it, expect } from 'vitest';
import { connect } from '../src/db/database.js';
import { prepared } from '../src/db/prepared.js';
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

it('runs a marked statement as a prepared statement of its connection, parsed once, and others as they come', async () => {
  const database = await createTestDatabase({ empty: true });
  const db = connect(database.url, 1);
  try {
    const answers: number[] = [];
    for (const value of [1, 2, 3]) {
      const { rows } = await prepared(sql<{ answer: number }>`SELECT ${value}::int * 2 AS answer`).execute(db);
      answers.push(rows[0]!.answer);
    }
    expect(answers).toEqual([2, 4, 6]);
    await prepared(sql`SELECT ${'x'}::text AS other`).execute(db);
    await sql`SELECT ${7}::int AS plain`.execute(db);
    // One connection: the pool's only one ran all of them.
    const { rows } = await sql<{ statement: string; calls: string }>`
      SELECT statement, generic_plans + custom_plans AS calls FROM pg_prepared_statements WHERE NOT from_sql ORDER BY statement`.execute(db);
    expect(rows.map((row) => [row.statement.replace(/\s+/g, ' ').trim(), Number(row.calls)])).toEqual([
      ['/* prepared */ SELECT $1::int * 2 AS answer', 3],
      ['/* prepared */ SELECT $1::text AS other', 1],
    ]);
  } finally {
    await db.destroy();
    await database.drop();
  }
});
