import { z } from 'zod';
import { ACTION_RESULT_STATUSES, BLOCK_COLORS, BUILT_IN_ACTIONS, type BlockColorName } from '@cfs/contracts/monitoring';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import {
  ActionFailure,
  ruleNotificationGroupSchema,
  type ActionOutcome,
  type ActionRun,
  type BuiltInAction,
} from '../actions/run.js';
import { recordLastFailure, runAction } from '../actions/runner.js';
import { defineTask } from '../jobs/task.js';
import { holdForGroup } from './groups.js';

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
  /** Sent by the notification policy's sweep (a group's notification or a repeat): never held for a group. */
  sweep: z.boolean().optional(),
  /** The matches this one notification tells of, when the policy grouped them (groups.ts). */
  group: ruleNotificationGroupSchema.optional(),
  /** A repeat of the notification (repeat.ts): its number, from 1. */
  repeat: z.number().int().min(1).optional(),
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

/**
 * Sets an entity's colour (Set Colour, the demo's tiles). An entity keeps the tenant that first had
 * a colour set for it: another tenant's colour is not written, and false comes back.
 */
export async function setEntityColor(
  trx: Tx,
  entity: { entityId: string; tenantId: string; color: string; modifiedBy: string },
): Promise<boolean> {
  const { color, modifiedBy } = entity;
  const written = await scoped(trx, { kind: 'some', tenantIds: [entity.tenantId] })
    .insertInto('entity_color', {
      entity_id: entity.entityId,
      tenant_id: entity.tenantId,
      color,
      modified: new Date(),
      modified_by: modifiedBy,
    })
    .onConflict((oc) =>
      oc
        .column('entity_id')
        .doUpdateSet({ color, modified: new Date(), modified_by: modifiedBy })
        .where('entity_color.tenant_id', '=', entity.tenantId),
    )
    .returning('entity_id')
    .executeTakeFirst();
  return written !== undefined;
}

/** The built-in Set Colour action (spec 002 §3: Color): a rule's matched entity takes the colour, and its log says why. */
async function setColor(db: Db, run: ActionRun): Promise<ActionOutcome> {
  const { origin } = run;
  if (origin.kind !== 'rule') throw new ActionFailure('Set Colour acts on the entity of a rule match.');
  const color = colorHex(run.parameters.Color);
  if (!color)
    throw new ActionFailure(
      `Color "${run.parameters.Color ?? ''}" is not one of ${Object.keys(BLOCK_COLORS).join(', ')}.`,
    );
  if (!UUID.test(origin.subjectId))
    throw new ActionFailure('Set Colour acts on an entity; this match is not of an entity.');
  const who = `Rule: ${origin.ruleName}`;
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, { kind: 'some', tenantIds: [run.tenantId] });
    const entity = { entityId: origin.subjectId, tenantId: run.tenantId, color: color.hex, modifiedBy: who };
    if (!(await setEntityColor(trx, entity))) throw new ActionFailure('The entity belongs to another tenant.');
    const detail = `Colour set to ${color.name} by rule "${origin.ruleName}" (${origin.phase === 'match' ? 'matched' : 'match closed'}).`;
    await tx.insertInto('entity_log', { entity_id: origin.subjectId, tenant_id: run.tenantId, detail }).execute();
    return { status: ACTION_RESULT_STATUSES.Success, detail };
  });
}

/** The rule engine's own built-in action, registered with the areas' (server/src/areas.ts). */
export const RULE_BUILT_IN_ACTIONS: Readonly<Record<string, BuiltInAction>> = {
  [BUILT_IN_ACTIONS.setColor.id]: setColor,
};

/** A rule's action job as a run of the one action runner (the job's payload stays as ingestion's statement writes it). */
export function ruleRun(job: RuleActionJob): ActionRun {
  return {
    actionDefinitionId: job.actionDefinitionId,
    tenantId: job.tenantId,
    parameters: job.parameters,
    origin: {
      kind: 'rule',
      ruleMatchId: job.ruleMatchId,
      ruleId: job.ruleId,
      ruleName: job.ruleName,
      subjectId: job.subjectId,
      label: job.label,
      phase: job.phase,
      suppressed: job.suppressed,
      ...(job.group ? { group: job.group } : {}),
      ...(job.repeat ? { repeat: job.repeat } : {}),
    },
  };
}

export const ruleActionTask = defineTask({
  name: 'rules.action',
  payload: ruleActionJobSchema,
  attempts: 5,
  // A notifying action of a match that opens waits for its group when the tenant's policy groups.
  perform: async (job, { db, key }) => {
    if (!(await holdForGroup(db, job))) await runAction(db, ruleRun(job), key);
  },
  onFailed: (job, error, { db, key }) => recordLastFailure(db, ruleRun(job), key, error),
});
