import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AUTOMATION_MESSAGES, type ManualAction, type triggerInputSchema } from '@cfs/contracts/automation';
import { parameterNames } from '@cfs/contracts/action-definitions';
import { EVENT_FOR_STATE, HISTORY_TYPES, WORK_UNIT_EVENT_TYPES } from '@cfs/contracts/work-units';
import type { Principal } from '../../auth/principal.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { ActionRun } from '../../engines/actions/run.js';
import { enqueueActionRun, recordRejectedRun } from '../../engines/actions/runner.js';
import { enqueue } from '../../engines/jobs/queue.js';
import { systemWorkUnitWriter } from '../../engines/work-units/system-writer.js';
import { protocolRunNoteTask } from '../../engines/protocols/tasks.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';
import { textParameters } from '../../engines/protocols/tasks.js';

/** The trigger's body as checked: userDefinedParams, sent as an object or its JSON text, as texts. */
type TriggerValues = z.output<typeof triggerInputSchema>;

/** A rejection's history row is keyed so: the Pending Actions tab tells a rejection from a run by it. */
const REJECT_PREFIX = 'protocol-reject:';

/**
 * GET /v1/workunits/{workUnitId}/manualActions (spec 001 §2 Pending Actions, §3 Manual action): the
 * unit's protocol's steps that do not run automatically — `current`: those for the event of the
 * unit's current state (EVENT_FOR_STATE); `all`: every one — each with its latest run or rejection
 * on this unit.
 */
export async function findManualActions(
  db: Db,
  scope: TenantScope,
  workUnitId: number,
  which: 'current' | 'all',
): Promise<ManualAction[]> {
  const tx = scoped(db, scope);
  const unit = orNotFound(
    await tx
      .selectFrom('work_unit')
      .select(['work_unit_id', 'protocol_id', 'state_id'])
      .where('work_unit_id', '=', workUnitId)
      .executeTakeFirst(),
    'The work unit',
  );
  if (unit.protocol_id === null) return [];
  const event = EVENT_FOR_STATE[unit.state_id];
  if (which === 'current' && event === undefined) return [];
  let query = tx
    .selectFrom('protocol_action as pa')
    .innerJoin('action_definition as ad', 'ad.action_definition_id', 'pa.action_definition_id')
    .select([
      'pa.protocol_action_id',
      'pa.protocol_id',
      'pa.work_unit_event_type_id',
      'pa.summary',
      'pa.repeatable',
      'pa.parameters',
      'ad.action_definition_id',
      'ad.name',
      'ad.description',
      'ad.input_parameters',
    ])
    .where('pa.protocol_id', '=', unit.protocol_id)
    .where('pa.run_automatically', '=', false);
  if (which === 'current' && event !== undefined) query = query.where('pa.work_unit_event_type_id', '=', event);
  const steps = await query
    .orderBy('pa.work_unit_event_type_id')
    .orderBy('pa.sequence')
    .orderBy('pa.protocol_action_id')
    .execute();
  if (steps.length === 0) return [];
  const runs = await tx
    .selectFrom('action_history')
    .select(['protocol_action_id', 'result_status_id', 'action_processed', 'job_key'])
    .distinctOn('protocol_action_id')
    .where('work_unit_id', '=', workUnitId)
    .where(
      'protocol_action_id',
      'in',
      steps.map((step) => step.protocol_action_id),
    )
    .orderBy('protocol_action_id')
    .orderBy('action_processed', 'desc')
    .orderBy('action_history_id', 'desc')
    .execute();
  const last = new Map(runs.map((run) => [run.protocol_action_id, run]));
  return steps.map((step) => {
    const run = last.get(step.protocol_action_id);
    return {
      protocolActionId: step.protocol_action_id,
      protocolId: step.protocol_id,
      workUnitEventTypeId: step.work_unit_event_type_id,
      summary: step.summary,
      repeatable: step.repeatable,
      parameters: textParameters(step.parameters),
      actionDefinition: {
        actionDefinitionId: step.action_definition_id,
        name: step.name,
        description: step.description,
        inputParameters: step.input_parameters,
      },
      lastRun: run
        ? {
            resultStatusId: run.result_status_id,
            actionProcessed: run.action_processed,
            rejected: (run.job_key ?? '').startsWith(REJECT_PREFIX),
          }
        : null,
    };
  });
}

/** The event named by the first payload form (an id or a name such as "OnNew"), or by the second (an id). */
function namedEvent(input: TriggerValues): number | undefined {
  const given = input.workUnitEventTypeId ?? input.workUnitEventType;
  if (given === undefined) return undefined;
  if (typeof given === 'number') return given;
  if (/^\d+$/.test(given)) return Number(given);
  return (WORK_UNIT_EVENT_TYPES as Record<string, number>)[given] ?? -1;
}

/**
 * POST /v1/workunits/{workUnitId}/protocolActions/{protocolActionId}/trigger (spec 001 §2, §7): run a
 * pending manual step (an actions.run job, enqueued with the request's transaction) or reject it (a
 * Suppressed history row). A step that is not repeatable runs or is rejected once; a step waits only
 * for the event of the unit's current state. The unit row is locked, so two clicks cannot both pass
 * the once-only check. The trigger and, once the run is done, its outcome are noted on the unit.
 * Answers the run's key.
 */
export async function triggerManualAction(
  db: Db,
  user: Principal,
  workUnitId: number,
  protocolActionId: string,
  input: TriggerValues,
): Promise<{ id: string; status: 200 | 202 }> {
  if (
    (input.workUnitId !== undefined && input.workUnitId !== workUnitId) ||
    (input.protocolActionId !== undefined && input.protocolActionId.toLowerCase() !== protocolActionId)
  ) {
    throw new BadRequestError(AUTOMATION_MESSAGES.notPending);
  }
  const userParameters = input.userDefinedParams ?? {};
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const unit = orNotFound(
      await tx
        .selectFrom('work_unit')
        .select(['work_unit_id', 'tenant_id', 'protocol_id', 'state_id'])
        .where('work_unit_id', '=', workUnitId)
        .forUpdate()
        .executeTakeFirst(),
      'The work unit',
    );
    const step = orNotFound(
      await tx
        .selectFrom('protocol_action as pa')
        .innerJoin('action_definition as ad', 'ad.action_definition_id', 'pa.action_definition_id')
        .select([
          'pa.protocol_action_id',
          'pa.protocol_id',
          'pa.work_unit_event_type_id',
          'pa.parameters',
          'pa.repeatable',
          'pa.run_automatically',
          'ad.action_definition_id',
          'ad.name',
          'ad.input_parameters',
        ])
        .where('pa.protocol_action_id', '=', protocolActionId)
        .where('pa.protocol_id', '=', unit.protocol_id ?? -1)
        .executeTakeFirst(),
      'The protocol action',
    );
    const requested = namedEvent(input);
    if (
      step.run_automatically ||
      EVENT_FOR_STATE[unit.state_id] !== step.work_unit_event_type_id ||
      (requested !== undefined && requested !== step.work_unit_event_type_id)
    ) {
      throw new BadRequestError(AUTOMATION_MESSAGES.notPending);
    }
    const onceKey = `${unit.work_unit_id}:${step.protocol_action_id}`;
    if (!step.repeatable) {
      const done = await tx
        .selectFrom('action_history')
        .select('action_history_id')
        .where('work_unit_id', '=', workUnitId)
        .where('protocol_action_id', '=', step.protocol_action_id)
        .limit(1)
        .executeTakeFirst();
      const queued = await trx
        .selectFrom('job')
        .select('job_id')
        .where('task', '=', 'actions.run')
        .where('key', '=', `protocol-manual:${onceKey}`)
        .executeTakeFirst();
      if (done || queued) throw new BadRequestError(AUTOMATION_MESSAGES.alreadyRun);
    }
    const suffix = step.repeatable ? `:${randomUUID()}` : '';
    const named = new Set(parameterNames(step.input_parameters));
    const parameters = {
      ...textParameters(step.parameters),
      ...Object.fromEntries(Object.entries(userParameters).filter(([name]) => named.has(name))),
    };
    const run = {
      actionDefinitionId: step.action_definition_id,
      tenantId: unit.tenant_id,
      parameters,
      origin: {
        kind: 'protocol',
        workUnitId: unit.work_unit_id,
        protocolId: step.protocol_id,
        protocolActionId: step.protocol_action_id,
        workUnitEventTypeId: step.work_unit_event_type_id,
        manual: true,
        triggeredBy: user.userName,
        workUnitEventId: null,
      },
    } satisfies ActionRun;
    const noteOnUnit = (done: 'rejected' | 'triggered') =>
      systemWorkUnitWriter().recordNote(trx, {
        tenantId: unit.tenant_id,
        workUnitId: unit.work_unit_id,
        detail: `Manual action "${step.name}" ${done} by ${user.userName}.`,
        historyType: HISTORY_TYPES.ProtocolActionActivity,
        createdBy: user.userName,
      });
    if (input.reject) {
      const key = `${REJECT_PREFIX}${onceKey}${suffix}`;
      await recordRejectedRun(
        trx,
        { ...run, parameters: { ...parameters, ProtocolActionId: step.protocol_action_id } },
        key,
        `Rejected by ${user.userName}.`,
      );
      await noteOnUnit('rejected');
      return { id: key, status: 200 };
    }
    const key = `protocol-manual:${onceKey}${suffix}`;
    await enqueueActionRun(trx, run, key);
    // Its outcome is noted on the unit once the run is done.
    await enqueue(trx, protocolRunNoteTask, { key }, { key, runAt: new Date(Date.now() + 1000) });
    await noteOnUnit('triggered');
    return { id: key, status: 202 };
  });
}
