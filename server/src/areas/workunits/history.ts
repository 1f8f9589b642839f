import {
  EVENT_FOR_STATE,
  HISTORY_TYPES,
  SEVERITY_LABELS,
  STATE_LABELS,
  stateChangeDetail,
  WORK_UNIT_EVENT_TYPES,
  type WorkUnitFields,
} from '@cfs/contracts/work-units';
import type { Tx } from '../../db/database.js';
import type { ScopedDb } from '../../db/scoped.js';

const LONG_TEXT = new Set([
  'description',
  'resolution',
  'implementationPlan',
  'rollbackPlan',
  'affectedResources',
  'securityConsiderations',
  'userImpact',
  'costImpact',
  'expectedCFSAlerts',
  'properties',
  'decision1Notes',
  'decision2Notes',
]);
const LABELS: Record<string, string> = {
  severityId: 'Severity',
  workUnitTypeId: 'Work Unit Type',
  workUnitCategoryId: 'Category',
  workUnitSubcategoryId: 'Subcategory',
  tenantId: 'Tenant',
  expectedCFSAlerts: 'Expected CFS Alerts',
  referenceUrl: 'Reference URL',
  referenceId: 'Reference ID',
};
const label = (field: string) =>
  LABELS[field] ??
  field
    .replace(/([A-Z]|\d+)/g, ' $1')
    .replace(/^./, (c) => c.toUpperCase())
    .trim();

function show(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (field === 'severityId') return SEVERITY_LABELS[Number(value)] ?? String(value);
  if (field === 'stateId') return STATE_LABELS[Number(value)] ?? String(value);
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** One line per changed field, as the notes list shows system records. */
export function describeChanges(before: WorkUnitFields, after: WorkUnitFields): { field: string; detail: string }[] {
  const lines: { field: string; detail: string }[] = [];
  for (const [field, to] of Object.entries(after)) {
    if (field === 'stateId' || field === 'relations') continue;
    const from = (before as Record<string, unknown>)[field];
    if (JSON.stringify(from ?? null) === JSON.stringify(to ?? null)) continue;
    lines.push({
      field,
      detail: LONG_TEXT.has(field)
        ? `${label(field)} changed.`
        : `${label(field)} changed from ${show(field, from)} to ${show(field, to)}.`,
    });
  }
  const relationKey = (r: { referenceType: string; referenceId: string }) => `${r.referenceType}:${r.referenceId}`;
  const beforeRelations = new Set((before.relations ?? []).map(relationKey));
  const afterRelations = new Set((after.relations ?? []).map(relationKey));
  for (const key of afterRelations)
    if (!beforeRelations.has(key))
      lines.push({ field: 'relations', detail: `Related ${key.replace(':', ' ')} added.` });
  for (const key of beforeRelations)
    if (!afterRelations.has(key))
      lines.push({ field: 'relations', detail: `Related ${key.replace(':', ' ')} removed.` });
  return lines;
}

/**
 * The server's own records of a change (spec 001: "the server writes history records for field
 * changes and state changes itself") and the durable events the protocol engine consumes.
 */
export async function recordChange(
  tx: ScopedDb<Tx>,
  unit: { workUnitId: number; tenantId: string },
  actor: string,
  before: WorkUnitFields | null,
  after: WorkUnitFields,
): Promise<void> {
  const notes: { detail: string; history_type: number }[] = [];
  const events: { event_type_id: number; from_state_id: number | null; to_state_id: number | null }[] = [];
  if (!before) {
    notes.push({
      detail: `Work unit created as ${STATE_LABELS[after.stateId]}.`,
      history_type: HISTORY_TYPES.WorkUnitEvent,
    });
    events.push({ event_type_id: WORK_UNIT_EVENT_TYPES.OnNew, from_state_id: null, to_state_id: after.stateId });
  } else {
    for (const change of describeChanges(before, after))
      notes.push({ detail: change.detail, history_type: HISTORY_TYPES.FieldChange });
    const stateChanged = before.stateId !== after.stateId;
    if (stateChanged) {
      notes.push({
        detail: stateChangeDetail(before.stateId, after.stateId),
        history_type: HISTORY_TYPES.WorkUnitStateChange,
      });
      const event = EVENT_FOR_STATE[after.stateId];
      if (event !== undefined)
        events.push({ event_type_id: event, from_state_id: before.stateId, to_state_id: after.stateId });
    }
    if (notes.length > 0)
      events.push({
        event_type_id: WORK_UNIT_EVENT_TYPES.OnChange,
        from_state_id: before.stateId,
        to_state_id: after.stateId,
      });
  }
  if (notes.length) {
    await tx
      .insertInto(
        'work_unit_note',
        notes.map((note) => ({ ...note, work_unit_id: unit.workUnitId, tenant_id: unit.tenantId, created_by: actor })),
      )
      .execute();
  }
  if (events.length) {
    await tx
      .insertInto(
        'work_unit_event',
        events.map((event) => ({
          ...event,
          work_unit_id: unit.workUnitId,
          tenant_id: unit.tenantId,
          created_by: actor,
        })),
      )
      .execute();
  }
}
