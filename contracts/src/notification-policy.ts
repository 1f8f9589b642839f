import { z } from 'zod';
import { INTERVAL_PATTERN, intervalSeconds } from './device-operations.js';

/**
 * A tenant's notification policy (docs/features/rules.md "Repeat notifications"): the notifying
 * match actions of an open match (Send Email, HTTP calls; not Set Colour or Create Work Unit) run
 * again every `repeatEvery` while nobody has acknowledged it, it is not silenced or in
 * maintenance, and it has not closed. GET and PUT v1/notificationpolicy/{tenantId}.
 */
export const NOTIFICATION_POLICY_MESSAGES = {
  repeatInvalid: 'Repeat every must be a time span (HH:mm:ss) from 1 minute to 7 days.',
  saved: 'Notification policy saved.',
} as const;

/** The choices the Rules page offers; the API takes any span from a minute to a week. */
export const NOTIFICATION_REPEAT_CHOICES = ['00:15:00', '00:30:00', '01:00:00', '04:00:00', '24:00:00'] as const;
export const NOTIFICATION_REPEAT_LIMITS = { minSeconds: 60, maxSeconds: 7 * 86_400 } as const;

export const notificationPolicyInputSchema = z.object({
  /** HH:mm:ss, or null: never repeat. */
  repeatEvery: z
    .string({ error: NOTIFICATION_POLICY_MESSAGES.repeatInvalid })
    .trim()
    .regex(INTERVAL_PATTERN, { error: NOTIFICATION_POLICY_MESSAGES.repeatInvalid, abort: true })
    .refine((text) => {
      const seconds = intervalSeconds(text) ?? 0;
      return seconds >= NOTIFICATION_REPEAT_LIMITS.minSeconds && seconds <= NOTIFICATION_REPEAT_LIMITS.maxSeconds;
    }, NOTIFICATION_POLICY_MESSAGES.repeatInvalid)
    .nullable(),
});
export type NotificationPolicyInput = z.input<typeof notificationPolicyInputSchema>;

export const notificationPolicySchema = z.object({
  tenantId: z.uuid(),
  repeatEvery: z.string().nullable(),
  /** When and by whom it was last changed; null for a tenant that never had one. */
  modified: z.date().nullable(),
  modifiedBy: z.string().nullable(),
});
export type NotificationPolicy = z.infer<typeof notificationPolicySchema>;
