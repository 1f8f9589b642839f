import { sql, type RawBuilder } from 'kysely';
import {
  COMMUNICATION_EXPORT_MAX,
  COMMUNICATION_STATUS_LABELS,
  ACTIVITY_TYPE_LABELS,
} from '@cfs/contracts/communications';
import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

/**
 * Open (neither Resolved nor Cancelled) and the due time has passed. Written exactly as the
 * migration's partial indexes' predicates (`status NOT IN ('Resolved', 'Cancelled') AND
 * {due} IS NOT NULL`), so that `isOverdue eq true` is answered from those indexes.
 */
export function overdueSql(status: RawBuilder<unknown>, due: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(${status} NOT IN ('Resolved', 'Cancelled') AND ${due} IS NOT NULL AND ${due} < now())`;
}

/** The published external report's page, or null while it is not published. */
export function externalReportPathSql(token: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`CASE WHEN ${token} IS NULL THEN NULL ELSE '/status/' || ${token} END`;
}

/** A linked work unit as the communication shows it (`$expand=workUnits/tenant`). */
export const communicationWorkUnitResource = defineResource({
  table: 'work_unit',
  key: 'workUnitId',
  fields: {
    workUnitId: { type: 'integer' },
    title: { type: 'string' },
    stateId: { type: 'integer' },
    severityId: { type: 'integer' },
    tenantId: { type: 'guid' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['name'] },
  },
  defaultOrderBy: 'workUnitId asc',
});

/** GET v1/workunitcommunicationactivities (spec 001 §7): a communication's past and next steps, oldest first. */
export const communicationActivitiesResource = defineResource({
  table: 'work_unit_communication_activity',
  key: 'workUnitCommunicationActivityId',
  fields: {
    workUnitCommunicationActivityId: { type: 'guid' },
    workUnitCommunicationId: { type: 'guid' },
    activityType: { type: 'string', labels: ACTIVITY_TYPE_LABELS },
    details: { type: 'string' },
    isCustomerFacing: { type: 'boolean' },
    isComplete: { type: 'boolean' },
    completed: { type: 'datetime' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
  },
  defaultOrderBy: 'created asc',
});

/**
 * GET v1/workunitcommunications (spec 001 §2 Work Unit Communications, §7; 000 §7): newest first,
 * searched on title or current impact through the trigram index of the migration, filtered by
 * tenant, status and the created, next-update and resolved ranges. Export All reads up to
 * COMMUNICATION_EXPORT_MAX rows (spec 001 §9).
 */
export const communicationsResource = defineResource({
  table: 'work_unit_communication',
  key: 'workUnitCommunicationId',
  fields: {
    workUnitCommunicationId: { type: 'guid' },
    publicWorkUnitCommunicationId: { type: 'integer' },
    title: { type: 'string' },
    tenantId: { type: 'guid' },
    serviceManager: { type: 'string' },
    status: { type: 'string', labels: COMMUNICATION_STATUS_LABELS },
    details: { type: 'string' },
    customerAssistanceRequired: { type: 'boolean' },
    rootCause: { type: 'string' },
    eventStarted: { type: 'datetime' },
    eventEngaged: { type: 'datetime' },
    eventMitigated: { type: 'datetime' },
    eventResolved: { type: 'datetime' },
    nextUpdate: { type: 'datetime' },
    nextInternalUpdate: { type: 'datetime' },
    maximumImpact: { type: 'string' },
    currentImpact: { type: 'string' },
    impactedServices: { type: 'string' },
    internalBridge: { type: 'string' },
    isOverdue: { type: 'boolean', sql: (col) => overdueSql(col('status'), col('next_update')) },
    isInternalOverdue: { type: 'boolean', sql: (col) => overdueSql(col('status'), col('next_internal_update')) },
    externalReportPath: {
      type: 'string',
      sql: (col) => externalReportPathSql(col('external_report_token')),
      filterable: false,
      sortable: false,
    },
    changeWorkUnitId: { type: 'integer' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    modified: { type: 'datetime' },
    userChanged: { type: 'datetime' },
    userChangedBy: { type: 'string' },
  },
  relations: {
    tenant: {
      kind: 'one',
      resource: () => tenantReference,
      column: 'tenant_id',
      fields: ['name', 'internalNotificationEmailAddress'],
    },
    workUnits: {
      kind: 'many',
      resource: () => communicationWorkUnitResource,
      column: 'work_unit_communication_id',
      relatedColumn: 'work_unit_id',
      through: {
        table: 'work_unit_communication_work_unit',
        column: 'work_unit_communication_id',
        relatedColumn: 'work_unit_id',
      },
    },
    workUnitCommunicationActivities: {
      kind: 'many',
      resource: () => communicationActivitiesResource,
      column: 'work_unit_communication_id',
    },
  },
  defaultOrderBy: 'created desc',
  searchFields: ['title', 'currentImpact'],
  maxTop: COMMUNICATION_EXPORT_MAX,
});
