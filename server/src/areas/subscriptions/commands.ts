import type { Selectable } from 'kysely';
import type { Subscription, SubscriptionInput } from '@cfs/contracts/tenants';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import { canAccessTenant } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import type { SubscriptionTable } from '../../db/schema.js';
import { NotFoundError } from '../../http/errors.js';

const present = (row: Selectable<SubscriptionTable>): Subscription => ({
  subscriptionId: row.subscription_id,
  tenantId: row.tenant_id,
  name: row.name,
  created: row.created,
  modified: row.modified,
});

async function assertTenant(db: Db, user: Principal, tenantId: string): Promise<void> {
  const exists = canAccessTenant(user.tenantScope, tenantId) && (await db.selectFrom('tenant').select('tenant_id').where('tenant_id', '=', tenantId).executeTakeFirst());
  if (!exists) throw new NotFoundError('The tenant');
}

/** PUT v1/subscriptions. */
export async function createSubscription(db: Db, user: Principal, input: SubscriptionInput): Promise<Subscription> {
  await assertTenant(db, user, input.tenantId);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('subscription')
      .values({ tenant_id: input.tenantId, name: input.name, created_by: user.userName, modified_by: user.userName })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, user, { entityType: 'subscription', entityId: row.subscription_id, tenantId: row.tenant_id, action: 'create', changes: { name: row.name } });
    return present(row);
  });
}

/** POST v1/subscriptions/{id}: renames; a subscription stays with its tenant. */
export async function updateSubscription(db: Db, user: Principal, subscriptionId: string, input: SubscriptionInput): Promise<Subscription> {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('subscription').selectAll().where('subscription_id', '=', subscriptionId).forUpdate().executeTakeFirst();
    if (!before || !canAccessTenant(user.tenantScope, before.tenant_id) || before.tenant_id !== input.tenantId.toLowerCase()) throw new NotFoundError('The subscription');
    const row = await trx
      .updateTable('subscription')
      .set({ name: input.name, modified: new Date(), modified_by: user.userName })
      .where('subscription_id', '=', subscriptionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, user, { entityType: 'subscription', entityId: subscriptionId, tenantId: row.tenant_id, action: 'update', changes: changedFields({ name: before.name }, { name: row.name }) });
    return present(row);
  });
}
