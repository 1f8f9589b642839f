import type { Selectable } from 'kysely';
import { LEFT_OPERANDS, MONITORING_LIMITS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { tenantCondition, type Condition, type TimeConditions } from '@cfs/contracts/rules';
import { HISTORY_TYPES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { recordAudit, type AuditActor } from '../../audit/audit.js';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import type { DB } from '../../db/schema.js';
import { forgetRules } from '../rules/rule-cache.js';
import { systemWorkUnitWriter } from '../work-units/system-writer.js';
import { maintenanceCommunicationWriter, maintenanceRuleWriter } from './owner-ports.js';

/**
 * Maintenance as one object (spec 001 §3 change request, §4 approval; spec 002 §3 Rule, RuleMatch):
 * a Change Request with Planned Outage, approved by every approver it names, opens a maintenance
 * window for its planned start–finish over the blocks and devices it names in its relations. The
 * window is an ordinary Maintenance rule (visible and editable in Rules) tied to the change by
 * `rule.change_work_unit_id`, and a draft communication announces it (once per change).
 *
 * The change is the source of truth for the rule's window (time limitations) and subjects
 * (conditions): whenever they differ from what the change says, the rule follows the change. Its
 * name, description, actions, lifetime and whether it is enabled are left as staff set them.
 *
 * - Canceled or declined: the rule is removed and the draft communication, if still open, becomes
 *   Cancelled (the announcement would be wrong; the record stays).
 * - No longer qualifying for another reason (Planned Outage unticked, an approval reset by a new
 *   approver, the subjects removed): the rule is removed; the draft is left for staff to decide.
 * - Planned Outage, approved, but naming no block or device: nothing opens, and a note says why.
 *
 * Every outcome is reconciled from the change as it stands, under a lock on its row, so running it
 * again, late or on two workers at once writes the same one rule and one communication.
 */

/** Who the engine's records name. */
export const MAINTENANCE_ACTOR = 'Maintenance';
const AUDIT_ACTOR: AuditActor = { userId: null, userName: MAINTENANCE_ACTOR };

/**
 * Relation types that name a subject of the window (case-insensitive): a block is an entity, so
 * its id is what packets carry as entityId; a device's id is what its entities' packets name as
 * their device.
 */
export const SUBJECT_RELATION_TYPES = { block: ['block', 'entity'], device: ['device'] } as const;

/** A rule holds at most this many conditions; one is the tenant's. */
const MAX_SUBJECTS = MONITORING_LIMITS.maxConditions - 1;
/** A window match lives the rules' minimum lifetime (spec 002 §9); maintenance rules do not act on their own matches. */
const LIFETIME_SECONDS = MONITORING_LIMITS.minimumRuleLifetimeSeconds;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const EMPTY_BEFORE = Date.parse(MONITORING_LIMITS.emptyDateThreshold);

type ChangeRow = Pick<
  Selectable<DB['work_unit']>,
  | 'work_unit_id'
  | 'tenant_id'
  | 'title'
  | 'work_unit_type_id'
  | 'state_id'
  | 'planned_outage'
  | 'planned_start_time'
  | 'planned_finish_time'
  | 'approver1'
  | 'approver2'
  | 'approved1_by'
  | 'approved2_by'
  | 'declined1_by'
  | 'declined2_by'
  | 'implementer'
  | 'created_by'
>;

export interface Subject {
  kind: 'block' | 'device';
  id: string;
}

/** What the change asks for as it stands. */
export type Decision =
  | { kind: 'open'; start: Date; finish: Date; subjects: Subject[]; leftOut: number }
  | { kind: 'close'; reason: string; cancelCommunication: boolean; noteEvenWithoutRule: boolean };

const approved = (approver: string | null, by: string | null) => !approver || !!by;

/** The subjects a change names: its Block/Entity and Device relations whose ids are entity or device ids, once each, lower case. */
export function subjectsOf(relations: readonly { reference_type: string; reference_id: string }[]): Subject[] {
  const seen = new Map<string, Subject>();
  for (const relation of relations) {
    const type = relation.reference_type.trim().toLowerCase();
    const kind = (SUBJECT_RELATION_TYPES.block as readonly string[]).includes(type)
      ? 'block'
      : (SUBJECT_RELATION_TYPES.device as readonly string[]).includes(type)
        ? 'device'
        : undefined;
    const id = relation.reference_id.trim().toLowerCase();
    if (kind && UUID.test(id)) seen.set(`${kind}:${id}`, { kind, id });
  }
  return [...seen.values()];
}

export function decide(unit: ChangeRow, subjects: readonly Subject[]): Decision {
  if (unit.work_unit_type_id !== WORK_UNIT_TYPES.ChangeRequest)
    return {
      kind: 'close',
      reason: 'the work unit is no longer a Change Request',
      cancelCommunication: false,
      noteEvenWithoutRule: false,
    };
  if (unit.declined1_by || unit.declined2_by)
    return { kind: 'close', reason: 'the change was declined', cancelCommunication: true, noteEvenWithoutRule: false };
  if (unit.state_id === WORK_UNIT_STATES.Canceled)
    return { kind: 'close', reason: 'the change was canceled', cancelCommunication: true, noteEvenWithoutRule: false };
  if (!unit.planned_outage)
    return {
      kind: 'close',
      reason: 'the change no longer has a planned outage',
      cancelCommunication: false,
      noteEvenWithoutRule: false,
    };
  // Approver 1 is required of every change request (spec 001 §5); approver 2 only when named.
  const allApproved =
    !!unit.approver1 && approved(unit.approver1, unit.approved1_by) && approved(unit.approver2, unit.approved2_by);
  if (!allApproved)
    return {
      kind: 'close',
      reason: 'the change is no longer approved by its approvers',
      cancelCommunication: false,
      noteEvenWithoutRule: false,
    };
  // The engine reads range dates before the empty-date threshold (spec 002 §9) as no bound at all,
  // which would leave the window open for ever: such planned times count as missing.
  const dated = (at: Date | null): at is Date => at !== null && at.getTime() >= EMPTY_BEFORE;
  if (
    !dated(unit.planned_start_time) ||
    !dated(unit.planned_finish_time) ||
    unit.planned_finish_time < unit.planned_start_time
  ) {
    return {
      kind: 'close',
      reason:
        'the change has no usable planned start and finish time (both from 1 Jan 2022 on, the finish not before the start)',
      cancelCommunication: false,
      noteEvenWithoutRule: true,
    };
  }
  if (subjects.length === 0) {
    return {
      kind: 'close',
      reason:
        'the change names no block or device in its relations (relation type Block or Device with the block or device id)',
      cancelCommunication: false,
      noteEvenWithoutRule: true,
    };
  }
  return {
    kind: 'open',
    start: unit.planned_start_time,
    finish: unit.planned_finish_time,
    subjects: subjects.slice(0, MAX_SUBJECTS),
    leftOut: Math.max(0, subjects.length - MAX_SUBJECTS),
  };
}

/**
 * The rule's time limitations: exactly planned start to planned finish, an absolute range of
 * instants, on every day of the week (the editor asks a Maintenance rule for at least one day).
 * The range does not depend on the zone; the editor's default zone is named so that the editor
 * offers it among its choices.
 */
export function windowTime(start: Date, finish: Date): TimeConditions {
  return {
    TimeZoneId: MONITORING_LIMITS.defaultTimeZone,
    StartRange: start.toISOString(),
    EndRange: finish.toISOString(),
    DaysOfWeek: EVERY_DAY,
    DaysOfMonth: null,
    DailyStartTime: null,
    DailyEndTime: null,
  };
}

/** The rule's conditions: the tenant's fixed first condition (spec 002 §5), then any of the subjects. */
export function windowConditions(tenantId: string, subjects: readonly Subject[]): Condition[] {
  return [
    tenantCondition(tenantId),
    ...subjects.map((subject, index): Condition => ({
      Type: index === 0 ? 0 : 1,
      LeftOperand: subject.kind === 'block' ? LEFT_OPERANDS.Entity.id : LEFT_OPERANDS.Device.id,
      LeftOperandFieldName: null,
      Operator: OPERATORS.Equals,
      RightOperand: subject.id,
      OccurrencePattern: null,
    })),
  ];
}

export const windowRuleName = (unit: Pick<ChangeRow, 'title' | 'work_unit_id'>): string => {
  const suffix = ` (#${unit.work_unit_id})`;
  return `Maintenance: ${unit.title.slice(0, 200 - 'Maintenance: '.length - suffix.length)}${suffix}`;
};

/** JSON with its object keys sorted and range instants as ISO text, to compare what is stored (jsonb reorders keys) with what is wanted. */
function canonical(value: unknown): string {
  const walk = (item: unknown, key?: string): unknown => {
    if ((key === 'StartRange' || key === 'EndRange') && typeof item === 'string' && !Number.isNaN(Date.parse(item)))
      return new Date(item).toISOString();
    if (Array.isArray(item)) return item.map((entry) => walk(entry));
    if (item !== null && typeof item === 'object')
      return Object.fromEntries(
        Object.keys(item)
          .sort()
          .map((name) => [name, walk((item as Record<string, unknown>)[name], name)]),
      );
    return item;
  };
  return JSON.stringify(walk(value));
}

const formatInstant = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The blocks' and devices' names in the change's tenant, for the texts people read. */
async function subjectNames(tx: ScopedDb<Tx>, subjects: readonly Subject[]): Promise<string[]> {
  const blockIds = subjects.filter((subject) => subject.kind === 'block').map((subject) => subject.id);
  const deviceIds = subjects.filter((subject) => subject.kind === 'device').map((subject) => subject.id);
  const blocks = blockIds.length
    ? await tx.selectFrom('block').select(['block_id as id', 'name']).where('block_id', 'in', blockIds).execute()
    : [];
  const devices = deviceIds.length
    ? await tx.selectFrom('device').select(['device_id as id', 'name']).where('device_id', 'in', deviceIds).execute()
    : [];
  const names = new Map([...blocks, ...devices].map((row) => [row.id.toLowerCase(), row.name]));
  return subjects.map(
    (subject) => `${subject.kind === 'block' ? 'block' : 'device'} ${names.get(subject.id) ?? subject.id}`,
  );
}

/** A note on the change, unless the engine's last note on it says the same (a retried or repeated run writes nothing new). */
async function note(tx: ScopedDb<Tx>, unit: ChangeRow, detail: string): Promise<void> {
  const last = await tx
    .selectFrom('work_unit_note')
    .select('detail')
    .where('work_unit_id', '=', unit.work_unit_id)
    .where('created_by', '=', MAINTENANCE_ACTOR)
    .orderBy('work_unit_note_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last?.detail === detail) return;
  await systemWorkUnitWriter().recordNote(tx.executor, {
    tenantId: unit.tenant_id,
    workUnitId: unit.work_unit_id,
    detail,
    historyType: HISTORY_TYPES.General,
    createdBy: MAINTENANCE_ACTOR,
  });
}

export type Outcome = 'opened' | 'updated' | 'unchanged' | 'removed' | 'none';

async function closeWindow(
  trx: Tx,
  tx: ScopedDb<Tx>,
  unit: ChangeRow,
  decision: Extract<Decision, { kind: 'close' }>,
): Promise<Outcome> {
  const removed = await maintenanceRuleWriter().remove(trx, unit.work_unit_id);
  if (removed) {
    await recordAudit(trx, AUDIT_ACTOR, {
      entityType: 'rule',
      entityId: removed.rule_id,
      tenantId: removed.tenant_id,
      action: 'delete',
      changes: { name: removed.name, reason: decision.reason },
    });
    await note(tx, unit, `Maintenance window removed: ${decision.reason}. Rule "${removed.name}" was deleted.`);
  } else if (decision.noteEvenWithoutRule) {
    await note(tx, unit, `No maintenance window was opened for this planned outage: ${decision.reason}.`);
  }
  if (decision.cancelCommunication) {
    await maintenanceCommunicationWriter().cancel(trx, unit.work_unit_id, MAINTENANCE_ACTOR);
  }
  return removed ? 'removed' : 'none';
}

async function openWindow(
  trx: Tx,
  tx: ScopedDb<Tx>,
  unit: ChangeRow,
  decision: Extract<Decision, { kind: 'open' }>,
): Promise<Outcome> {
  const time = windowTime(decision.start, decision.finish);
  const conditions = windowConditions(unit.tenant_id, decision.subjects);
  const name = windowRuleName(unit);
  const names = await subjectNames(tx, decision.subjects);
  const window = `${formatInstant(decision.start)} to ${formatInstant(decision.finish)}`;
  const over = `${names.join(', ')}${decision.leftOut > 0 ? ` (${decision.leftOut} more named subjects are beyond what one rule holds and are not covered)` : ''}`;
  const existing = await tx
    .selectFrom('rule')
    .selectAll()
    .where('change_work_unit_id', '=', unit.work_unit_id)
    .forUpdate()
    .executeTakeFirst();
  let outcome: Outcome;
  if (!existing) {
    const ruleId = await maintenanceRuleWriter().create(trx, {
      tenant_id: unit.tenant_id,
      name,
      description: `Maintenance window of change request #${unit.work_unit_id}. Its window and subjects follow the change.`,
      rule_type_id: RULE_TYPES.Maintenance,
      enabled: true,
      match_lifetime_seconds: LIFETIME_SECONDS,
      use_sliding_expiration: false,
      time_conditions: JSON.stringify(time),
      conditions: JSON.stringify(conditions),
      match_actions: '[]',
      expiration_actions: '[]',
      change_work_unit_id: unit.work_unit_id,
      created_by: MAINTENANCE_ACTOR,
      modified_by: MAINTENANCE_ACTOR,
    });
    await recordAudit(trx, AUDIT_ACTOR, {
      entityType: 'rule',
      entityId: ruleId,
      tenantId: unit.tenant_id,
      action: 'create',
      changes: { name, changeWorkUnitId: unit.work_unit_id, timeConditions: time, conditions },
    });
    await note(tx, unit, `Maintenance window opened from ${window} over ${over} (rule "${name}").`);
    outcome = 'opened';
  } else if (
    canonical(existing.time_conditions) !== canonical(time) ||
    canonical(existing.conditions) !== canonical(conditions) ||
    existing.tenant_id !== unit.tenant_id
  ) {
    await maintenanceRuleWriter().update(trx, existing.rule_id, {
      tenant_id: unit.tenant_id,
      subscription_id: existing.tenant_id === unit.tenant_id ? existing.subscription_id : null,
      time_conditions: JSON.stringify(time),
      conditions: JSON.stringify(conditions),
      modified: new Date(),
      modified_by: MAINTENANCE_ACTOR,
    });
    await recordAudit(trx, AUDIT_ACTOR, {
      entityType: 'rule',
      entityId: existing.rule_id,
      tenantId: unit.tenant_id,
      action: 'update',
      changes: {
        timeConditions: { from: existing.time_conditions, to: time },
        conditions: { from: existing.conditions, to: conditions },
        ...(existing.tenant_id === unit.tenant_id
          ? {}
          : { tenantId: { from: existing.tenant_id, to: unit.tenant_id } }),
      },
    });
    await note(tx, unit, `Maintenance window updated: from ${window} over ${over} (rule "${existing.name}").`);
    outcome = 'updated';
  } else {
    outcome = 'unchanged';
  }
  await draftCommunication(tx, unit, decision, window, over);
  return outcome;
}

/**
 * The communication announcing the window: drafted once per change (Investigating, the change's
 * tenant, its implementer or else its creator as service manager, linked to the change). Until a
 * person edits it, the draft follows the change's window.
 */
async function draftCommunication(
  tx: ScopedDb<Tx>,
  unit: ChangeRow,
  decision: Extract<Decision, { kind: 'open' }>,
  window: string,
  over: string,
): Promise<void> {
  const title = `Planned maintenance: ${unit.title}`.slice(0, 200);
  const details =
    `Planned maintenance for change request #${unit.work_unit_id} from ${window}. Affected: ${over}. Alerts from these subjects are suppressed during the window.`.slice(
      0,
      4000,
    );
  await maintenanceCommunicationWriter().draft(
    tx.executor,
    {
      tenantId: unit.tenant_id,
      changeWorkUnitId: unit.work_unit_id,
      title,
      serviceManager: (unit.implementer || unit.created_by || MAINTENANCE_ACTOR).slice(0, 200),
      details,
      start: decision.start,
    },
    MAINTENANCE_ACTOR,
  );
}

/**
 * Brings the maintenance window of one work unit in line with the unit as it stands, in one
 * transaction under a lock on the unit's row. Returns what it did.
 */
export async function reconcileChangeWindow(db: Db, workUnitId: number): Promise<Outcome> {
  const outcome = await db.transaction().execute(async (trx) => {
    // The engine acts for every tenant (it answers nobody): each write names the change's tenant.
    const tx = scoped(trx, ALL_TENANTS);
    const unit = await tx
      .selectFrom('work_unit')
      .select([
        'work_unit_id',
        'tenant_id',
        'title',
        'work_unit_type_id',
        'state_id',
        'planned_outage',
        'planned_start_time',
        'planned_finish_time',
        'approver1',
        'approver2',
        'approved1_by',
        'approved2_by',
        'declined1_by',
        'declined2_by',
        'implementer',
        'created_by',
      ])
      .where('work_unit_id', '=', workUnitId)
      .forUpdate()
      .executeTakeFirst();
    // A deleted unit took its rule with it (ON DELETE CASCADE).
    if (!unit) return 'none' as const;
    // work_unit_relation is a child of the unit just read through the scope.
    const relations = await trx
      .selectFrom('work_unit_relation')
      .select(['reference_type', 'reference_id'])
      .where('work_unit_id', '=', workUnitId)
      .execute();
    const decision = decide(unit, subjectsOf(relations));
    return decision.kind === 'open' ? openWindow(trx, tx, unit, decision) : closeWindow(trx, tx, unit, decision);
  });
  // A change of the window is in force on this instance at once, on the others within a second.
  if (outcome === 'opened' || outcome === 'updated' || outcome === 'removed') forgetRules(db);
  return outcome;
}
