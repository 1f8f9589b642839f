import { z } from 'zod';
import { guid, instant, optionalText } from './fields.js';

/**
 * Silences (docs/features/rules.md "Acknowledge and silence"): for a while, the matches of a
 * tenant's subjects — of one rule or every rule, of one entity, every entity with a label, or
 * every entity — are recorded with their actions suppressed, as in maintenance. Made from a match
 * (POST v1/rulematches/silence) or ahead of time here, beside maintenance rules.
 */
export const SILENCE_MESSAGES = {
  tenantRequired: 'Please choose a tenant.',
  startsInvalid: 'Please enter a valid start.',
  endsInvalid: 'Please enter a valid end.',
  endsAfterStarts: 'The end must be after the start.',
  endsPassed: 'The end must be in the future.',
  ruleOfTenant: "The rule must be the tenant's or every tenant's.",
  saveFailed: 'The silence was not saved: see the fields named.',
  created: 'Silence created.',
  ended: 'Silence ended.',
} as const;

/** PUT v1/silences. */
export const silenceInputSchema = z
  .object({
    tenantId: guid(SILENCE_MESSAGES.tenantRequired),
    /** None: every rule of the tenant (and the installation's). */
    ruleId: guid()
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    /** An entity's id; none: every entity (with `label`, those of that label). */
    subjectId: optionalText(200),
    /** An entity's label (its block name), compared without regard to case. */
    label: optionalText(200),
    starts: instant(SILENCE_MESSAGES.startsInvalid),
    ends: instant(SILENCE_MESSAGES.endsInvalid),
    note: optionalText(2000),
  })
  .superRefine((silence, context) => {
    if (silence.ends <= silence.starts)
      context.addIssue({ code: 'custom', path: ['ends'], message: SILENCE_MESSAGES.endsAfterStarts });
    else if (silence.ends.getTime() <= Date.now())
      context.addIssue({ code: 'custom', path: ['ends'], message: SILENCE_MESSAGES.endsPassed });
  });
export type SilenceInput = z.input<typeof silenceInputSchema>;
export type SilenceValues = z.output<typeof silenceInputSchema>;

export const silenceSchema = z.object({
  ruleSilenceId: z.uuid(),
  tenantId: z.uuid(),
  ruleId: z.uuid().nullable(),
  subjectId: z.string().nullable(),
  label: z.string().nullable(),
  starts: z.date(),
  ends: z.date(),
  note: z.string().nullable(),
  created: z.date(),
  createdBy: z.string().nullable(),
});
export type Silence = z.infer<typeof silenceSchema>;

export const silenceRowSchema = silenceSchema.extend({
  rule: z.object({ ruleId: z.uuid(), name: z.string() }).nullable().optional(),
});
export type SilenceRow = z.infer<typeof silenceRowSchema>;

/** The silences list: those not over, soonest to end first. */
export const SILENCE_LIST = { defaultOrderBy: 'ends asc', defaultPageSize: 50 } as const;
