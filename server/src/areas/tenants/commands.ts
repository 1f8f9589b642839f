import type { Updateable } from 'kysely';
import { TENANT_MESSAGES, customFieldColumns, type Tenant, type TenantInput } from '@cfs/contracts/tenants';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { BadRequestError } from '../../http/errors.js';
import { customFieldColumnName, findTenantRow, presentTenant, type TenantRow } from './queries.js';
import { normalizeCustomFields, normalizeIntakeSchema } from './validation.js';

function toColumns(input: TenantInput, stored?: TenantRow): Updateable<Database['tenant']> {
  const errors: Record<string, string[]> = {};
  const storedFields = stored
    ? Object.fromEntries(
        customFieldColumns.map((field) => [field, stored[customFieldColumnName(field)] as string | null]),
      )
    : {};
  const custom = normalizeCustomFields(input, errors, storedFields);
  const intake = normalizeIntakeSchema(input.intakeWizardSchema, errors);
  if (Object.keys(errors).length) throw new BadRequestError(TENANT_MESSAGES.saveFailed, errors);
  const values: Updateable<Database['tenant']> = { name: input.name };
  if (input.internalNotificationEmailAddress !== undefined)
    values.internal_notification_email_address = input.internalNotificationEmailAddress || null;
  if (input.enabled !== undefined) values.enabled = input.enabled;
  if (input.versionPolicyDays !== undefined) values.version_policy_days = input.versionPolicyDays;
  if (input.assignmentGroups !== undefined) {
    values.assignment_groups = input.assignmentGroups
      .split(',')
      .map((group) => group.trim())
      .filter(Boolean)
      .join(',');
  }
  if (intake !== undefined) values.intake_wizard_schema = intake;
  for (const field of customFieldColumns) {
    const value = custom[field];
    if (value !== undefined) values[customFieldColumnName(field)] = value;
  }
  return values;
}

/** PUT v1/tenants. A creator limited to some tenants is given the new one. */
export async function createTenant(db: Db, user: Principal, input: TenantInput): Promise<Tenant> {
  const values = toColumns(input);
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('tenant', { ...values, name: input.name, created_by: user.userName, modified_by: user.userName })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (user.tenantScope.kind === 'some')
      await trx.insertInto('user_tenant').values({ user_id: user.userId, tenant_id: row.tenant_id }).execute();
    const tenant = presentTenant(row);
    await recordAudit(trx, user, {
      entityType: 'tenant',
      entityId: row.tenant_id,
      tenantId: row.tenant_id,
      action: 'create',
      changes: { name: tenant.name },
    });
    return tenant;
  });
}

/** POST v1/tenants/{id}. */
export async function updateTenant(db: Db, user: Principal, tenantId: string, input: TenantInput): Promise<Tenant> {
  return db.transaction().execute(async (trx) => {
    const beforeRow = await findTenantRow(trx, user.tenantScope, tenantId, { lock: true });
    const values = toColumns(input, beforeRow);
    const before = presentTenant(beforeRow);
    const row = await scoped(trx, user.tenantScope)
      .updateTable('tenant')
      .set({ ...values, modified: new Date(), modified_by: user.userName })
      .where('tenant_id', '=', tenantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = presentTenant(row);
    const { modified: _m, modifiedBy: _mb, ...comparable } = after;
    await recordAudit(trx, user, {
      entityType: 'tenant',
      entityId: tenantId,
      tenantId,
      action: 'update',
      changes: changedFields(before, comparable),
    });
    return after;
  });
}

/** POST v1/tenants/toggledisabled/{id}: enabled ↔ disabled. */
export async function toggleTenant(db: Db, user: Principal, tenantId: string): Promise<Tenant> {
  return db.transaction().execute(async (trx) => {
    const before = await findTenantRow(trx, user.tenantScope, tenantId, { lock: true });
    const row = await scoped(trx, user.tenantScope)
      .updateTable('tenant')
      .set({ enabled: !before.enabled, modified: new Date(), modified_by: user.userName })
      .where('tenant_id', '=', tenantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, user, {
      entityType: 'tenant',
      entityId: tenantId,
      tenantId,
      action: 'update',
      changes: { enabled: { from: before.enabled, to: row.enabled } },
    });
    return presentTenant(row);
  });
}
