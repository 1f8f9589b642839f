import type { SubscriptionLookup, TenantLookup, WorkUnitTypeLookup } from '@cfs/contracts/shell';
import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import type { Db } from '../../db/database.js';

export async function findTenantLookups(db: Db, scope: TenantScope): Promise<TenantLookup[]> {
  return scoped(db, scope)
    .selectFrom('tenant')
    .select(['tenant_id as tenantId', 'name'])
    .where('enabled', '=', true)
    .orderBy('name')
    .execute();
}

export async function findSubscriptionLookups(db: Db, scope: TenantScope): Promise<SubscriptionLookup[]> {
  // A disabled tenant leaves the pickers, its subscriptions with it.
  return scoped(db, scope)
    .selectFrom('subscription')
    .innerJoin('tenant', 'tenant.tenant_id', 'subscription.tenant_id')
    .where('tenant.enabled', '=', true)
    .select([
      'subscription.subscription_id as subscriptionId',
      'subscription.name',
      'subscription.tenant_id as tenantId',
    ])
    .orderBy('subscription.name')
    .execute();
}

/**
 * "Legacy" is hidden and "Request" is shown as "User Request" (spec 000 §3). By id: the types'
 * names can be edited, their meaning cannot.
 */
export async function findWorkUnitTypeLookups(db: Db): Promise<WorkUnitTypeLookup[]> {
  const rows = await db
    .selectFrom('work_unit_type')
    .select(['work_unit_type_id as workUnitTypeId', 'name'])
    .where('enabled', '=', true)
    .where('work_unit_type_id', '<>', WORK_UNIT_TYPES.Legacy)
    .orderBy('work_unit_type_id')
    .execute();
  return rows.map((row) => (row.workUnitTypeId === WORK_UNIT_TYPES.Request ? { ...row, name: 'User Request' } : row));
}
