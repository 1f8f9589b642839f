import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { hashPassword } from '../passwords.js';

/** The role every installation has (db/seed.ts BASE_ROLES) that holds every permission. */
const ADMINISTRATOR_ROLE = 'Administrator';

/** A password for a first sign-in: 20 characters of base64url (120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * The first administrator of an installation without demo accounts (or a way back in): a local
 * account of the embedded identity provider with the Administrator role over every tenant. An
 * existing account of that name gets the new password, is enabled and made an administrator.
 */
export async function createAdministrator(db: Db, userName: string, password: string): Promise<{ created: boolean }> {
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(userName)) throw new Error('A user name is 1 to 64 letters, digits or . _ @ -.');
  if (password.length < 12) throw new Error('The password must be at least 12 characters.');
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const role = await trx
      .selectFrom('app_role')
      .select('role_id')
      .where('name', '=', ADMINISTRATOR_ROLE)
      .executeTakeFirstOrThrow();
    const existing = await trx
      .selectFrom('app_user')
      .select('user_id')
      .where('user_name', '=', userName)
      .executeTakeFirst();
    const { user_id } = existing
      ? await trx
          .updateTable('app_user')
          .set({ password_hash: passwordHash, enabled: true, all_tenants: true, modified: new Date() })
          .where('user_id', '=', existing.user_id)
          .returning('user_id')
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('app_user')
          .values({ user_name: userName, display_name: userName, password_hash: passwordHash, all_tenants: true })
          .returning('user_id')
          .executeTakeFirstOrThrow();
    await trx
      .insertInto('user_role')
      .values({ user_id, role_id: role.role_id })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return { created: !existing };
  });
}
