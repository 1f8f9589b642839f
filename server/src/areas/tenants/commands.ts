import { TENANT_MESSAGES, type Tenant, type TenantInput } from '@cfs/contracts/tenants';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError } from '../../http/errors.js';
import { findTenantRow } from './queries.js';
import { tenantEntity } from './resource.js';
import { normalizeCustomFields, normalizeIntakeSchema } from './validation.js';

/** The columns an input writes, its values normalized; refused with each field's problems. */
function toColumns(input: TenantInput, stored?: Tenant) {
  const errors: Record<string, string[]> = {};
  const custom = normalizeCustomFields(input, errors, stored);
  const intake = normalizeIntakeSchema(input.intakeWizardSchema, errors);
  if (Object.keys(errors).length) throw new BadRequestError(TENANT_MESSAGES.saveFailed, errors);
  const email = input.internalNotificationEmailAddress;
  return tenantEntity.writeColumns({
    ...input,
    internalNotificationEmailAddress: email === undefined ? undefined : email || null,
    assignmentGroups: input.assignmentGroups
      ?.split(',')
      .map((group) => group.trim())
      .filter(Boolean)
      .join(','),
    intakeWizardSchema: intake,
    // Each custom field the input sends, normalized (an error above for any it cannot take).
    ...custom,
  });
}

/** PUT v1/tenants. A creator limited to some tenants is given the new one. */
export async function createTenant(db: Db, user: Principal, input: TenantInput): Promise<Tenant> {
  const values = toColumns(input);
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('tenant', { ...values, created_by: user.userName, modified_by: user.userName })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (user.tenantScope.kind === 'some')
      await trx.insertInto('user_tenant').values({ user_id: user.userId, tenant_id: row.tenant_id }).execute();
    const tenant = tenantEntity.present(row);
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
    const before = tenantEntity.present(await findTenantRow(trx, user.tenantScope, tenantId, { lock: true }));
    const values = toColumns(input, before);
    const row = await scoped(trx, user.tenantScope)
      .updateTable('tenant')
      .set({ ...values, modified: new Date(), modified_by: user.userName })
      .where('tenant_id', '=', tenantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = tenantEntity.present(row);
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
    return tenantEntity.present(row);
  });
}
