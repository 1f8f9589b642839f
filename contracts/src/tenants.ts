import { z } from 'zod';
import { guid, requiredText } from './fields.js';
import {
  TENANT_MESSAGES,
  VERSION_POLICY_DAYS_MESSAGE,
  VERSION_POLICY_MAX_DAYS,
  customFieldColumns,
  type CustomFieldColumn,
} from './values/tenants.js';
/** The tenants' values (messages, custom field columns) live beside, free of the schema library. */
export * from './values/tenants.js';

/** One custom work unit field definition, stored as JSON in workUnitFieldN (spec 001 §3). */
export const customFieldSchema = z
  .object({
    Name: z.string().trim().min(1, TENANT_MESSAGES.customFieldNameRequired).max(100),
    Type: z.union([z.literal(1), z.literal(2)]),
    Options: z.string().max(4000).optional().default(''),
  })
  .refine((field) => field.Type !== 2 || field.Options.split(',').some((option) => option.trim()), {
    message: TENANT_MESSAGES.customFieldOptionsRequired,
    path: ['Options'],
  });
export type CustomField = z.infer<typeof customFieldSchema>;

const customFieldText = z.string().max(5000).nullable().optional();
/** `{ workUnitField1: schema, …, workUnitField15: schema }` with each key typed. */
function perCustomField<S extends z.ZodType>(schema: S): Record<CustomFieldColumn, S> {
  return Object.fromEntries(customFieldColumns.map((column) => [column, schema])) as Record<CustomFieldColumn, S>;
}

export const tenantSchema = z.object({
  tenantId: z.uuid(),
  name: z.string(),
  internalNotificationEmailAddress: z.string().nullable(),
  enabled: z.boolean(),
  assignmentGroups: z.string(),
  intakeWizardSchema: z.string().nullable(),
  /** The version policy: devices run the Latest version of each package within this many days of its release; null is none. */
  versionPolicyDays: z.number().int().nullable(),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
  ...perCustomField(z.string().nullable()),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** Create (PUT v1/tenants) and update (POST v1/tenants/{id}) bodies. */
export const tenantInputSchema = z.object({
  name: requiredText(TENANT_MESSAGES.nameRequired, 200),
  internalNotificationEmailAddress: z
    .union([z.email(TENANT_MESSAGES.invalidEmail), z.literal('')])
    .nullable()
    .optional(),
  enabled: z.boolean().optional(),
  assignmentGroups: z.string().max(4000).optional(),
  intakeWizardSchema: z.string().max(500_000).nullable().optional(),
  versionPolicyDays: z
    .number({ error: VERSION_POLICY_DAYS_MESSAGE })
    .int(VERSION_POLICY_DAYS_MESSAGE)
    .min(0, VERSION_POLICY_DAYS_MESSAGE)
    .max(VERSION_POLICY_MAX_DAYS, VERSION_POLICY_DAYS_MESSAGE)
    .nullable()
    .optional(),
  ...perCustomField(customFieldText),
});
export type TenantInput = z.infer<typeof tenantInputSchema>;

/**
 * GET v1/tenants/{id}/intakewizardschema: the tenant's intake wizard form, a JSON Schema object
 * (checked when it is saved), or null when the tenant has none.
 */
export const intakeWizardSchemaAnswerSchema = z.record(z.string(), z.unknown()).nullable();

export const subscriptionSchema = z.object({
  subscriptionId: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  created: z.date(),
  modified: z.date(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionInputSchema = z.object({
  tenantId: guid('Please choose a tenant.'),
  name: requiredText(TENANT_MESSAGES.nameRequired, 200),
});
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;

/** A named secret of a tenant; values never appear in lists. */
export const tenantSecretSchema = z.object({
  secretId: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  latestVersion: z.number().int(),
  created: z.date(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
});
export type TenantSecret = z.infer<typeof tenantSecretSchema>;

export const tenantSecretValueSchema = z.object({
  secretId: z.uuid(),
  name: z.string(),
  version: z.number().int(),
  value: z.string(),
  created: z.date(),
});
export type TenantSecretValue = z.infer<typeof tenantSecretValueSchema>;

export const SECRET_NAME_MESSAGE = 'Please enter a secret name (letters, digits, dots, dashes and underscores).';
export const SECRET_VALUE_MESSAGE = 'Please enter the secret value.';

export const tenantSecretInputSchema = z.object({
  name: z
    .string({ error: SECRET_NAME_MESSAGE })
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, SECRET_NAME_MESSAGE),
  value: z.string({ error: SECRET_VALUE_MESSAGE }).min(1, SECRET_VALUE_MESSAGE).max(16_000),
});
export const tenantSecretVersionInputSchema = tenantSecretInputSchema.pick({ value: true });
