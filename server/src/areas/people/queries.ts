import { sql } from 'kysely';
import type { Person } from '@cfs/contracts/shell';
import type { Principal } from '../../auth/principal.js';
import { tenantFilter } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';

const LIMIT = 20;
const pattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Users the caller may see and pick (assignee, approver): those who share a tenant with them. */
function visiblePeople(db: Db, user: Principal) {
  return db
    .selectFrom('app_user as u')
    .select(['u.display_name', 'u.email'])
    .where('u.enabled', '=', true)
    .where('u.email', 'is not', null)
    .where((eb) =>
      user.tenantScope.kind === 'all'
        ? sql<boolean>`true`
        : eb.or([
            eb('u.all_tenants', '=', true),
            eb.exists(eb.selectFrom('user_tenant as ut').select('ut.user_id').whereRef('ut.user_id', '=', 'u.user_id').where((inner) => tenantFilter(inner, 'ut.tenant_id', user.tenantScope))),
          ]),
    );
}

export async function searchPeople(db: Db, user: Principal, term: string): Promise<Person[]> {
  const like = pattern(term.trim());
  const rows = await visiblePeople(db, user)
    .where((eb) => eb.or([eb('u.display_name', 'ilike', like), eb('u.email', 'ilike', like), eb('u.user_name', 'ilike', like)]))
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
    db
      .selectFrom('directory_group')
      .select(['display_name', 'mail'])
      .where((eb) => eb.or([eb('display_name', 'ilike', like), eb('mail', 'ilike', like)]))
      .where((eb) => eb.or([eb('tenant_id', 'is', null), tenantFilter(eb, 'directory_group.tenant_id', user.tenantScope)]))
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
  const person = await visiblePeople(db, user).where(sql<boolean>`lower(u.email) = lower(${approverId.trim()})`).executeTakeFirst();
  return { approverId, isCurrentUser: !!user.email && user.email.toLowerCase() === approverId.trim().toLowerCase(), displayName: person?.display_name ?? null };
}
