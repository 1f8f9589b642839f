import { type notificationPolicyInputSchema, type NotificationPolicy } from '@cfs/contracts/notification-policy';
import { formatInterval, intervalSeconds } from '@cfs/contracts/device-operations';
import type { z } from 'zod';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { HttpError } from '../../http/errors.js';

type Input = z.output<typeof notificationPolicyInputSchema>;

const NOT_FOUND = 'The tenant does not exist.';

function present(
  tenantId: string,
  row: { repeat_seconds: number | null; modified: Date; modified_by: string | null } | undefined,
): NotificationPolicy {
  return {
    tenantId,
    repeatEvery: row?.repeat_seconds ? formatInterval(row.repeat_seconds) : null,
    modified: row?.modified ?? null,
    modifiedBy: row?.modified_by ?? null,
  };
}

/** GET v1/notificationpolicy/{tenantId}: a tenant without one never repeats. */
export async function findPolicy(db: Db, user: Principal, tenantId: string): Promise<NotificationPolicy> {
  const tx = scoped(db, user.tenantScope);
  if (!(await tx.hasTenant(tenantId))) throw new HttpError(404, NOT_FOUND);
  const row = await tx
    .selectFrom('notification_policy')
    .select(['repeat_seconds', 'modified', 'modified_by'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return present(tenantId, row);
}

/** PUT v1/notificationpolicy/{tenantId}: written whole, audited. */
export async function savePolicy(db: Db, user: Principal, tenantId: string, input: Input): Promise<NotificationPolicy> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    if (!(await tx.hasTenant(tenantId))) throw new HttpError(404, NOT_FOUND);
    const before = await tx
      .selectFrom('notification_policy')
      .select(['repeat_seconds', 'modified', 'modified_by'])
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    const repeatSeconds = input.repeatEvery === null ? null : (intervalSeconds(input.repeatEvery) ?? null);
    const now = new Date();
    const row = await tx
      .insertInto('notification_policy', {
        tenant_id: tenantId,
        repeat_seconds: repeatSeconds,
        modified: now,
        modified_by: user.userName,
      })
      .onConflict((oc) =>
        oc
          .column('tenant_id')
          .doUpdateSet({ repeat_seconds: repeatSeconds, modified: now, modified_by: user.userName }),
      )
      .returning(['repeat_seconds', 'modified', 'modified_by'])
      .executeTakeFirstOrThrow();
    const after = present(tenantId, row);
    await recordAudit(trx, user, {
      entityType: 'notificationPolicy',
      entityId: tenantId,
      tenantId,
      action: before ? 'update' : 'create',
      changes: changedFields(
        { repeatEvery: present(tenantId, before).repeatEvery },
        { repeatEvery: after.repeatEvery },
      ),
    });
    return after;
  });
}
