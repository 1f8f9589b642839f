import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { SEVERITIES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { systemPrincipal } from '../../auth/system-principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { ActionFailure, type ActionOutcome, type ActionRun } from '../../engines/actions/run.js';
import { createWorkUnit } from './commands.js';

/** Who a Create Work Unit run acts as, what it names, and the relation that finds its unit again. */
function runContext(run: ActionRun): {
  actor: { id: string; name: string };
  subject: string;
  why: string;
  reference: string;
} {
  const { origin } = run;
  switch (origin.kind) {
    case 'rule': {
      const subject = origin.label ? `${origin.label} (${origin.subjectId})` : origin.subjectId;
      return {
        actor: { id: origin.ruleId, name: `Rule: ${origin.ruleName}` },
        subject: `${origin.ruleName}: ${subject}`,
        why: `Rule "${origin.ruleName}" ${origin.phase === 'match' ? 'matched' : 'match closed for'} ${subject}.`,
        reference: `${origin.ruleMatchId}:${origin.phase}`,
      };
    }
    case 'protocol':
      return {
        actor: { id: origin.protocolActionId, name: `Protocol action of work unit ${origin.workUnitId}` },
        subject: `Follow-up of work unit ${origin.workUnitId}`,
        why: `Created by a protocol action of work unit ${origin.workUnitId}.`,
        reference: `${origin.protocolActionId}:${origin.workUnitId}:${origin.workUnitEventId ?? origin.workUnitEventTypeId}`,
      };
    case 'test':
      return {
        actor: { id: origin.messageId, name: `Test by ${origin.triggeredBy}` },
        subject: 'Test of the Create Work Unit action',
        why: `A test of the Create Work Unit action by ${origin.triggeredBy}.`,
        reference: origin.messageId,
      };
    case 'workUnit':
      return {
        actor: { id: String(origin.workUnitId), name: `Work unit ${origin.workUnitId}` },
        subject: `Follow-up of work unit ${origin.workUnitId}`,
        why: `Created for work unit ${origin.workUnitId} (${origin.reason}).`,
        reference: `${origin.reason}:${origin.workUnitId}`,
      };
  }
}

/**
 * The built-in Create Work Unit action (spec 002 §3: SeverityId, TenantId, ProtocolId): an
 * incident in the run's tenant, titled by what asked for it (a rule and its subject), related to
 * that cause. Once per cause: a second run finds the unit by that relation.
 */
export async function createWorkUnitAction(db: Db, run: ActionRun): Promise<ActionOutcome> {
  const { parameters } = run;
  const severity =
    parameters.SeverityId === undefined || parameters.SeverityId === ''
      ? SEVERITIES.Sev2
      : Number(parameters.SeverityId);
  if (!Number.isInteger(severity) || severity < 0 || severity > 4)
    throw new ActionFailure(`SeverityId "${parameters.SeverityId}" is not 0 to 4.`);
  const tenantId = parameters.TenantId ? parameters.TenantId.toLowerCase() : run.tenantId;
  if (tenantId !== run.tenantId) throw new ActionFailure("TenantId must be the matched subject's tenant.");
  const protocolId = parameters.ProtocolId ? Number(parameters.ProtocolId) : null;
  if (protocolId !== null && !Number.isInteger(protocolId))
    throw new ActionFailure(`ProtocolId "${parameters.ProtocolId}" is not a protocol id.`);
  const context = runContext(run);
  const referenceType =
    run.origin.kind === 'rule' ? 'RuleMatch' : run.origin.kind === 'protocol' ? 'ProtocolAction' : 'ActionTest';
  const existing = await scoped(db, { kind: 'some', tenantIds: [tenantId] })
    .selectFrom('work_unit')
    .innerJoin('work_unit_relation', 'work_unit_relation.work_unit_id', 'work_unit.work_unit_id')
    .select('work_unit.work_unit_id')
    .where('work_unit_relation.reference_type', '=', referenceType)
    .where('work_unit_relation.reference_id', '=', context.reference)
    .executeTakeFirst();
  if (existing)
    return {
      status: ACTION_RESULT_STATUSES.Success,
      detail: `Work unit ${existing.work_unit_id} was created for this ${referenceType === 'RuleMatch' ? 'match' : 'run'}.`,
      referenceId: String(existing.work_unit_id),
    };
  const workUnitId = await createWorkUnit(db, systemPrincipal(run.tenantId, context.actor), {
    title: context.subject.slice(0, 400),
    description: context.why,
    severityId: severity,
    stateId: WORK_UNIT_STATES.New,
    tenantId,
    workUnitTypeId: WORK_UNIT_TYPES.Incident,
    source: run.origin.kind === 'rule' ? 'Rule' : 'Protocol',
    referenceId: run.origin.kind === 'rule' ? run.origin.ruleMatchId : null,
    protocolId,
    relations: [{ referenceType, referenceId: context.reference }],
  });
  return {
    status: ACTION_RESULT_STATUSES.Success,
    detail: `Work unit ${workUnitId} created.`,
    referenceId: String(workUnitId),
  };
}
