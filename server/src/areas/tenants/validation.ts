import {
  TENANT_MESSAGES,
  customFieldColumns,
  customFieldSchema,
  type CustomFieldColumn,
  type TenantInput,
} from '@cfs/contracts/tenants';
import { schemaProblems } from '../../http/json-schema.js';

type FieldErrors = Record<string, string[]>;

/**
 * Custom work unit fields (spec 001 §3, §5): each slot holds `{Name, Type, Options}` as JSON;
 * a dropdown needs options; two fields may not share a name ("Can not have duplicate custom
 * fields."). Blank slots are stored as null.
 */
export function normalizeCustomFields(
  input: TenantInput,
  errors: FieldErrors,
  stored: Partial<Record<CustomFieldColumn, string | null>> = {},
): Partial<Record<CustomFieldColumn, string | null>> {
  const normalized: Partial<Record<CustomFieldColumn, string | null>> = {};
  const seen = new Map<string, CustomFieldColumn>();
  for (const column of customFieldColumns) {
    // A field the request leaves out keeps its stored definition, and still counts for duplicates.
    const sent = input[column];
    const text = sent === undefined ? stored[column] : sent;
    if (text === undefined) continue;
    if (text === null || text.trim() === '') {
      if (sent !== undefined) normalized[column] = null;
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      (errors[column] ??= []).push('The custom field definition must be JSON.');
      continue;
    }
    const field = customFieldSchema.safeParse(parsed);
    if (!field.success) {
      (errors[column] ??= []).push(...field.error.issues.map((issue) => issue.message));
      continue;
    }
    const key = field.data.Name.trim().toLowerCase();
    if (seen.has(key)) (errors[column] ??= []).push(TENANT_MESSAGES.duplicateCustomFields);
    seen.set(key, column);
    if (sent !== undefined)
      normalized[column] = JSON.stringify({
        Name: field.data.Name.trim(),
        Type: field.data.Type,
        Options: field.data.Type === 2 ? field.data.Options : '',
      });
  }
  return normalized;
}

/** The intake wizard's form must be JSON and a JSON Schema the wizard can render. */
export function normalizeIntakeSchema(text: string | null | undefined, errors: FieldErrors): string | null | undefined {
  if (text === undefined) return undefined;
  if (text === null || text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    (errors.intakeWizardSchema ??= []).push(`${TENANT_MESSAGES.intakeSchemaNotJson} ${(error as Error).message}`);
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    (errors.intakeWizardSchema ??= []).push('The intake wizard form must be a JSON Schema object.');
    return undefined;
  }
  const problems = schemaProblems(parsed);
  if (problems.length > 0) {
    (errors.intakeWizardSchema ??= []).push(
      `The intake wizard form is not a valid JSON Schema: ${problems.join('; ')}`,
    );
    return undefined;
  }
  return JSON.stringify(parsed, null, 2);
}
