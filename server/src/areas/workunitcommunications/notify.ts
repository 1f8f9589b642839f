import { randomUUID } from 'node:crypto';
import { COMMUNICATION_MESSAGES } from '@cfs/contracts/communications';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, HttpError } from '../../http/errors.js';
import { enqueueCommunicationEmail } from './communication-email.js';

/** The spec's failure text (001 §8), with the reason after it in the same style. */
export const notifyFailure = (reason?: string): string =>
  reason ? `${COMMUNICATION_MESSAGES.notifyFailed} ${reason}` : COMMUNICATION_MESSAGES.notifyFailed;

/**
 * Notify Internal (GET v1/workunitcommunications/{id}/sendInternalNotification): the internal
 * report to the tenant's internal notification address, queued in one transaction with a job key of
 * its own (each request is a new email; a retried job sends it once). Another tenant's communication
 * is not found (404); a tenant without an internal address is a 400.
 */
export async function requestInternalNotification(
  db: Db,
  scope: TenantScope,
  workUnitCommunicationId: string,
  requestedBy: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await scoped(trx, scope)
      .selectFrom('work_unit_communication as c')
      .innerJoin('tenant as t', 't.tenant_id', 'c.tenant_id')
      .select(['c.tenant_id', 't.internal_notification_email_address'])
      .where('c.work_unit_communication_id', '=', workUnitCommunicationId)
      .executeTakeFirst();
    if (!row) throw new HttpError(404, notifyFailure('The communication was not found.'));
    if (!row.internal_notification_email_address?.trim())
      throw new BadRequestError(notifyFailure(COMMUNICATION_MESSAGES.notifyNoAddress));
    await enqueueCommunicationEmail(
      trx,
      { kind: 'internalNotification', workUnitCommunicationId, tenantId: row.tenant_id, dueAt: null, requestedBy },
      `wucomm:notify:${workUnitCommunicationId}:${randomUUID()}`,
    );
  });
}
