import type { ActivityType, CommunicationStatus } from '@cfs/contracts/communications';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';

/** Everything the internal report shows of one communication. */
export interface InternalReport {
  workUnitCommunicationId: string;
  publicWorkUnitCommunicationId: number;
  tenantId: string;
  tenantName: string;
  internalAddress: string | null;
  title: string;
  status: CommunicationStatus;
  serviceManager: string;
  details: string | null;
  customerAssistanceRequired: boolean;
  rootCause: string | null;
  eventStarted: Date | null;
  eventEngaged: Date | null;
  eventMitigated: Date | null;
  eventResolved: Date | null;
  nextUpdate: Date | null;
  nextInternalUpdate: Date | null;
  maximumImpact: string | null;
  currentImpact: string | null;
  impactedServices: string | null;
  internalBridge: string | null;
  workUnits: { workUnitId: number; title: string; stateId: number }[];
  activities: {
    activityType: ActivityType;
    details: string;
    isCustomerFacing: boolean;
    isComplete: boolean;
    completed: Date | null;
    created: Date;
  }[];
}

const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** One communication's internal report within the scope; undefined when it is not there. */
export async function findInternalReport(
  db: Db | Tx,
  scope: TenantScope,
  workUnitCommunicationId: string,
): Promise<InternalReport | undefined> {
  const row = await scoped(db, scope)
    .selectFrom('work_unit_communication as c')
    .innerJoin('tenant as t', 't.tenant_id', 'c.tenant_id')
    .selectAll('c')
    .select(['t.name as tenant_name', 't.internal_notification_email_address'])
    .where('c.work_unit_communication_id', '=', workUnitCommunicationId)
    .executeTakeFirst();
  if (!row) return undefined;
  const [units, activities] = await Promise.all([
    scoped(db, scope)
      .selectFrom('work_unit_communication_work_unit as l')
      .innerJoin('work_unit as u', 'u.work_unit_id', 'l.work_unit_id')
      .select(['u.work_unit_id', 'u.title', 'u.state_id'])
      .where('l.work_unit_communication_id', '=', workUnitCommunicationId)
      .orderBy('u.work_unit_id')
      .execute(),
    scoped(db, scope)
      .selectFrom('work_unit_communication_activity')
      .select(['activity_type', 'details', 'is_customer_facing', 'is_complete', 'completed', 'created'])
      .where('work_unit_communication_id', '=', workUnitCommunicationId)
      // In the order the steps happened: a past step by when it was completed.
      .orderBy((eb) => eb.fn.coalesce('completed', 'created'))
      .orderBy('created')
      .orderBy('work_unit_communication_activity_id')
      .execute(),
  ]);
  return {
    workUnitCommunicationId: row.work_unit_communication_id,
    publicWorkUnitCommunicationId: Number(row.public_work_unit_communication_id),
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    internalAddress: row.internal_notification_email_address?.trim() || null,
    title: row.title,
    status: row.status as CommunicationStatus,
    serviceManager: row.service_manager,
    details: row.details,
    customerAssistanceRequired: row.customer_assistance_required,
    rootCause: row.root_cause,
    eventStarted: asDate(row.event_started),
    eventEngaged: asDate(row.event_engaged),
    eventMitigated: asDate(row.event_mitigated),
    eventResolved: asDate(row.event_resolved),
    nextUpdate: asDate(row.next_update),
    nextInternalUpdate: asDate(row.next_internal_update),
    maximumImpact: row.maximum_impact,
    currentImpact: row.current_impact,
    impactedServices: row.impacted_services,
    internalBridge: row.internal_bridge,
    workUnits: units.map((unit) => ({
      workUnitId: Number(unit.work_unit_id),
      title: unit.title,
      stateId: unit.state_id,
    })),
    activities: activities.map((activity) => ({
      activityType: activity.activity_type as ActivityType,
      details: activity.details,
      isCustomerFacing: activity.is_customer_facing,
      isComplete: activity.is_complete,
      completed: asDate(activity.completed),
      created: new Date(activity.created),
    })),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * The report's date format (spec 001 §9 'D/MMM/YYYY HH:mm z') in UTC: an email is read in many
 * time zones, so it names one; "23/Nov/2026 05:07 UTC". Empty for no date.
 */
export function formatReportDate(date: Date | null): string {
  if (!date) return '';
  return `${date.getUTCDate()}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()} ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}

/** "WUCOMM #42": how staff name a communication (spec 001 §2). */
export const communicationName = (report: Pick<InternalReport, 'publicWorkUnitCommunicationId'>): string =>
  `WUCOMM #${report.publicWorkUnitCommunicationId}`;

/** The communication in the portal: its grid with the drawer open (spec 001 §2, `?publicWuCommId=`). */
export const communicationLink = (
  publicUrl: string,
  report: Pick<InternalReport, 'tenantId' | 'publicWorkUnitCommunicationId'>,
): string =>
  `${publicUrl}/${report.tenantId}/workunitcommunications?publicWuCommId=${report.publicWorkUnitCommunicationId}`;
