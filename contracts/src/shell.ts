import { z } from 'zod';
import { guid } from './fields.js';
/** The shell's values live beside, free of the schema library. */
export * from './values/shell.js';

/** Shapes of the shell's calls (spec 000 §3 and §7). */
export const oidcClientConfigSchema = z.object({
  authority: z.string(),
  clientId: z.string(),
  /** Maximum sign-in age in seconds; the browser signs the user out past it. */
  lifetime: z.number().int().positive(),
  /** Scopes the browser asks for. */
  scope: z.string(),
});
export type OidcClientConfig = z.infer<typeof oidcClientConfigSchema>;

export const currentUserSchema = z.object({
  name: z.string(),
  userName: z.string(),
  email: z.string().nullable(),
  tenantId: z.uuid().nullable(),
  subscriptionId: z.uuid().nullable(),
  /** Names of the user's assignment groups: the work units grid's "My groups" view. */
  groups: z.array(z.string()),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const permissionListSchema = z.array(z.string());

export const tenantLookupSchema = z.object({ tenantId: z.uuid(), name: z.string() });
export type TenantLookup = z.infer<typeof tenantLookupSchema>;

export const subscriptionLookupSchema = z.object({
  subscriptionId: z.uuid(),
  name: z.string(),
  tenantId: z.uuid(),
});
export type SubscriptionLookup = z.infer<typeof subscriptionLookupSchema>;

export const workUnitTypeLookupSchema = z.object({ workUnitTypeId: z.number().int(), name: z.string() });
export type WorkUnitTypeLookup = z.infer<typeof workUnitTypeLookupSchema>;

export const environmentSchema = z.object({
  environmentName: z.string(),
  environmentColor: z.string(),
  licenseExpiration: z.iso.datetime({ offset: true }).nullable(),
});
export type EnvironmentInfo = z.infer<typeof environmentSchema>;

export const versionSchema = z.object({ version: z.string() });

/**
 * GET /v1/session: what the shell needs before it paints, in one answer (the same as the
 * permissions, current user, tenants, subscriptions, environment and version calls each give).
 */
export const sessionStartSchema = z.object({
  permissions: permissionListSchema,
  currentUser: currentUserSchema,
  tenants: z.array(tenantLookupSchema),
  subscriptions: z.array(subscriptionLookupSchema),
  environment: environmentSchema,
  version: z.string(),
});
export type SessionStart = z.infer<typeof sessionStartSchema>;

export const tenantSubscriptionContextSchema = z.object({
  tenant: guid('Please choose a tenant.'),
  subscriptionId: guid('Please choose a subscription.'),
});
export type TenantSubscriptionContext = z.infer<typeof tenantSubscriptionContextSchema>;

export const personSchema = z.object({ displayName: z.string(), mail: z.string() });
export type Person = z.infer<typeof personSchema>;

/** Who a stored user name or mail (`key`) is: records keep either, people see "displayName (mail)". */
export const personNameSchema = z.object({ key: z.string(), displayName: z.string(), mail: z.string().nullable() });
export type PersonName = z.infer<typeof personNameSchema>;

export const namedOptionSchema = z.object({ id: z.number().int(), name: z.string() });
export type NamedOption = z.infer<typeof namedOptionSchema>;
