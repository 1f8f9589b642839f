import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Db } from '../src/db/database.js';
import { RootHandleInTransactionError } from '../src/db/transaction-guard.js';
import { ownDatabase } from './test-database.js';

const own = ownDatabase(4);

const one = (executor: Db) => sql<{ one: number }>`SELECT 1 AS one`.execute(executor);

describe('the root-handle-in-transaction guard', () => {
  test('throws when the root handle is used inside an open transaction', async () => {
    await expect(own.db.transaction().execute(async () => one(own.db))).rejects.toBeInstanceOf(
      RootHandleInTransactionError,
    );
  });

  test('lets the transaction itself query, also after awaits and in parallel', async () => {
    const result = await own.db.transaction().execute(async (trx) => {
      await one(trx);
      const [a, b] = await Promise.all([one(trx), one(trx)]);
      return a.rows[0]!.one + b.rows[0]!.one;
    });
    expect(result).toBe(2);
  });

  test('lets the root handle query again once the transaction has ended, committed or rolled back', async () => {
    await own.db.transaction().execute(async (trx) => one(trx));
    await expect(own.db.transaction().execute(async () => Promise.reject(new Error('rolled back')))).rejects.toThrow(
      'rolled back',
    );
    expect((await one(own.db)).rows).toEqual([{ one: 1 }]);
  });

  test('does not stop another request from using the root handle while this one holds a transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = own.db.transaction().execute(async (trx) => {
      await one(trx);
      await held;
    });
    const other = (async () => one(own.db))();
    await expect(other).resolves.toMatchObject({ rows: [{ one: 1 }] });
    release();
    await holding;
  });
});
