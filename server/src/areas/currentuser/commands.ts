import type { TenantSubscriptionContext } from '@cfs/contracts/shell';
import type { Principal } from '../../auth/principal.js';
import { setWorkingContext } from '../../auth/principals.js';
import { canAccessTenant } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';

/** Stores the tenant and subscription the user works in (the header picker). */
export async function setTenantSubscriptionContext(
  db: Db,
  user: Principal,
  tenantInPath: string,
  context: TenantSubscriptionContext,
): Promise<TenantSubscriptionContext> {
  if (tenantInPath.toLowerCase() !== context.tenant.toLowerCase()) {
    throw new BadRequestError('The tenant in the path and in the body differ.', {
      tenant: ['The tenant in the path and in the body differ.'],
    });
  }
  if (!canAccessTenant(user.tenantScope, context.tenant)) throw new NotFoundError('The tenant');
  const subscription = await scoped(db, user.tenantScope)
    .selectFrom('subscription')
    .select('subscription_id')
    .where('subscription_id', '=', context.subscriptionId)
    .where('tenant_id', '=', context.tenant)
    .executeTakeFirst();
  if (!subscription) {
    throw new BadRequestError('The subscription does not belong to the tenant.', {
      subscriptionId: ['The subscription does not belong to the tenant.'],
    });
  }
  await setWorkingContext(db, user.userId, { tenantId: context.tenant, subscriptionId: context.subscriptionId });
  return { tenant: context.tenant, subscriptionId: context.subscriptionId };
}
