import type { Selectable, Updateable } from 'kysely';
import { customValueFields, type WorkUnitFields, type WorkUnitRelation } from '@cfs/contracts/work-units';
import type { DB as Database } from '../../db/schema.js';

type EditableField = Exclude<keyof WorkUnitFields, 'relations'>;
type Column = keyof Database['work_unit'] & string;

/**
 * The one map between a work unit's editable API fields and its columns: the list resource (which
 * shapes every answer, lists and single items alike), the document a PATCH applies to, and the
 * writes all read it.
 */
export const FIELD_COLUMNS: Record<EditableField, Column> = {
  title: 'title',
  description: 'description',
  resolution: 'resolution',
  severityId: 'severity_id',
  effort: 'effort',
  stateId: 'state_id',
  assignedTo: 'assigned_to',
  assignmentGroup: 'assignment_group',
  source: 'source',
  tenantId: 'tenant_id',
  workUnitTypeId: 'work_unit_type_id',
  workUnitCategoryId: 'work_unit_category_id',
  workUnitSubcategoryId: 'work_unit_subcategory_id',
  protocolId: 'protocol_id',
  referenceId: 'reference_id',
  referenceUrl: 'reference_url',
  stakeHolderFullName: 'stakeholder_full_name',
  stakeHolderPhoneNumber: 'stakeholder_phone_number',
  stakeHolderEmailAddress: 'stakeholder_email_address',
  stakeHolderExperienceScore: 'stakeholder_experience_score',
  properties: 'properties',
  plannedStartTime: 'planned_start_time',
  plannedFinishTime: 'planned_finish_time',
  requestedChangeWindow: 'requested_change_window',
  plannedOutage: 'planned_outage',
  implementer: 'implementer',
  approver1: 'approver1',
  approver2: 'approver2',
  isApproverRequired: 'is_approver_required',
  approved1By: 'approved1_by',
  approved2By: 'approved2_by',
  declined1By: 'declined1_by',
  declined2By: 'declined2_by',
  decision1Notes: 'decision1_notes',
  decision2Notes: 'decision2_notes',
  implementationPlan: 'implementation_plan',
  rollbackPlan: 'rollback_plan',
  affectedResources: 'affected_resources',
  securityConsiderations: 'security_considerations',
  userImpact: 'user_impact',
  costImpact: 'cost_impact',
  environment: 'environment',
  expectedCFSAlerts: 'expected_cfs_alerts',
  ...(Object.fromEntries(customValueFields.map((field, i) => [field, `custom_value_${i + 1}`])) as Record<
    (typeof customValueFields)[number],
    Column
  >),
};

export const EDITABLE_FIELDS = Object.keys(FIELD_COLUMNS) as EditableField[];
const DATE_FIELDS = new Set<EditableField>(['plannedStartTime', 'plannedFinishTime']);

export type WorkUnitRow = Selectable<Database['work_unit']>;

/** The editable state of a unit: what the panel edits and a PATCH's `test` operations compare. */
export function toDocument(row: WorkUnitRow, relations: WorkUnitRelation[]): WorkUnitFields {
  const document: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    const value = row[FIELD_COLUMNS[field]];
    document[field] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  document.relations = relations;
  return document as WorkUnitFields;
}

/** The columns to write for a validated document. */
export function toColumns(document: WorkUnitFields): Updateable<Database['work_unit']> {
  const columns: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    const value = document[field];
    if (value === undefined) continue;
    columns[FIELD_COLUMNS[field]] = DATE_FIELDS.has(field) && typeof value === 'string' ? new Date(value) : value;
  }
  return columns as Updateable<Database['work_unit']>;
}
