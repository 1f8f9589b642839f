import type { Selectable } from 'kysely';
import type { Subscription, SubscriptionInput } from '@cfs/contracts/tenants';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { NotFoundError } from '../../http/errors.js';

const present = (row: Selectable<Database['subscription']>): Subscription => ({
  subscriptionId: row.subscription_id,
  tenantId: row.tenant_id,
  name: row.name,
  created: row.created,
  modified: row.modified,
});

/** PUT v1/subscriptions. */
export async function createSubscription(db: Db, user: Principal, input: SubscriptionInput): Promise<Subscription> {
  if (!(await scoped(db, user.tenantScope).hasTenant(input.tenantId))) throw new NotFoundError('The tenant');
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('subscription', { tenant_id: input.tenantId, name: input.name, created_by: user.userName, modified_by: user.userName })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, user, { entityType: 'subscription', entityId: row.subscription_id, tenantId: row.tenant_id, action: 'create', changes: { name: row.name } });
    return present(row);
  });
}

/** POST v1/subscriptions/{id}: renames; a subscription stays with its tenant. */
export async function updateSubscription(db: Db, user: Principal, subscriptionId: string, input: SubscriptionInput): Promise<Subscription> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await tx.selectFrom('subscription').selectAll().where('subscription_id', '=', subscriptionId).forUpdate().executeTakeFirst();
    if (!before || before.tenant_id !== input.tenantId) throw new NotFoundError('The subscription');
    const row = await tx
      .updateTable('subscription')
      .set({ name: input.name, modified: new Date(), modified_by: user.userName })
      .where('subscription_id', '=', subscriptionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, user, { entityType: 'subscription', entityId: subscriptionId, tenantId: row.tenant_id, action: 'update', changes: changedFields({ name: before.name }, { name: row.name }) });
    return present(row);
  });
}
