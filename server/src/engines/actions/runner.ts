import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { enqueue } from '../jobs/queue.js';
import { defineTask } from '../jobs/task.js';
import { ActionFailure, actionRunSchema, builtInAction, type ActionOutcome, type ActionRun } from './run.js';

/** The history row's links for a run: what it correlates with and what it acted on. */
function historyLinks(run: ActionRun): { correlation_id: string; reference_id: string | null; rule_match_id: string | null; protocol_action_id: string | null; work_unit_id: number | null; message_id: string | null } {
  const { origin } = run;
  switch (origin.kind) {
    case 'rule':
      return { correlation_id: origin.ruleMatchId, reference_id: origin.subjectId, rule_match_id: origin.ruleMatchId, protocol_action_id: null, work_unit_id: null, message_id: null };
    case 'protocol':
      return { correlation_id: String(origin.workUnitId), reference_id: String(origin.workUnitId), rule_match_id: null, protocol_action_id: origin.protocolActionId, work_unit_id: origin.workUnitId, message_id: null };
    case 'test':
      return { correlation_id: origin.messageId, reference_id: null, rule_match_id: null, protocol_action_id: null, work_unit_id: null, message_id: origin.messageId };
  }
}

/**
 * Runs one action once (DESIGN: one action runner): the action history row, keyed by the run's
 * idempotency key, is written with the outcome, and a run that finds its row already written does
 * nothing (a job may run twice). Built-ins run through their registration; a suppressed rule action
 * (the subject in maintenance) is only recorded. An action that cannot run is recorded as a Failure
 * with its reason and not retried: retrying would not change the answer.
 */
export async function runAction(db: Db, run: ActionRun, key: string): Promise<void> {
  const all = scoped(db, ALL_TENANTS);
  if (await all.selectFrom('action_history').select('action_history_id').where('job_key', '=', key).executeTakeFirst()) return;
  const links = historyLinks(run);
  const record = (executor: Db | Tx, outcome: ActionOutcome) =>
    scoped(executor, ALL_TENANTS)
      .insertInto('action_history', {
        tenant_id: run.tenantId,
        action_definition_id: run.actionDefinitionId,
        result_status_id: outcome.status,
        input_parameters: JSON.stringify(run.parameters),
        result_detail: outcome.detail,
        ...links,
        reference_id: outcome.referenceId ?? links.reference_id,
        job_key: key,
      })
      .onConflict((oc) => oc.column('job_key').doNothing())
      .execute();
  const { origin } = run;
  if (origin.kind === 'rule' && origin.suppressed) {
    await record(db, { status: ACTION_RESULT_STATUSES.Suppressed, detail: `Suppressed: ${origin.label ?? origin.subjectId} was in maintenance when rule "${origin.ruleName}" ${origin.phase === 'match' ? 'matched' : 'expired'}.` });
    return;
  }
  try {
    const builtIn = builtInAction(run.actionDefinitionId);
    if (builtIn) {
      await record(db, await builtIn(db, run, key));
    } else {
      const definition = await all.selectFrom('action_definition').select('name').where('action_definition_id', '=', run.actionDefinitionId).executeTakeFirst();
      throw new ActionFailure(definition ? `The action "${definition.name}" cannot be run yet.` : 'The action no longer exists.');
    }
  } catch (error) {
    if (!(error instanceof ActionFailure) && !(error instanceof Error && 'statusCode' in error)) throw error;
    await record(db, { status: ACTION_RESULT_STATUSES.Failure, detail: error.message });
  }
}

export const actionRunTask = defineTask({
  name: 'actions.run',
  payload: actionRunSchema,
  attempts: 5,
  perform: (run, { db, key }) => runAction(db, run, key),
});

/**
 * Enqueues an action run in the transaction that causes it; one run per key however often it is
 * asked for (a protocol step on a unit's event: `protocol:{eventId}:{protocolActionId}`).
 */
export function enqueueActionRun(trx: Tx, run: ActionRun, key: string, runAt?: Date): Promise<boolean> {
  return enqueue(trx, actionRunTask, run, { key, runAt });
}
