import { sql, type Kysely } from 'kysely';
import type {
  Communication,
  CommunicationActivity,
  CommunicationStatus,
  CommunicationWorkUnit,
  ActivityType,
} from '@cfs/contracts/communications';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { scoped, tenantCondition } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { orNotFound } from '../../http/errors.js';
import { externalReportPathSql, overdueSql } from './resource.js';

export const COMMUNICATION = 'The communication';
export const ACTIVITY = 'The activity';

const iso = (value: Date | string): string => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null): string | null => (value === null ? null : iso(value));

/**
 * The communications the scope may read, each with the tenant's name and address and the three
 * values computed in SQL as the list computes them (resource.ts): overdue, internally overdue,
 * and the published report's path.
 */
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
      overdueSql(sql.ref('c.status'), sql.ref('c.next_update')).$castTo<boolean>().as('is_overdue'),
      overdueSql(sql.ref('c.status'), sql.ref('c.next_internal_update')).$castTo<boolean>().as('is_internal_overdue'),
      externalReportPathSql(sql.ref('c.external_report_token')).$castTo<string | null>().as('external_report_path'),
    ]);
}

export type CommunicationRow = Awaited<ReturnType<ReturnType<typeof selectCommunications>['executeTakeFirstOrThrow']>>;

/** The communication as the API shows it: named fields only (no notification bookkeeping, no report token). */
export function presentCommunication(row: CommunicationRow): Communication {
  return {
    workUnitCommunicationId: row.work_unit_communication_id,
    publicWorkUnitCommunicationId: row.public_work_unit_communication_id,
    title: row.title,
    tenantId: row.tenant_id,
    tenant:
      row.tenant_name === null
        ? null
        : { name: row.tenant_name, internalNotificationEmailAddress: row.tenant_internal_notification_email_address },
    serviceManager: row.service_manager,
    status: row.status as CommunicationStatus,
    details: row.details,
    customerAssistanceRequired: row.customer_assistance_required,
    rootCause: row.root_cause,
    eventStarted: isoOrNull(row.event_started),
    eventEngaged: isoOrNull(row.event_engaged),
    eventMitigated: isoOrNull(row.event_mitigated),
    eventResolved: isoOrNull(row.event_resolved),
    nextUpdate: isoOrNull(row.next_update),
    nextInternalUpdate: isoOrNull(row.next_internal_update),
    maximumImpact: row.maximum_impact,
    currentImpact: row.current_impact,
    impactedServices: row.impacted_services,
    internalBridge: row.internal_bridge,
    isOverdue: row.is_overdue,
    isInternalOverdue: row.is_internal_overdue,
    externalReportPath: row.external_report_path,
    changeWorkUnitId: row.change_work_unit_id,
    created: iso(row.created),
    createdBy: row.created_by,
    modified: iso(row.modified),
    userChanged: isoOrNull(row.user_changed),
    userChangedBy: row.user_changed_by,
  };
}

type ActivityRow = {
  work_unit_communication_activity_id: string;
  work_unit_communication_id: string;
  activity_type: string;
  details: string;
  is_customer_facing: boolean;
  is_complete: boolean;
  completed: Date | string | null;
  created: Date | string;
  created_by: string | null;
};

export function presentActivity(row: ActivityRow): CommunicationActivity {
  return {
    workUnitCommunicationActivityId: row.work_unit_communication_activity_id,
    workUnitCommunicationId: row.work_unit_communication_id,
    activityType: row.activity_type as ActivityType,
    details: row.details,
    isCustomerFacing: row.is_customer_facing,
    isComplete: row.is_complete,
    completed: isoOrNull(row.completed),
    created: iso(row.created),
    createdBy: row.created_by,
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
  return rows.map(presentActivity);
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
