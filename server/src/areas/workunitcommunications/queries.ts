import type { Kysely } from 'kysely';
import type { Communication, CommunicationActivity, CommunicationWorkUnit } from '@cfs/contracts/communications';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { scoped, tenantCondition } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { orNotFound } from '../../http/errors.js';
import { communicationActivityEntity, communicationEntity } from './resource.js';

export const COMMUNICATION = 'The communication';
export const ACTIVITY = 'The activity';

/** The communications the scope may read, each with the tenant's name and address. */
export function selectCommunications<E extends Kysely<Database>>(executor: E, scope: TenantScope) {
  return scoped(executor, scope)
    .selectFrom('work_unit_communication as c')
    .leftJoin('tenant as t', (join) =>
      join.onRef('t.tenant_id', '=', 'c.tenant_id').on(tenantCondition('tenant', 't', scope)),
    )
    .selectAll('c')
    .select([
      't.name as tenant_name',
      't.internal_notification_email_address as tenant_internal_notification_email_address',
    ]);
}

type CommunicationRow = Awaited<ReturnType<ReturnType<typeof selectCommunications>['executeTakeFirstOrThrow']>>;

/** The communication as the API shows it (communicationEntity), with its tenant's name and address. */
export function presentCommunication(row: CommunicationRow): Communication {
  return {
    ...communicationEntity.present(row),
    tenant:
      row.tenant_name === null
        ? null
        : { name: row.tenant_name, internalNotificationEmailAddress: row.tenant_internal_notification_email_address },
  };
}

/** The work units linked to a communication that the scope may see, with their tenant's name. */
export async function findLinkedWorkUnits(
  executor: Kysely<Database>,
  scope: TenantScope,
  communicationId: string,
): Promise<CommunicationWorkUnit[]> {
  const linked = scoped(executor, scope)
    .selectFrom('work_unit_communication_work_unit')
    .select('work_unit_id')
    .where('work_unit_communication_id', '=', communicationId);
  const rows = await scoped(executor, scope)
    .selectFrom('work_unit as w')
    .leftJoin('tenant as t', (join) =>
      join.onRef('t.tenant_id', '=', 'w.tenant_id').on(tenantCondition('tenant', 't', scope)),
    )
    .select(['w.work_unit_id', 'w.title', 'w.state_id', 'w.severity_id', 'w.tenant_id', 't.name as tenant_name'])
    .where('w.work_unit_id', 'in', linked)
    .orderBy('w.work_unit_id')
    .execute();
  return rows.map((row) => ({
    workUnitId: row.work_unit_id,
    title: row.title,
    stateId: row.state_id,
    severityId: row.severity_id,
    tenantId: row.tenant_id,
    tenant: row.tenant_name === null ? null : { name: row.tenant_name },
  }));
}

/** A communication's past and next steps, oldest first (the list's default order). */
export async function findActivities(
  executor: Kysely<Database>,
  scope: TenantScope,
  communicationId: string,
): Promise<CommunicationActivity[]> {
  const rows = await scoped(executor, scope)
    .selectFrom('work_unit_communication_activity')
    .selectAll()
    .where('work_unit_communication_id', '=', communicationId)
    .orderBy('created')
    .orderBy('work_unit_communication_activity_id')
    .execute();
  return rows.map(communicationActivityEntity.present);
}

/**
 * One communication with its tenant, its linked work units (each with its tenant) and its
 * activities: GET v1/workunitcommunications/{id}, and what the internal and external reports are
 * made from. 404 "The communication was not found." outside the scope.
 */
export async function findCommunication(
  executor: Kysely<Database>,
  scope: TenantScope,
  id: string,
): Promise<Communication> {
  const row = orNotFound(
    await selectCommunications(executor, scope).where('c.work_unit_communication_id', '=', id).executeTakeFirst(),
    COMMUNICATION,
  );
  const [workUnits, workUnitCommunicationActivities] = await Promise.all([
    findLinkedWorkUnits(executor, scope, id),
    findActivities(executor, scope, id),
  ]);
  return { ...presentCommunication(row), workUnits, workUnitCommunicationActivities };
}
