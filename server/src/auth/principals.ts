import type { JWTPayload } from 'jose';
import { sql } from 'kysely';
import { PermissionSet } from '@cfs/contracts/permissions';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Principal } from './principal.js';
import { scoped } from '../db/scoped.js';
import { ALL_TENANTS, type TenantScope } from './tenant-scope.js';

interface UserRow {
  user_id: string;
  user_name: string;
  display_name: string;
  email: string | null;
  all_tenants: boolean;
  assignment_groups: string[];
  enabled: boolean;
  tenant_id: string | null;
  subscription_id: string | null;
  permissions: string[] | null;
  tenant_ids: string[] | null;
  disabled_tenant_ids: string[] | null;
}

/** One query: the user with the permissions of their roles and their tenants. */
async function findUser(
  db: Db,
  where: { userName: string } | { externalSubject: string },
): Promise<UserRow | undefined> {
  const condition =
    'userName' in where ? sql`u.user_name = ${where.userName}` : sql`u.external_subject = ${where.externalSubject}`;
  const result = await sql<UserRow>`
    SELECT u.user_id, u.user_name, u.display_name, u.email, u.all_tenants, u.assignment_groups, u.enabled, u.tenant_id, u.subscription_id,
      ARRAY(SELECT DISTINCT rp.permission FROM user_role ur JOIN role_permission rp ON rp.role_id = ur.role_id
            WHERE ur.user_id = u.user_id) AS permissions,
      ARRAY(SELECT ut.tenant_id::text FROM user_tenant ut JOIN tenant t USING (tenant_id) WHERE ut.user_id = u.user_id AND t.enabled) AS tenant_ids,
      ARRAY(SELECT ut.tenant_id::text FROM user_tenant ut JOIN tenant t USING (tenant_id) WHERE ut.user_id = u.user_id AND NOT t.enabled) AS disabled_tenant_ids
    FROM app_user u WHERE ${condition}`.execute(db);
  return result.rows[0];
}

function toPrincipal(
  config: Config,
  row: UserRow,
  permissions: string[],
  scope: TenantScope,
  groups: string[],
): Principal {
  const prefixed = permissions.map((permission) => `${config.permissionPrefix}.${permission}`).sort();
  return {
    userId: row.user_id,
    userName: row.user_name,
    displayName: row.display_name,
    email: row.email,
    permissions: new PermissionSet(prefixed),
    permissionStrings: prefixed,
    tenantScope: scope,
    groups,
    tenantId: row.tenant_id,
    subscriptionId: row.subscription_id,
  };
}

/** A claim's names: an array, or one text of names separated by `separator` (blanks and commas by default). */
function claimList(claims: JWTPayload, name: string, separator: RegExp = /[\s,]+/): string[] {
  const value = claims[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (typeof value === 'string')
    return value
      .split(separator)
      .map((item) => item.trim())
      .filter(Boolean);
  return [];
}

/**
 * Turns verified access-token claims into a principal, or undefined for an unknown or
 * disabled user.
 *
 * Embedded provider: `sub` is the user name; roles, tenants and groups come from the database.
 * External provider: the user is found by `{iss}|{sub}` (created on first sight); roles are the
 * names in the roles claim (OIDC_ROLES_CLAIM) matched to the portal's roles, tenants are the
 * ids or names in the tenants claim (OIDC_TENANTS_CLAIM), `*` meaning every tenant, and groups
 * the names in the groups claim (OIDC_GROUPS_CLAIM), taken as they are, like the roles: the
 * provider owns them, so they are not stored.
 */
export async function loadPrincipal(db: Db, config: Config, claims: JWTPayload): Promise<Principal | undefined> {
  if (!claims.sub) return undefined;
  if (config.oidc.embedded) {
    const row = await findUser(db, { userName: claims.sub });
    if (!row?.enabled) return undefined;
    // A disabled tenant's data is out of its own staff's reach (every area alike); administrators of every tenant still read it.
    const scope: TenantScope = row.all_tenants
      ? ALL_TENANTS
      : {
          kind: 'some',
          tenantIds: (row.tenant_ids ?? []).map((id) => id.toLowerCase()),
          disabledTenantIds: (row.disabled_tenant_ids ?? []).map((id) => id.toLowerCase()),
        };
    return toPrincipal(config, row, row.permissions ?? [], scope, row.assignment_groups);
  }
  return loadExternalPrincipal(db, config, claims, claims.sub);
}

async function loadExternalPrincipal(
  db: Db,
  config: Config,
  claims: JWTPayload,
  sub: string,
): Promise<Principal | undefined> {
  const externalSubject = `${claims.iss ?? ''}|${sub}`;
  const roleNames = claimList(claims, config.oidc.rolesClaim);
  const tenantClaims = claimList(claims, config.oidc.tenantsClaim);
  const allTenants = tenantClaims.includes('*');
  const tenants = allTenants
    ? []
    : // The tenants claim is what gives the caller a scope, so it is resolved before one exists.
      await scoped(db, ALL_TENANTS)
        .selectFrom('tenant')
        .select(['tenant_id', 'enabled'])
        .where((eb) =>
          eb.or([
            eb('name', 'in', tenantClaims.length ? tenantClaims : ['']),
            sql<boolean>`tenant_id::text = ANY(${sql.val(tenantClaims)})`,
          ]),
        )
        .execute();
  const tenantIds = tenants.filter((tenant) => tenant.enabled).map((tenant) => tenant.tenant_id.toLowerCase());
  const disabledTenantIds = tenants.filter((tenant) => !tenant.enabled).map((tenant) => tenant.tenant_id.toLowerCase());
  let row = await findUser(db, { externalSubject });
  if (!row) {
    const userNameClaim = claims[config.oidc.userNameClaim];
    const preferred = typeof userNameClaim === 'string' ? userNameClaim : externalSubject;
    // A name already taken (a local account) is never linked to: the newcomer's name is qualified by its issuer.
    const taken = await db
      .selectFrom('app_user')
      .select('user_id')
      .where('user_name', '=', preferred)
      .executeTakeFirst();
    const userName = taken ? `${preferred}@${claims.iss ? new URL(claims.iss).host : 'external'}` : preferred;
    const name = typeof claims.name === 'string' ? claims.name : preferred;
    const email = typeof claims.email === 'string' ? claims.email : null;
    await db
      .insertInto('app_user')
      .values({
        user_name: userName,
        display_name: name,
        email,
        external_subject: externalSubject,
        tenant_id: tenantIds[0] ?? null,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    row = await findUser(db, { externalSubject });
  }
  if (!row?.enabled) return undefined;
  const permissions = roleNames.length
    ? await db
        .selectFrom('role_permission')
        .innerJoin('app_role', 'app_role.role_id', 'role_permission.role_id')
        .select('role_permission.permission')
        .distinct()
        .where('app_role.name', 'in', roleNames)
        .execute()
    : [];
  const scope: TenantScope = allTenants ? ALL_TENANTS : { kind: 'some', tenantIds, disabledTenantIds };
  // Group names hold blanks ("Service Desk"): a text claim is split on commas only.
  const groups = claimList(claims, config.oidc.groupsClaim, /,/);
  return toPrincipal(
    config,
    row,
    permissions.map((p) => p.permission),
    scope,
    groups,
  );
}

/** The tenant and subscription the user works in, as the header picker stores them; the caller checks they may. */
export async function setWorkingContext(
  db: Db,
  userId: string,
  context: { tenantId: string; subscriptionId: string },
): Promise<void> {
  await db
    .updateTable('app_user')
    .set({ tenant_id: context.tenantId, subscription_id: context.subscriptionId, modified: new Date() })
    .where('user_id', '=', userId)
    .execute();
}
