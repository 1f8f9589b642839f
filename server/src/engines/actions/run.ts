import { z } from 'zod';
import { NOTIFICATION_GROUP_BY } from '@cfs/contracts/notification-policy';
import type { Db } from '../../db/database.js';

/**
 * One action run, whatever asked for it (DESIGN: one action runner): a rule's match or expiration,
 * a protocol step on a work unit (automatic, timer or by hand), or a test from the action catalogue.
 * The runner (runner.ts) fills the action's placeholders from `parameters` and the origin's context,
 * performs it (a built-in, or the HTTP call) and writes one action history row per run.
 */
/** The matches one notification tells of, when a tenant's notification policy groups them. */
export const ruleNotificationGroupSchema = z.object({
  by: z.enum(NOTIFICATION_GROUP_BY),
  /** The rule's, location's or subscription's name. */
  name: z.string(),
  /** How many matches; `matches` names the first of them. */
  count: z.number().int(),
  matches: z.array(
    z.object({ ruleMatchId: z.uuid(), ruleName: z.string(), subjectId: z.string(), label: z.string().nullable() }),
  ),
});

export const ruleOriginSchema = z.object({
  kind: z.literal('rule'),
  ruleMatchId: z.uuid(),
  ruleId: z.uuid(),
  ruleName: z.string(),
  subjectId: z.string(),
  label: z.string().nullable(),
  phase: z.enum(['match', 'expiration']),
  /** The subject was in maintenance: recorded as Suppressed, not run. */
  suppressed: z.boolean(),
  /** One notification for a group of matches, run for the first of them (`ruleMatchId`). */
  group: ruleNotificationGroupSchema.optional(),
  /** A repeat of the notification while nobody acknowledged the match: its number, from 1. */
  repeat: z.number().int().min(1).optional(),
});

export const protocolOriginSchema = z.object({
  kind: z.literal('protocol'),
  workUnitId: z.number().int(),
  protocolId: z.number().int(),
  protocolActionId: z.uuid(),
  /** The work unit event that ran it (OnTimer for the timer). */
  workUnitEventTypeId: z.number().int(),
  /** Run from Pending Actions by a user (who is `triggeredBy`), or by the engine. */
  manual: z.boolean(),
  triggeredBy: z.string(),
  /** The work unit event that caused an automatic run; null for manual and timer runs. */
  workUnitEventId: z.string().nullable(),
});

export const testOriginSchema = z.object({
  kind: z.literal('test'),
  /** The test message's id: the catalogue's Test drawer loads the history of this run by it. */
  messageId: z.uuid(),
  triggeredBy: z.string(),
});

/** A work unit's own notice, not a protocol step: the Resolution Center's emails to the requester (spec 001 §2). */
export const workUnitOriginSchema = z.object({
  kind: z.literal('workUnit'),
  workUnitId: z.number().int(),
  /** Why it runs, e.g. `ResolutionCenterCreated`. */
  reason: z.string(),
  triggeredBy: z.string(),
});

export const actionRunSchema = z.object({
  actionDefinitionId: z.uuid(),
  /** The tenant the action runs for: its secrets, its history row. */
  tenantId: z.uuid(),
  /** The named parameters as the rule, the protocol step (with a user's values) or the test gave them. */
  parameters: z.record(z.string(), z.string()),
  origin: z.discriminatedUnion('kind', [
    ruleOriginSchema,
    protocolOriginSchema,
    testOriginSchema,
    workUnitOriginSchema,
  ]),
});
export type ActionRun = z.infer<typeof actionRunSchema>;
export type RuleNotificationGroup = z.infer<typeof ruleNotificationGroupSchema>;

/** What running an action came to, as its action history row records it. */
export interface ActionOutcome {
  status: number;
  detail: string;
  referenceId?: string;
}

/** An action that cannot run as asked: recorded as a Failure with this text, not retried. */
export class ActionFailure extends Error {}

/**
 * A built-in action (spec 002 §3: Send Email, Set Colour, Create Work Unit), registered under its
 * fixed action definition id. `key` is the run's idempotency key: a built-in that may run twice
 * for one job (a worker died) writes its effect once under it.
 */
export type BuiltInAction = (db: Db, run: ActionRun, key: string) => Promise<ActionOutcome>;

const builtIns = new Map<string, BuiltInAction>();

export function registerBuiltInActions(actions: Readonly<Record<string, BuiltInAction>>): void {
  for (const [id, action] of Object.entries(actions)) builtIns.set(id, action);
}

export function builtInAction(actionDefinitionId: string): BuiltInAction | undefined {
  return builtIns.get(actionDefinitionId);
}
