import { sql } from 'kysely';
import { inject, it, expect, vi } from 'vitest';
import { connect, type Db } from '../src/db/database.js';
import { PREPARED_PER_CONNECTION, prepared } from '../src/db/prepared.js';
import { withClient } from './global-setup.js';
import { createTestDatabase } from './test-database.js';

/** A pool of `size` connections on a new empty database, for `use`; both go away after it. */
async function withPool(size: number, use: (db: Db) => Promise<void>): Promise<void> {
  const database = await createTestDatabase({ empty: true });
  const db = connect(database.url, size);
  try {
    await use(db);
  } finally {
    await db.destroy();
    await database.drop();
  }
}

it('fails the transaction whose connection the server ends while it is in use, and the pool serves the next query', () =>
  withPool(2, async (db) => {
    const cutOff = db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
      // As a server restart does: the connection ends under a transaction that holds it.
      await withClient(inject('testServerUrl'), (client) =>
        client.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]),
      );
      await sql`SELECT 1`.execute(trx);
    });
    await expect(cutOff).rejects.toThrow();
    const { rows } = await sql<{ answer: number }>`SELECT 42 AS answer`.execute(db);
    expect(rows[0]?.answer).toBe(42);
  }));

it('runs a marked statement as a prepared statement of its connection, parsed once and then planned once, and others as they come', () =>
  withPool(1, async (db) => {
    const answers: number[] = [];
    for (const value of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { rows } = await prepared(sql<{ answer: number }>`SELECT ${value}::int * 2 AS answer`).execute(db);
      answers.push(rows[0]!.answer);
    }
    expect(answers).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    await prepared(sql`SELECT ${'x'}::text AS other`).execute(db);
    await sql`SELECT ${7}::int AS plain`.execute(db);
    // One connection: the pool's only one ran all of them. After five runs planned for their
    // values, the server keeps one plan for the rest.
    const { rows } = await sql<{ statement: string; generic: string; custom: string }>`
      SELECT statement, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE NOT from_sql ORDER BY statement`.execute(
      db,
    );
    expect(
      rows.map((row) => [row.statement.replace(/\s+/g, ' ').trim(), Number(row.generic), Number(row.custom)]),
    ).toEqual([
      ['/* prepared */ SELECT $1::int * 2 AS answer', 3, 5],
      ['/* prepared */ SELECT $1::text AS other', 0, 1],
    ]);
  }));

it('runs a marked statement unprepared once its connection keeps as many as it may', () =>
  withPool(1, async (db) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // A text that varies per call (a literal in it): each takes a place until none is left.
      for (let value = 0; value < PREPARED_PER_CONNECTION + 5; value++) {
        const { rows } = await prepared(sql<{ answer: number }>`SELECT ${sql.lit(value)}::int AS answer`).execute(db);
        expect(rows[0]!.answer).toBe(value);
      }
      const { rows } = await sql<{
        kept: string;
      }>`SELECT count(*) AS kept FROM pg_prepared_statements WHERE NOT from_sql`.execute(db);
      expect(Number(rows[0]!.kept)).toBe(PREPARED_PER_CONNECTION);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  }));
