import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/** Failed sign-ins per account, shared by every instance: the per-account limit beside the per-address one. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE app_user ADD COLUMN failed_sign_ins integer NOT NULL DEFAULT 0`,
    `ALTER TABLE app_user ADD COLUMN failed_sign_ins_since timestamptz`,
  ]);
}
