import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { PermissionSet } from '@cfs/contracts/permissions';
import { SEVERITIES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { ActionFailure, type ActionOutcome, type RuleActionJob } from '../../engines/rules/actions.js';
import { createWorkUnit } from './commands.js';

/** A rule's identity when it writes a work unit, recorded as who created it: its id stands where a user's would (it names no user), its name says which rule. */
function rulePrincipal(job: RuleActionJob): Principal {
  const name = `Rule: ${job.ruleName}`.slice(0, 200);
  return {
    userId: job.ruleId,
    userName: name,
    displayName: name,
    email: null,
    permissions: new PermissionSet([]),
    permissionStrings: [],
    tenantScope: { kind: 'some', tenantIds: [job.tenantId] },
    groups: [],
    tenantId: job.tenantId,
    subscriptionId: null,
  };
}

/**
 * The built-in Create Work Unit action (spec 002 §3: SeverityId, TenantId, ProtocolId): an
 * incident in the matched subject's tenant, titled by the rule and the subject, related to its rule
 * match. Once per match and phase: a second run finds the unit by that relation.
 */
export async function createWorkUnitAction(db: Db, job: RuleActionJob): Promise<ActionOutcome> {
  const severity = job.parameters.SeverityId === undefined || job.parameters.SeverityId === '' ? SEVERITIES.Sev2 : Number(job.parameters.SeverityId);
  if (!Number.isInteger(severity) || severity < 0 || severity > 4) throw new ActionFailure(`SeverityId "${job.parameters.SeverityId}" is not 0 to 4.`);
  const tenantId = job.parameters.TenantId ? job.parameters.TenantId.toLowerCase() : job.tenantId;
  if (tenantId !== job.tenantId) throw new ActionFailure("TenantId must be the matched subject's tenant.");
  const reference = `${job.ruleMatchId}:${job.phase}`;
  const existing = await scoped(db, { kind: 'some', tenantIds: [tenantId] })
    .selectFrom('work_unit')
    .innerJoin('work_unit_relation', 'work_unit_relation.work_unit_id', 'work_unit.work_unit_id')
    .select('work_unit.work_unit_id')
    .where('work_unit_relation.reference_type', '=', 'RuleMatch')
    .where('work_unit_relation.reference_id', '=', reference)
    .executeTakeFirst();
  if (existing) return { status: ACTION_RESULT_STATUSES.Success, detail: `Work unit ${existing.work_unit_id} was created for this match.`, referenceId: String(existing.work_unit_id) };
  const subject = job.label ? `${job.label} (${job.subjectId})` : job.subjectId;
  const unit = await createWorkUnit(db, rulePrincipal(job), {
    title: `${job.ruleName}: ${subject}`.slice(0, 400),
    description: `Rule "${job.ruleName}" ${job.phase === 'match' ? 'matched' : 'match expired for'} ${subject}.${job.parameters.ProtocolId ? ` Protocol: ${job.parameters.ProtocolId}.` : ''}`,
    severityId: severity,
    stateId: WORK_UNIT_STATES.New,
    tenantId,
    workUnitTypeId: WORK_UNIT_TYPES.Incident,
    source: 'Rule',
    referenceId: job.ruleMatchId,
    relations: [{ referenceType: 'RuleMatch', referenceId: reference }],
  });
  return { status: ACTION_RESULT_STATUSES.Success, detail: `Work unit ${unit.workUnitId} created.`, referenceId: String(unit.workUnitId) };
}
