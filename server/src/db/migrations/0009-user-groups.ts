import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The assignment groups a local user belongs to, as the names the tenants' Assignment Group
 * field holds ("My groups" on the work units grid). Users of an external identity provider get
 * theirs from the groups claim (OIDC_GROUPS_CLAIM) instead, as they do their roles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE app_user ADD COLUMN assignment_groups text[] NOT NULL DEFAULT '{}'`]);
}
