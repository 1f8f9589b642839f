import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { hashPassword, needsRehash, verifyAgainstNothing, verifyPassword } from '../passwords.js';

/** Failed sign-ins an account may have within the window before it is refused for the rest of it. */
export const ACCOUNT_FAILURE_LIMIT = 10;
export const ACCOUNT_FAILURE_WINDOW_MINUTES = 15;

export type SignInResult =
  | { ok: true; userName: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

/**
 * Checks a user name and password for the embedded sign-in page. Every answer costs one password
 * check, known user or not, so timing tells no user names apart; an account with too many recent
 * failures is refused whatever the password (the per-address limit sits in front of this); a hash of
 * an older, lower cost is replaced after a successful check.
 */
export async function checkSignIn(db: Db, userName: string, password: string): Promise<SignInResult> {
  const user = userName
    ? await db
        .selectFrom('app_user')
        .select(['user_id', 'user_name', 'password_hash', 'enabled', 'failed_sign_ins', 'failed_sign_ins_since'])
        .where('user_name', '=', userName)
        .executeTakeFirst()
    : undefined;
  if (!user?.enabled || !user.password_hash) {
    await verifyAgainstNothing(password);
    return { ok: false, reason: 'invalid' };
  }
  const windowEnds =
    user.failed_sign_ins_since === null
      ? 0
      : user.failed_sign_ins_since.getTime() + ACCOUNT_FAILURE_WINDOW_MINUTES * 60_000;
  const windowOpen = Date.now() < windowEnds;
  if (windowOpen && user.failed_sign_ins >= ACCOUNT_FAILURE_LIMIT) {
    await verifyAgainstNothing(password);
    return { ok: false, reason: 'locked', retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - Date.now()) / 1000)) };
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    // A new window starts with the first failure after the last one closed.
    await db
      .updateTable('app_user')
      .set({
        failed_sign_ins: windowOpen ? sql<number>`failed_sign_ins + 1` : 1,
        failed_sign_ins_since: windowOpen ? user.failed_sign_ins_since : new Date(),
      })
      .where('user_id', '=', user.user_id)
      .execute();
    return { ok: false, reason: 'invalid' };
  }
  const rehashed = needsRehash(user.password_hash) ? { password_hash: await hashPassword(password) } : {};
  if (user.failed_sign_ins > 0 || 'password_hash' in rehashed) {
    await db
      .updateTable('app_user')
      .set({ failed_sign_ins: 0, failed_sign_ins_since: null, ...rehashed })
      .where('user_id', '=', user.user_id)
      .execute();
  }
  return { ok: true, userName: user.user_name };
}
