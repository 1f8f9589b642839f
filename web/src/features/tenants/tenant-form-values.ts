import type { Path } from 'react-hook-form';
import { z } from 'zod';
import {
  customFieldSchema,
  tenantInputSchema,
  type CustomField,
  type CustomFieldColumn,
  type TenantInput,
} from '@cfs/contracts/tenants';
import {
  CUSTOM_FIELD_COUNT,
  CUSTOM_FIELD_TYPES,
  customFieldColumns,
  TENANT_MESSAGES,
  VERSION_POLICY_DAYS_MESSAGE,
  VERSION_POLICY_MAX_DAYS,
} from '@cfs/contracts/values/tenants';

/**
 * The tenant drawer's form (spec 001 §2 Tenants, §3 Tenant, §5 Tenant) and its mapping to and
 * from the API's tenant: assignment groups as chips over the comma text, the fifteen
 * `workUnitFieldN` JSON texts as rows of the Additional Fields tab, the intake wizard schema as
 * JSON text.
 */

export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[keyof typeof CUSTOM_FIELD_TYPES];

/** One row of Additional Fields: which column it is stored in, and its definition. */
export interface CustomFieldRow {
  column: CustomFieldColumn | null;
  Name: string;
  Type: CustomFieldType;
  Options: string;
}

export interface TenantFormValues {
  name: string;
  internalNotificationEmailAddress: string;
  enabled: boolean;
  assignmentGroups: string[];
  customFields: CustomFieldRow[];
  intakeWizardSchema: string;
  /** Days as typed; empty is no version policy. */
  versionPolicyDays: string;
}

/** The tenant fields the form reads; the API's tenant has these and more. */
export type TenantFormSource = Pick<
  TenantInput,
  | 'name'
  | 'internalNotificationEmailAddress'
  | 'enabled'
  | 'assignmentGroups'
  | 'intakeWizardSchema'
  | 'versionPolicyDays'
> &
  Partial<Record<CustomFieldColumn, string | null>>;

export const emptyCustomFieldRow: CustomFieldRow = {
  column: null,
  Name: '',
  Type: CUSTOM_FIELD_TYPES.Textbox,
  Options: '',
};

export function isCustomFieldColumn(text: unknown): text is CustomFieldColumn {
  return typeof text === 'string' && (customFieldColumns as readonly string[]).includes(text);
}

/**
 * Reads one stored definition. Text that is not a definition still becomes a row (name kept
 * when there is one) so that the user sees the slot is taken and can fix or remove it.
 */
export function parseCustomField(text: string): Pick<CustomFieldRow, 'Name' | 'Type' | 'Options'> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { Name: '', Type: CUSTOM_FIELD_TYPES.Textbox, Options: '' };
  }
  const record = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  return {
    Name: typeof record.Name === 'string' ? record.Name : '',
    Type: record.Type === CUSTOM_FIELD_TYPES.Dropdown ? CUSTOM_FIELD_TYPES.Dropdown : CUSTOM_FIELD_TYPES.Textbox,
    Options: typeof record.Options === 'string' ? record.Options : '',
  };
}

/** The rows of the stored columns, in column order. */
export function customFieldRowsFromTenant(tenant: Partial<Record<CustomFieldColumn, string | null>>): CustomFieldRow[] {
  return customFieldColumns.flatMap((column) => {
    const text = tenant[column];
    return text ? [{ column, ...parseCustomField(text) }] : [];
  });
}

/** Every column's JSON text (null for an unused column), as `PUT`/`POST v1/tenants` take them. */
export function customFieldColumnsFromRows(rows: readonly CustomFieldRow[]): Record<CustomFieldColumn, string | null> {
  const columns = Object.fromEntries(customFieldColumns.map((column) => [column, null])) as Record<
    CustomFieldColumn,
    string | null
  >;
  for (const row of rows) {
    if (!row.column) continue;
    const field: CustomField = {
      Name: row.Name.trim(),
      Type: row.Type,
      Options: row.Type === CUSTOM_FIELD_TYPES.Dropdown ? normaliseOptions(row.Options) : '',
    };
    columns[row.column] = JSON.stringify(field);
  }
  return columns;
}

function normaliseOptions(options: string): string {
  return options
    .split(',')
    .map((option) => option.trim())
    .filter(Boolean)
    .join(',');
}

/** The comma text of assignment groups as chips, and back. */
export function splitAssignmentGroups(text: string | null | undefined): string[] {
  return [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((group) => group.trim())
        .filter(Boolean),
    ),
  ];
}

export function joinAssignmentGroups(groups: readonly string[]): string {
  return groups
    .map((group) => group.trim())
    .filter(Boolean)
    .join(',');
}

export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function tenantFormValues(tenant: TenantFormSource | undefined): TenantFormValues {
  if (!tenant) {
    return {
      name: '',
      internalNotificationEmailAddress: '',
      enabled: true,
      assignmentGroups: [],
      customFields: [],
      intakeWizardSchema: '',
      versionPolicyDays: '',
    };
  }
  return {
    name: tenant.name,
    internalNotificationEmailAddress: tenant.internalNotificationEmailAddress ?? '',
    enabled: tenant.enabled ?? true,
    assignmentGroups: splitAssignmentGroups(tenant.assignmentGroups),
    customFields: customFieldRowsFromTenant(tenant),
    intakeWizardSchema: tenant.intakeWizardSchema ?? '',
    versionPolicyDays:
      tenant.versionPolicyDays === null || tenant.versionPolicyDays === undefined
        ? ''
        : String(tenant.versionPolicyDays),
  };
}

export function toTenantInput(values: TenantFormValues): TenantInput {
  const email = values.internalNotificationEmailAddress.trim();
  const schema = values.intakeWizardSchema.trim();
  return {
    name: values.name.trim(),
    internalNotificationEmailAddress: email === '' ? null : email,
    enabled: values.enabled,
    assignmentGroups: joinAssignmentGroups(values.assignmentGroups),
    intakeWizardSchema: schema === '' ? null : schema,
    versionPolicyDays: values.versionPolicyDays.trim() === '' ? null : Number(values.versionPolicyDays),
    ...customFieldColumnsFromRows(values.customFields),
  };
}

const customFieldRowSchema = z.object({
  // Checked with the list (requireColumnAndOptions): a failed check here would hold back the list's checks.
  column: z.custom<CustomFieldColumn | null>(),
  Name: customFieldSchema.shape.Name,
  Type: customFieldSchema.shape.Type,
  Options: z.string(),
});

/**
 * A chosen column, and the contract's own rule of a definition (a dropdown needs options), per
 * row. Checked over the whole list so that every message shows at once: zod runs a refinement
 * only once the checks before it pass.
 */
function requireColumnAndOptions(
  rows: readonly { column: string | null; Name: string; Type: number; Options: string }[],
  context: z.RefinementCtx,
): void {
  rows.forEach((row, index) => {
    if (!isCustomFieldColumn(row.column))
      context.addIssue({ code: 'custom', message: TENANT_MESSAGES.customFieldColumnRequired, path: [index, 'column'] });
    const checked = customFieldSchema.safeParse({ Name: row.Name || '-', Type: row.Type, Options: row.Options });
    for (const issue of checked.error?.issues ?? []) {
      if (issue.path[0] === 'Options')
        context.addIssue({ code: 'custom', message: issue.message, path: [index, 'Options'] });
    }
  });
}

/** The same column twice, or the same name twice (case-insensitive): both rows are marked. */
function rejectDuplicates(rows: readonly { column: string | null; Name: string }[], context: z.RefinementCtx): void {
  const mark = (key: (row: { column: string | null; Name: string }) => string | null, field: 'column' | 'Name') => {
    const seen = new Map<string, number>();
    rows.forEach((row, index) => {
      const value = key(row);
      if (!value) return;
      const first = seen.get(value);
      if (first === undefined) {
        seen.set(value, index);
        return;
      }
      for (const at of first === index ? [index] : [first, index]) {
        context.addIssue({ code: 'custom', message: TENANT_MESSAGES.duplicateCustomFields, path: [at, field] });
      }
    });
  };
  mark((row) => row.column, 'column');
  mark((row) => row.Name.trim().toLowerCase() || null, 'Name');
}

/** The form's validation: the contract's tenant rules plus the Additional Fields and intake rules of spec 001 §5. */
export const tenantFormSchema = z.object({
  name: tenantInputSchema.shape.name,
  internalNotificationEmailAddress: z.union([z.email(TENANT_MESSAGES.invalidEmail), z.literal('')]),
  enabled: z.boolean(),
  assignmentGroups: z.array(z.string()),
  customFields: z
    .array(customFieldRowSchema)
    .max(CUSTOM_FIELD_COUNT)
    .superRefine(requireColumnAndOptions)
    .superRefine(rejectDuplicates),
  intakeWizardSchema: z
    .string()
    .refine((text) => text.trim() === '' || isJsonText(text), TENANT_MESSAGES.intakeSchemaNotJson),
  versionPolicyDays: z
    .string()
    .refine(
      (text) => text.trim() === '' || (/^\d+$/.test(text.trim()) && Number(text) <= VERSION_POLICY_MAX_DAYS),
      VERSION_POLICY_DAYS_MESSAGE,
    ),
});

/** The tabs of the drawer and the form fields each holds, to point at a tab with errors. */
export const TENANT_FORM_TABS = {
  details: ['name', 'internalNotificationEmailAddress', 'enabled', 'assignmentGroups', 'versionPolicyDays'],
  fields: ['customFields'],
  intake: ['intakeWizardSchema'],
} as const satisfies Record<string, readonly (keyof TenantFormValues)[]>;
export type TenantFormTab = keyof typeof TENANT_FORM_TABS;

/**
 * Where a server field's text goes: `workUnitFieldN` onto the name of the row stored in column N
 * (the server checks names, options and duplicates there), the rest onto the field of that name.
 */
export function tenantServerErrorPath(
  rows: readonly CustomFieldRow[],
  serverField: string,
): Path<TenantFormValues> | undefined {
  if (isCustomFieldColumn(serverField)) {
    const index = rows.findIndex((row) => row.column === serverField);
    return index >= 0 ? `customFields.${index}.Name` : 'customFields';
  }
  return isTenantFormField(serverField) ? serverField : undefined;
}

const TENANT_FORM_FIELDS: Record<keyof TenantFormValues, true> = {
  name: true,
  internalNotificationEmailAddress: true,
  enabled: true,
  assignmentGroups: true,
  customFields: true,
  intakeWizardSchema: true,
  versionPolicyDays: true,
};

function isTenantFormField(text: string): text is keyof TenantFormValues {
  return Object.hasOwn(TENANT_FORM_FIELDS, text);
}
