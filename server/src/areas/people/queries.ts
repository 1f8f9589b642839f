import { sql } from 'kysely';
import type { Person, PersonName } from '@cfs/contracts/shell';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';

const LIMIT = 20;
const pattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Users the caller may see and pick (assignee, approver): those who share a tenant with them. */
function visiblePeople(db: Db, user: Principal) {
  return sharingATenant(db, user).where('u.enabled', '=', true).where('u.email', 'is not', null);
}

/** Users who share a tenant with the caller, enabled or not (a record keeps who wrote it). */
function sharingATenant(db: Db, user: Principal) {
  return db
    .selectFrom('app_user as u')
    .select(['u.display_name', 'u.email'])
    .where((eb) =>
      user.tenantScope.kind === 'all'
        ? sql<boolean>`true`
        : eb.or([
            eb('u.all_tenants', '=', true),
            eb.exists(
              scoped(db, user.tenantScope)
                .selectFrom('tenant as t')
                .innerJoin('user_tenant as ut', 'ut.tenant_id', 't.tenant_id')
                .select('ut.user_id')
                .where(sql<boolean>`ut.user_id = u.user_id`),
            ),
          ]),
    );
}

export async function searchPeople(db: Db, user: Principal, term: string): Promise<Person[]> {
  const like = pattern(term.trim());
  const rows = await visiblePeople(db, user)
    .where((eb) =>
      eb.or([eb('u.display_name', 'ilike', like), eb('u.email', 'ilike', like), eb('u.user_name', 'ilike', like)]),
    )
    .orderBy('u.display_name')
    .limit(LIMIT)
    .execute();
  return rows.map((row) => ({ displayName: row.display_name, mail: row.email ?? '' }));
}

/** People and the directory's groups (assignment groups with a mailbox). */
export async function searchPeopleAndGroups(db: Db, user: Principal, term: string): Promise<Person[]> {
  const like = pattern(term.trim());
  const [people, groups] = await Promise.all([
    searchPeople(db, user, term),
    // Groups of the whole directory (no tenant) are everyone's (sharedWhenNull).
    scoped(db, user.tenantScope)
      .selectFrom('directory_group')
      .select(['display_name', 'mail'])
      .where((eb) => eb.or([eb('display_name', 'ilike', like), eb('mail', 'ilike', like)]))
      .orderBy('display_name')
      .limit(LIMIT)
      .execute(),
  ]);
  return [...people, ...groups.map((group) => ({ displayName: group.display_name, mail: group.mail }))]
    .sort((a, b) => a.displayName.localeCompare(b.displayName))
    .slice(0, LIMIT);
}

/** The approver check: is this address the signed-in user, and whose is it (among people the caller may see). */
export async function checkApprover(db: Db, user: Principal, approverId: string) {
  const person = await visiblePeople(db, user)
    .where(sql<boolean>`lower(u.email) = lower(${approverId.trim()})`)
    .executeTakeFirst();
  return {
    approverId,
    isCurrentUser: !!user.email && user.email.toLowerCase() === approverId.trim().toLowerCase(),
    displayName: person?.display_name ?? null,
  };
}

/**
 * Who the stored user names and mails are (records keep `created_by` as a user name, an assignee
 * as a mail): people who share a tenant with the caller, and the directory's groups in their
 * scope, in one query each. A key naming no one is left out; the screen shows it as stored.
 */
export async function findPersonNames(db: Db, user: Principal, keys: readonly string[]): Promise<PersonName[]> {
  const wanted = [...new Set(keys.map((key) => key.trim().toLowerCase()).filter((key) => key !== ''))];
  if (wanted.length === 0) return [];
  const [people, groups] = await Promise.all([
    sharingATenant(db, user)
      .select('u.user_name')
      .where((eb) => eb.or([eb(sql`lower(u.user_name)`, 'in', wanted), eb(sql`lower(u.email)`, 'in', wanted)]))
      .execute(),
    scoped(db, user.tenantScope)
      .selectFrom('directory_group')
      .select(['display_name', 'mail'])
      .where(sql`lower(mail)`, 'in', wanted)
      .execute(),
  ]);
  const named = new Map<string, PersonName>();
  for (const group of groups)
    named.set(group.mail.toLowerCase(), {
      key: group.mail.toLowerCase(),
      displayName: group.display_name,
      mail: group.mail,
    });
  for (const person of people) {
    for (const key of [person.user_name.toLowerCase(), person.email?.toLowerCase()]) {
      if (key && wanted.includes(key)) named.set(key, { key, displayName: person.display_name, mail: person.email });
    }
  }
  return [...named.values()];
}
