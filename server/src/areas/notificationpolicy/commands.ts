import {
  DEFAULT_GROUP_WAIT,
  NOTIFICATION_GROUP_BY,
  type NotificationGroupBy,
  type notificationPolicyInputSchema,
  type NotificationPolicy,
} from '@cfs/contracts/notification-policy';
import { formatInterval, intervalSeconds } from '@cfs/contracts/device-operations';
import type { z } from 'zod';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { HttpError } from '../../http/errors.js';

type Input = z.output<typeof notificationPolicyInputSchema>;

const NOT_FOUND = 'The tenant does not exist.';

interface Row {
  repeat_seconds: number | null;
  group_by: string | null;
  group_wait_seconds: number;
  modified: Date;
  modified_by: string | null;
}
const columns = ['repeat_seconds', 'group_by', 'group_wait_seconds', 'modified', 'modified_by'] as const;

const groupByOf = (text: string | null | undefined): NotificationGroupBy | null =>
  NOTIFICATION_GROUP_BY.find((name) => name === text) ?? null;

function present(tenantId: string, row: Row | undefined): NotificationPolicy {
  return {
    tenantId,
    repeatEvery: row?.repeat_seconds ? formatInterval(row.repeat_seconds) : null,
    groupBy: groupByOf(row?.group_by),
    groupWait: row ? formatInterval(row.group_wait_seconds) : DEFAULT_GROUP_WAIT,
    modified: row?.modified ?? null,
    modifiedBy: row?.modified_by ?? null,
  };
}

/** What an audit row compares: the policy as the caller says it. */
const said = ({ repeatEvery, groupBy, groupWait }: NotificationPolicy) => ({ repeatEvery, groupBy, groupWait });

/** GET v1/notificationpolicy/{tenantId}: a tenant without one never repeats. */
export async function findPolicy(db: Db, user: Principal, tenantId: string): Promise<NotificationPolicy> {
  const tx = scoped(db, user.tenantScope);
  if (!(await tx.hasTenant(tenantId))) throw new HttpError(404, NOT_FOUND);
  const row = await tx
    .selectFrom('notification_policy')
    .select(columns)
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
      .select(columns)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    const values = {
      repeat_seconds: input.repeatEvery === null ? null : (intervalSeconds(input.repeatEvery) ?? null),
      group_by: input.groupBy,
      group_wait_seconds: intervalSeconds(input.groupWait) ?? 30,
      modified: new Date(),
      modified_by: user.userName,
    };
    const row = await tx
      .insertInto('notification_policy', { tenant_id: tenantId, ...values })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
      .returning(columns)
      .executeTakeFirstOrThrow();
    const after = present(tenantId, row);
    await recordAudit(trx, user, {
      entityType: 'notificationPolicy',
      entityId: tenantId,
      tenantId,
      action: before ? 'update' : 'create',
      changes: changedFields(said(present(tenantId, before)), said(after)),
    });
    return after;
  });
}
