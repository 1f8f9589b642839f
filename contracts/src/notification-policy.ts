import { z } from 'zod';
import { INTERVAL_PATTERN, intervalSeconds } from './device-operations.js';

/**
 * A tenant's notification policy (docs/features/rules.md "Grouped notifications" and "Repeat
 * notifications"): the notifying match actions of an open match (Send Email, HTTP calls; not Set
 * Colour or Create Work Unit) are held for `groupWait` and sent once for all the matches of a group
 * (`groupBy`: one rule, location or subscription) that opened meanwhile, and run again every
 * `repeatEvery` while nobody has acknowledged it, it is not silenced or in maintenance, and it has
 * not closed. GET and PUT v1/notificationpolicy/{tenantId}.
 */
export const NOTIFICATION_POLICY_MESSAGES = {
  repeatInvalid: 'Repeat every must be a time span (HH:mm:ss) from 1 minute to 7 days.',
  groupByInvalid: 'Group by must be rule, location or subscription, or null.',
  groupWaitInvalid: 'Group wait must be a time span (HH:mm:ss) from 10 seconds to 1 hour.',
  saved: 'Notification policy saved.',
} as const;

/** The choices the Rules page offers; the API takes any span from a minute to a week. */
export const NOTIFICATION_REPEAT_CHOICES = ['00:15:00', '00:30:00', '01:00:00', '04:00:00', '24:00:00'] as const;
export const NOTIFICATION_REPEAT_LIMITS = { minSeconds: 60, maxSeconds: 7 * 86_400 } as const;

/** What matches are grouped by: their rule, their device's location, or their subscription (the device's, else the rule's). */
export const NOTIFICATION_GROUP_BY = ['rule', 'location', 'subscription'] as const;
export type NotificationGroupBy = (typeof NOTIFICATION_GROUP_BY)[number];
export const NOTIFICATION_GROUP_WAIT_CHOICES = ['00:00:10', '00:00:30', '00:01:00', '00:05:00', '00:15:00'] as const;
export const NOTIFICATION_GROUP_WAIT_LIMITS = { minSeconds: 10, maxSeconds: 3600 } as const;
export const DEFAULT_GROUP_WAIT = '00:00:30';

/** A time span (HH:mm:ss) within limits, with one message for any text that is not one. */
const span = (limits: { minSeconds: number; maxSeconds: number }, error: string) =>
  z
    .string({ error })
    .trim()
    .regex(INTERVAL_PATTERN, { error, abort: true })
    .refine((text) => {
      const seconds = intervalSeconds(text) ?? 0;
      return seconds >= limits.minSeconds && seconds <= limits.maxSeconds;
    }, error);

export const notificationPolicyInputSchema = z.object({
  /** HH:mm:ss, or null: never repeat. */
  repeatEvery: span(NOTIFICATION_REPEAT_LIMITS, NOTIFICATION_POLICY_MESSAGES.repeatInvalid).nullable(),
  /** Null (or left out): every match notifies on its own. */
  groupBy: z
    .enum(NOTIFICATION_GROUP_BY, { error: NOTIFICATION_POLICY_MESSAGES.groupByInvalid })
    .nullable()
    .default(null),
  /** How long the first match of a group waits for others (left out: 30 seconds). */
  groupWait: span(NOTIFICATION_GROUP_WAIT_LIMITS, NOTIFICATION_POLICY_MESSAGES.groupWaitInvalid).default(
    DEFAULT_GROUP_WAIT,
  ),
});
export type NotificationPolicyInput = z.input<typeof notificationPolicyInputSchema>;

export const notificationPolicySchema = z.object({
  tenantId: z.uuid(),
  repeatEvery: z.string().nullable(),
  groupBy: z.enum(NOTIFICATION_GROUP_BY).nullable(),
  groupWait: z.string(),
  /** When and by whom it was last changed; null for a tenant that never had one. */
  modified: z.date().nullable(),
  modifiedBy: z.string().nullable(),
});
export type NotificationPolicy = z.infer<typeof notificationPolicySchema>;
