import type { Subscription, SubscriptionInput } from '@cfs/contracts/tenants';
import { changedFields, entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { NotFoundError } from '../../http/errors.js';
import { subscriptionEntity } from './resource.js';

/** Records an action on a subscription in the change history, in the write's transaction. */
const recordChange = entityAudit(
  'subscription',
  (row: { subscription_id: string; tenant_id: string }) => row.subscription_id,
);

/** PUT v1/subscriptions. */
export async function createSubscription(db: Db, user: Principal, input: SubscriptionInput): Promise<Subscription> {
  if (!(await scoped(db, user.tenantScope).hasTenant(input.tenantId))) throw new NotFoundError('The tenant');
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('subscription', {
        ...subscriptionEntity.writeColumns(input),
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'create', { name: row.name });
    return subscriptionEntity.present(row);
  });
}

/** POST v1/subscriptions/{id}: renames; a subscription stays with its tenant. */
export async function updateSubscription(
  db: Db,
  user: Principal,
  subscriptionId: string,
  input: SubscriptionInput,
): Promise<Subscription> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await tx
      .selectFrom('subscription')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .forUpdate()
      .executeTakeFirst();
    if (!before || before.tenant_id !== input.tenantId) throw new NotFoundError('The subscription');
    const { tenant_id: _tenantId, ...columns } = subscriptionEntity.writeColumns(input);
    const row = await tx
      .updateTable('subscription')
      .set({ ...columns, modified: new Date(), modified_by: user.userName })
      .where('subscription_id', '=', subscriptionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = subscriptionEntity.present(row);
    const { modified: _modified, ...changes } = changedFields(subscriptionEntity.present(before), after);
    await recordChange(trx, user, row, 'update', changes);
    return after;
  });
}
