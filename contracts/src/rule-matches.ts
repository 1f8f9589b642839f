import { z } from 'zod';
import { INTERVAL_PATTERN, intervalSeconds } from './device-operations.js';
import { optionalText } from './fields.js';
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

/** Acknowledging and silencing matches (docs/features/rules.md "Acknowledge and silence"). */
export const RULE_MATCH_MESSAGES = {
  idsRequired: 'Choose at least one match.',
  tooMany: `At most ${500} matches at a time.`,
  notOpen: 'Only open matches can be acknowledged or silenced.',
  notFound: 'A chosen match does not exist.',
  durationInvalid: 'Please choose how long to silence for: a time span (HH:mm:ss) from 1 minute to 7 days.',
  acknowledged: (count: number) => `Acknowledged ${count} ${count === 1 ? 'match' : 'matches'}.`,
  silenced: (count: number) => `Silenced ${count} ${count === 1 ? 'match' : 'matches'}.`,
} as const;

/** How long a silence made from a match lasts: the choices the drawer offers (HH:mm:ss), the API takes any up to a week. */
export const SILENCE_DURATIONS = ['00:30:00', '01:00:00', '02:00:00', '04:00:00', '08:00:00', '24:00:00'] as const;
export const SILENCE_MAX_SECONDS = 7 * 86_400;

const matchIds = z
  .array(z.uuid({ error: RULE_MATCH_MESSAGES.notFound }), { error: RULE_MATCH_MESSAGES.idsRequired })
  .min(1, RULE_MATCH_MESSAGES.idsRequired)
  .max(500, RULE_MATCH_MESSAGES.tooMany);
const note = optionalText(2000);

/** POST v1/rulematches/acknowledge: someone takes the open matches on, with a note. */
export const acknowledgeMatchesSchema = z.object({ ruleMatchIds: matchIds, note });
export type AcknowledgeMatches = z.input<typeof acknowledgeMatchesSchema>;

/** POST v1/rulematches/silence: the matches' rule and subject are silenced from now for `duration` (HH:mm:ss). */
export const silenceMatchesSchema = z.object({
  ruleMatchIds: matchIds,
  duration: z
    .string({ error: RULE_MATCH_MESSAGES.durationInvalid })
    .regex(INTERVAL_PATTERN, RULE_MATCH_MESSAGES.durationInvalid)
    .refine((text) => {
      const seconds = intervalSeconds(text) ?? 0;
      return seconds >= 60 && seconds <= SILENCE_MAX_SECONDS;
    }, RULE_MATCH_MESSAGES.durationInvalid),
  note,
});
export type SilenceMatches = z.input<typeof silenceMatchesSchema>;

export const matchesChangedSchema = z.object({ count: z.number(), message: z.string() });
