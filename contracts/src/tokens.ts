import { z } from 'zod';
import { guid, requiredText } from './fields.js';

/** API tokens of a tenant (spec 001 §3 Token grant; §4 Token; §5; §7 Tokens; §8). */
export const TOKEN_MESSAGES = {
  saveFailed: 'A problem occurred saving the token. Please try again.',
  /** Not in the spec, which names the failure only. */
  created: 'Token created.',
  saved: 'Token saved.',
  /** Asked before the drawer showing a just-created token closes: the one time it can be seen. */
  closeWhileShown: 'This token cannot be viewed again once the panel closes. Are you sure you want to close?',
  nameRequired: 'Please enter a name.',
  lifetimeRequired: 'Please choose a lifetime.',
  shownOnce: 'Copy this token now. It cannot be viewed again after you leave this page.',
  revokeConfirm: 'Are you sure you want to revoke this token? Machines using it will be refused at once.',
} as const;

/** Lifetime in years; 0 is Forever (spec 001 §9). */
export const TOKEN_LIFETIMES = [
  { value: 1, label: '1 year' },
  { value: 2, label: '2 years' },
  { value: 3, label: '3 years' },
  { value: 0, label: 'Forever' },
] as const;

export const tokenGrantSchema = z.object({
  tokenGrantId: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  lifetimeYears: z.number().int(),
  created: z.date(),
  createdBy: z.string().nullable(),
  expiresOn: z.date().nullable(),
  revokedOn: z.date().nullable(),
  /** The token's recognisable start, e.g. `cfs_3kT9ab`, to tell tokens apart; never the token. */
  tokenPrefix: z.string(),
});
export type TokenGrant = z.infer<typeof tokenGrantSchema>;

export const tokenStatus = (grant: Pick<TokenGrant, 'revokedOn'>): 'Active' | 'Revoked' =>
  grant.revokedOn ? 'Revoked' : 'Active';

export const tokenCreateSchema = z.object({
  tenantId: guid('Please choose a tenant.'),
  name: requiredText(TOKEN_MESSAGES.nameRequired, 200),
  description: z.string().max(2000).nullable().optional(),
  lifetimeYears: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
    error: TOKEN_MESSAGES.lifetimeRequired,
  }),
});
export type TokenCreate = z.infer<typeof tokenCreateSchema>;

export const tokenUpdateSchema = tokenCreateSchema.pick({ name: true, description: true });
export type TokenUpdate = z.infer<typeof tokenUpdateSchema>;

export const generatedTokenSchema = tokenGrantSchema.extend({ generatedToken: z.string() });
export type GeneratedToken = z.infer<typeof generatedTokenSchema>;
