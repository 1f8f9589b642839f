import { z } from 'zod';
import { actionRunDetailSchema } from './action-definitions.js';

/**
 * GET v1/actionHistories (spec 002 §3 ActionHistory, §7 Action catalogue and history): every
 * action run, newest first, filtered by action definition, correlation (a rule match's id), message,
 * reference, protocol action or rule match, `$expand=actionDefinition` naming the action.
 */
export const ACTION_HISTORY_LIST = { defaultPageSize: 10, defaultOrderBy: 'actionProcessed desc' } as const;

/** Result statuses as the lists show them (spec 002 §3). */
export const ACTION_RESULT_LABELS: Record<number, string> = {
  0: 'Unknown',
  1: 'Success',
  2: 'Failure',
  3: 'Enqueue Success',
  4: 'Enqueue Failure',
  5: 'Suppressed',
};

export const actionHistoryRowSchema = z.object({
  actionHistoryId: z.number(),
  actionDefinitionId: z.uuid(),
  tenantId: z.uuid(),
  actionProcessed: z.date(),
  resultStatusId: z.number(),
  inputParameters: z.string().nullable(),
  resultDetail: z.string().nullable(),
  correlationId: z.string().nullable(),
  referenceId: z.string().nullable(),
  messageId: z.string().nullable(),
  protocolActionId: z.uuid().nullable(),
  ruleMatchId: z.uuid().nullable(),
  /** The work unit a protocol step ran on (Pending Actions filter by it). */
  workUnitId: z.number().int().nullable().optional(),
  actionDefinition: z.object({ actionDefinitionId: z.uuid(), name: z.string() }).nullable().optional(),
});
export type ActionHistoryRow = z.infer<typeof actionHistoryRowSchema>;

/** GET v1/actionHistories/{id}: one run with what it sent and what came back (secrets masked), for the detail dialog. */
export const actionHistoryDetailSchema = actionHistoryRowSchema.extend(actionRunDetailSchema.shape);
export type ActionHistoryDetail = z.infer<typeof actionHistoryDetailSchema>;
