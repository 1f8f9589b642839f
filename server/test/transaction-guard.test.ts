import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type Db } from '../src/db/database.js';
import { RootHandleInTransactionError } from '../src/db/transaction-guard.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = connect(database.url, 4);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const one = (executor: Db) => sql<{ one: number }>`SELECT 1 AS one`.execute(executor);

describe('the root-handle-in-transaction guard', () => {
  test('throws when the root handle is used inside an open transaction', async () => {
    await expect(db.transaction().execute(async () => one(db))).rejects.toBeInstanceOf(RootHandleInTransactionError);
  });

  test('lets the transaction itself query, also after awaits and in parallel', async () => {
    const result = await db.transaction().execute(async (trx) => {
      await one(trx);
      const [a, b] = await Promise.all([one(trx), one(trx)]);
      return a.rows[0]!.one + b.rows[0]!.one;
    });
    expect(result).toBe(2);
  });

  test('lets the root handle query again once the transaction has ended, committed or rolled back', async () => {
    await db.transaction().execute(async (trx) => one(trx));
    await expect(db.transaction().execute(async () => Promise.reject(new Error('rolled back')))).rejects.toThrow(
      'rolled back',
    );
    expect((await one(db)).rows).toEqual([{ one: 1 }]);
  });

  test('does not stop another request from using the root handle while this one holds a transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = db.transaction().execute(async (trx) => {
      await one(trx);
      await held;
    });
    const other = (async () => one(db))();
    await expect(other).resolves.toMatchObject({ rows: [{ one: 1 }] });
    release();
    await holding;
  });
});
