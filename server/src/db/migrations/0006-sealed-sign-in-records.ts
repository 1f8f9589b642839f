import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/** Sign-in records are now stored with hashed ids and sealed payloads; the plain ones go (their users sign in again). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`DELETE FROM oidc_payload`]);
}
