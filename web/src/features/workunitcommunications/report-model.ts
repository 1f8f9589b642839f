import { ACTIVITY_TYPE_LABELS, COMMUNICATION_STATUS_LABELS, type ActivityType } from '@cfs/contracts/communications';
import { formatDateTime } from '../../lib/dates';
import type { Communication, CommunicationActivity, PublicReport } from './api';

/**
 * What a report shows (spec 001 §2 "the report dialogs show a data table"): labelled values and
 * the activities, dates in the report format 'D/MMM/YYYY HH:mm z' (spec 001 §9). The external
 * report is what a customer may read: no service manager, engagement time, internal bridge or
 * internal update, and only customer-facing activities; the internal one shows everything.
 * Pure, so what each audience sees is unit-tested.
 */
export interface ReportRow {
  label: string;
  value: string;
}

export interface ReportActivity {
  step: string;
  details: string;
  /** Shown in the internal report only. */
  customerFacing?: string;
  completed: string;
  created: string;
}

export interface ReportModel {
  heading: string;
  rows: ReportRow[];
  activities: ReportActivity[];
  /** Whether the activities table has the Customer Facing column. */
  internal: boolean;
}

type ReportActivitySource = Pick<CommunicationActivity, 'activityType' | 'details' | 'completed' | 'created'> & {
  isCustomerFacing?: boolean;
};

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const text = (value: string | null | undefined) => value ?? '';

function activityOf(activity: ReportActivitySource, internal: boolean, timeZone?: string): ReportActivity {
  return {
    step: ACTIVITY_TYPE_LABELS[activity.activityType as ActivityType] ?? 'unknown',
    details: activity.details,
    ...(internal ? { customerFacing: yesNo(activity.isCustomerFacing ?? false) } : {}),
    completed: formatDateTime(activity.completed, timeZone),
    created: formatDateTime(activity.created, timeZone),
  };
}

/** Past steps first, then next steps, each oldest first. */
function ordered<T extends ReportActivitySource>(activities: readonly T[]): T[] {
  const rank = (activity: T) => (activity.activityType === 'ResolutionActivity' ? 0 : 1);
  return [...activities].sort((a, b) => rank(a) - rank(b) || a.created.localeCompare(b.created));
}

/**
 * What a customer may read of a communication: the fields of the published report, with the
 * customer-facing activities only. The staff's External Report is drawn from it, so it shows
 * exactly what the published link shows.
 */
function customerView(communication: Communication, activities: readonly CommunicationActivity[]): PublicReport {
  return {
    publicWorkUnitCommunicationId: communication.publicWorkUnitCommunicationId,
    title: communication.title,
    tenantName: text(communication.tenant?.name),
    status: communication.status,
    details: communication.details,
    customerAssistanceRequired: communication.customerAssistanceRequired,
    rootCause: communication.rootCause,
    eventStarted: communication.eventStarted,
    eventMitigated: communication.eventMitigated,
    eventResolved: communication.eventResolved,
    nextUpdate: communication.nextUpdate,
    currentImpact: communication.currentImpact,
    maximumImpact: communication.maximumImpact,
    impactedServices: communication.impactedServices,
    modified: communication.modified,
    activities: activities
      .filter((activity) => activity.isCustomerFacing)
      .map(({ activityType, details, isComplete, completed, created }) => ({
        activityType,
        details,
        isComplete,
        completed,
        created,
      })),
  };
}

export function externalReport(
  communication: Communication,
  activities: readonly CommunicationActivity[],
  timeZone?: string,
): ReportModel {
  return publishedReport(customerView(communication, activities), timeZone);
}

export function internalReport(
  communication: Communication,
  activities: readonly CommunicationActivity[],
  timeZone?: string,
): ReportModel {
  const linked = (communication.workUnits ?? []).map((unit) => `#${unit.workUnitId} ${unit.title}`).join('; ');
  return {
    heading: `WUCOMM #${communication.publicWorkUnitCommunicationId}: ${communication.title}`,
    internal: true,
    rows: [
      { label: 'Title', value: communication.title },
      { label: 'Tenant', value: text(communication.tenant?.name) },
      { label: 'Status', value: COMMUNICATION_STATUS_LABELS[communication.status] },
      { label: 'Service Manager', value: communication.serviceManager },
      { label: 'Details', value: text(communication.details) },
      { label: 'Customer Assistance Required', value: yesNo(communication.customerAssistanceRequired) },
      { label: 'Current Impact', value: text(communication.currentImpact) },
      { label: 'Maximum Impact', value: text(communication.maximumImpact) },
      { label: 'Impacted Services', value: text(communication.impactedServices) },
      { label: 'Event Started', value: formatDateTime(communication.eventStarted, timeZone) },
      { label: 'Event Engaged', value: formatDateTime(communication.eventEngaged, timeZone) },
      { label: 'Event Mitigated', value: formatDateTime(communication.eventMitigated, timeZone) },
      { label: 'Event Resolved', value: formatDateTime(communication.eventResolved, timeZone) },
      { label: 'Root Cause', value: text(communication.rootCause) },
      { label: 'Next Update', value: formatDateTime(communication.nextUpdate, timeZone) },
      { label: 'Next Internal Update', value: formatDateTime(communication.nextInternalUpdate, timeZone) },
      { label: 'Internal Bridge', value: text(communication.internalBridge) },
      { label: 'Linked Work Units', value: linked },
      { label: 'Last Updated', value: formatDateTime(communication.modified, timeZone) },
    ],
    activities: ordered(activities).map((activity) => activityOf(activity, true, timeZone)),
  };
}

/** The published report as a signed-out customer reads it (already customer-facing only). */
export function publishedReport(report: PublicReport, timeZone?: string): ReportModel {
  return {
    heading: `WUCOMM #${report.publicWorkUnitCommunicationId}: ${report.title}`,
    internal: false,
    rows: [
      { label: 'Title', value: report.title },
      { label: 'Tenant', value: report.tenantName },
      { label: 'Status', value: COMMUNICATION_STATUS_LABELS[report.status] },
      { label: 'Details', value: text(report.details) },
      { label: 'Customer Assistance Required', value: yesNo(report.customerAssistanceRequired) },
      { label: 'Current Impact', value: text(report.currentImpact) },
      { label: 'Maximum Impact', value: text(report.maximumImpact) },
      { label: 'Impacted Services', value: text(report.impactedServices) },
      { label: 'Event Started', value: formatDateTime(report.eventStarted, timeZone) },
      { label: 'Event Mitigated', value: formatDateTime(report.eventMitigated, timeZone) },
      { label: 'Event Resolved', value: formatDateTime(report.eventResolved, timeZone) },
      { label: 'Root Cause', value: text(report.rootCause) },
      { label: 'Next Update', value: formatDateTime(report.nextUpdate, timeZone) },
      { label: 'Last Updated', value: formatDateTime(report.modified, timeZone) },
    ],
    activities: ordered(report.activities).map((activity) => activityOf(activity, false, timeZone)),
  };
}
