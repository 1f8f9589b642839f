import { z } from 'zod';
import { ACTION_RESULT_STATUSES, BLOCK_COLORS, BUILT_IN_ACTIONS, type BlockColorName } from '@cfs/contracts/monitoring';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { defineTask } from '../jobs/task.js';

/** A rule action to run: which match, which phase, the action and its parameters as the rule named them. */
export const ruleActionJobSchema = z.object({
  ruleMatchId: z.uuid(),
  ruleId: z.uuid(),
  ruleName: z.string(),
  tenantId: z.uuid(),
  subjectId: z.string(),
  label: z.string().nullable(),
  phase: z.enum(['match', 'expiration']),
  actionDefinitionId: z.uuid(),
  parameters: z.record(z.string(), z.string()),
  /** The subject was in maintenance: recorded as Suppressed, not run. */
  suppressed: z.boolean(),
});
export type RuleActionJob = z.infer<typeof ruleActionJobSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A colour parameter as a name of the palette ('Red') or its hex ('FF3333', '#ff3333'). */
export function colorHex(value: string | undefined): { hex: string; name: string } | undefined {
  if (!value) return undefined;
  const trimmed = value.trim().replace(/^#/, '');
  const byName = Object.entries(BLOCK_COLORS).find(([name]) => name.toLowerCase() === trimmed.toLowerCase());
  if (byName) return { hex: byName[1], name: byName[0] };
  const byHex = Object.entries(BLOCK_COLORS).find(([, hex]) => hex === trimmed.toUpperCase());
  return byHex ? { hex: byHex[1], name: byHex[0] as BlockColorName } : undefined;
}

/** What running an action came to, as its action history row records it. */
export interface ActionOutcome {
  status: number;
  detail: string;
  referenceId?: string;
}

/** An action that cannot run as asked: recorded as a Failure with this text, not retried. */
export class ActionFailure extends Error {}

/**
 * A built-in action performed by an area (Create Work Unit by the work units area): declared in
 * the area's manifest under the action's fixed id and registered once at start (server/src/areas.ts).
 */
export type BuiltInAction = (db: Db, job: RuleActionJob) => Promise<ActionOutcome>;

const builtIns = new Map<string, BuiltInAction>();

export function registerBuiltInActions(actions: Readonly<Record<string, BuiltInAction>>): void {
  for (const [id, action] of Object.entries(actions)) builtIns.set(id, action);
}

async function setColor(trx: Tx, job: RuleActionJob): Promise<ActionOutcome> {
  const color = colorHex(job.parameters.Color);
  if (!color) throw new ActionFailure(`Color "${job.parameters.Color ?? ''}" is not one of ${Object.keys(BLOCK_COLORS).join(', ')}.`);
  if (!UUID.test(job.subjectId)) throw new ActionFailure('Set Colour acts on an entity; this match is not of an entity.');
  const who = `Rule: ${job.ruleName}`;
  // An entity keeps the tenant that first had a colour set for it; another tenant's rule cannot recolour it.
  const written = await scoped(trx, { kind: 'some', tenantIds: [job.tenantId] })
    .insertInto('entity_color', { entity_id: job.subjectId, tenant_id: job.tenantId, color: color.hex, modified: new Date(), modified_by: who })
    .onConflict((oc) => oc.column('entity_id').doUpdateSet({ color: color.hex, modified: new Date(), modified_by: who }).where('entity_color.tenant_id', '=', job.tenantId))
    .returning('entity_id')
    .executeTakeFirst();
  if (!written) throw new ActionFailure('The entity belongs to another tenant.');
  const detail = `Colour set to ${color.name} by rule "${job.ruleName}" (${job.phase === 'match' ? 'matched' : 'match expired'}).`;
  await scoped(trx, { kind: 'some', tenantIds: [job.tenantId] }).insertInto('entity_log', { entity_id: job.subjectId, tenant_id: job.tenantId, detail }).execute();
  return { status: ACTION_RESULT_STATUSES.Success, detail };
}

/**
 * Runs one rule action once: the action history row (keyed by the job) is written with the
 * outcome, and a run that finds its row already written does nothing (a job may run twice).
 * Set Colour runs here, the areas' built-in actions (Create Work Unit) through their registration; a suppressed action (the subject in
 * maintenance) is only recorded. An action that cannot run is recorded as a Failure with its reason
 * and not retried: retrying would not change the answer.
 */
export async function runRuleAction(db: Db, job: RuleActionJob, key: string): Promise<void> {
  const all = scoped(db, ALL_TENANTS);
  if (await all.selectFrom('action_history').select('action_history_id').where('job_key', '=', key).executeTakeFirst()) return;
  const record = (executor: Db | Tx, outcome: ActionOutcome) =>
    scoped(executor, ALL_TENANTS)
      .insertInto('action_history', {
        tenant_id: job.tenantId,
        action_definition_id: job.actionDefinitionId,
        result_status_id: outcome.status,
        input_parameters: JSON.stringify(job.parameters),
        result_detail: outcome.detail,
        correlation_id: job.ruleMatchId,
        reference_id: outcome.referenceId ?? job.subjectId,
        rule_match_id: job.ruleMatchId,
        job_key: key,
      })
      .onConflict((oc) => oc.column('job_key').doNothing())
      .execute();
  if (job.suppressed) {
    await record(db, { status: ACTION_RESULT_STATUSES.Suppressed, detail: `Suppressed: ${job.label ?? job.subjectId} was in maintenance when rule "${job.ruleName}" ${job.phase === 'match' ? 'matched' : 'expired'}.` });
    return;
  }
  try {
    if (job.actionDefinitionId === BUILT_IN_ACTIONS.setColor.id) {
      await db.transaction().execute(async (trx) => record(trx, await setColor(trx, job)));
    } else if (builtIns.has(job.actionDefinitionId)) {
      await record(db, await builtIns.get(job.actionDefinitionId)!(db, job));
    } else {
      const definition = await all.selectFrom('action_definition').select('name').where('action_definition_id', '=', job.actionDefinitionId).executeTakeFirst();
      throw new ActionFailure(definition ? `The action "${definition.name}" cannot be run by rules yet.` : 'The action no longer exists.');
    }
  } catch (error) {
    if (!(error instanceof ActionFailure) && !(error instanceof Error && 'statusCode' in error)) throw error;
    await record(db, { status: ACTION_RESULT_STATUSES.Failure, detail: error.message });
  }
}

export const ruleActionTask = defineTask({
  name: 'rules.action',
  payload: ruleActionJobSchema,
  attempts: 5,
  perform: (job, { db, key }) => runRuleAction(db, job, key),
});
