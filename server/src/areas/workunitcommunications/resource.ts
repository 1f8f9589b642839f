import { sql, type RawBuilder } from 'kysely';
import {
  ACTIVITY_TYPE_LABELS,
  COMMUNICATION_EXPORT_MAX,
  COMMUNICATION_STATUS_LABELS,
  communicationActivitySchema,
  communicationFieldsSchema,
  communicationSchema,
  isClosedCommunicationStatus,
} from '@cfs/contracts/communications';
import { defineEntity } from '../../odata/entity.js';
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

/** `overdueSql` of one row, as a single item shows it. */
const isOverdue = (status: string, due: Date | null): boolean =>
  !isClosedCommunicationStatus(status) && due !== null && due.getTime() < Date.now();

/** The published external report's page, or null while it is not published. */
export function externalReportPathSql(token: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`CASE WHEN ${token} IS NULL THEN NULL ELSE '/status/' || ${token} END`;
}

/** `externalReportPathSql` of one row. */
const externalReportPath = (token: string | null): string | null => (token === null ? null : `/status/${token}`);

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

/**
 * A communication's past and next steps, described once on their contract: GET
 * v1/workunitcommunicationactivities (spec 001 §7), oldest first, and one step as the API shows it.
 * The form's values are not its columns one to one (the type follows the check box), so the
 * commands write them (`activityColumns`).
 */
export const communicationActivityEntity = defineEntity({
  table: 'work_unit_communication_activity',
  key: 'workUnitCommunicationActivityId',
  contract: communicationActivitySchema,
  checked: ['activityType'],
  fields: { activityType: { labels: ACTIVITY_TYPE_LABELS } },
  defaultOrderBy: 'created asc',
});

/**
 * A communication, described once on its contract: GET v1/workunitcommunications (spec 001 §2
 * Work Unit Communications, §7; 000 §7), newest first, searched on title or current impact through
 * the trigram index of the migration, filtered by tenant, status and the created, next-update and
 * resolved ranges; one communication; and the columns the form writes. Export All reads up to
 * COMMUNICATION_EXPORT_MAX rows (spec 001 §9). Overdue, internally overdue and the published
 * report's path are computed from the row, in SQL for the list and from the row for one item.
 */
export const communicationEntity = defineEntity({
  table: 'work_unit_communication',
  key: 'workUnitCommunicationId',
  contract: communicationSchema,
  writable: communicationFieldsSchema,
  checked: ['status'],
  fields: {
    status: { labels: COMMUNICATION_STATUS_LABELS },
    externalReportPath: { filterable: false, sortable: false },
  },
  computed: {
    isOverdue: {
      sql: (col) => overdueSql(col('status'), col('next_update')),
      value: (row) => isOverdue(row.status, row.next_update),
    },
    isInternalOverdue: {
      sql: (col) => overdueSql(col('status'), col('next_internal_update')),
      value: (row) => isOverdue(row.status, row.next_internal_update),
    },
    externalReportPath: {
      sql: (col) => externalReportPathSql(col('external_report_token')),
      value: (row) => externalReportPath(row.external_report_token),
    },
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
      resource: () => communicationActivityEntity.resource,
      column: 'work_unit_communication_id',
    },
  },
  defaultOrderBy: 'created desc',
  searchFields: ['title', 'currentImpact'],
  maxTop: COMMUNICATION_EXPORT_MAX,
});
