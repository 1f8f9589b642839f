import { z } from 'zod';
import { ruleMatchSchema } from './rules.js';

/**
 * GET /v1/rulematches (spec 002 §7 Blocks and packets, Rules; §9): rule matches as an OData list,
 * `$expand=rule` naming each match's rule. Default 50 rows, newest first; the rule drawer asks
 * 100 sorted by expires descending.
 */
export const RULE_MATCH_LIST = {
  defaultPageSize: 50,
  defaultOrderBy: 'created desc',
  drawerOrderBy: 'expires desc',
} as const;

export const ruleMatchRowSchema = ruleMatchSchema.extend({
  rule: z.object({ ruleId: z.uuid(), name: z.string(), ruleTypeId: z.number() }).nullable().optional(),
});
export type RuleMatchRow = z.infer<typeof ruleMatchRowSchema>;

/** Active while expires is in the future (spec 002 §4 Rule). */
export function isRuleMatchActive(expires: string | Date, now: number = Date.now()): boolean {
  return new Date(expires).getTime() > now;
}
