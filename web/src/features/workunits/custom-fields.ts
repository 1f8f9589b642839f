import { customFieldColumns, customFieldOptions, CUSTOM_FIELD_TYPES } from '@cfs/contracts/values/tenants';
import { customValueFields, type CustomValueField } from '@cfs/contracts/values/work-units';
import type { CustomField } from '@cfs/contracts/tenants';

/** One of the tenant's additional fields, shown as customValueN (spec 001 §2 "Work unit panel", §3 Tenant). */
export interface CustomFieldDefinition {
  valueField: CustomValueField;
  name: string;
  /** The options of a Dropdown; null for a Textbox. */
  options: string[] | null;
}

/**
 * A stored definition as the tenant form saved it (`customFieldSchema`), or nothing. Read here
 * with plain checks: the work units list shows these columns on its first paint, before the
 * schema library has loaded.
 */
function readCustomField(raw: unknown): CustomField | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { Name, Type, Options = '' } = raw as Record<string, unknown>;
  if (typeof Name !== 'string' || Name.trim() === '' || Name.trim().length > 100) return undefined;
  if (Type !== CUSTOM_FIELD_TYPES.Textbox && Type !== CUSTOM_FIELD_TYPES.Dropdown) return undefined;
  if (typeof Options !== 'string' || Options.length > 4000) return undefined;
  const field = { Name: Name.trim(), Type, Options };
  return Type === CUSTOM_FIELD_TYPES.Dropdown && customFieldOptions(field).length === 0 ? undefined : field;
}

/**
 * The tenant's custom field definitions, workUnitFieldN → customValueN, in slot order. A slot
 * that is empty or not a valid definition is left out.
 */
export function customFieldDefinitions(
  tenant: Partial<Record<(typeof customFieldColumns)[number], string | null>> | undefined,
): CustomFieldDefinition[] {
  if (!tenant) return [];
  return customFieldColumns.flatMap((column, index) => {
    const text = tenant[column];
    if (!text) return [];
    let field: CustomField | undefined;
    try {
      field = readCustomField(JSON.parse(text));
    } catch {
      return [];
    }
    const valueField = customValueFields[index];
    if (!field || !valueField) return [];
    const options = field.Type === CUSTOM_FIELD_TYPES.Dropdown ? customFieldOptions(field) : null;
    return [{ valueField, name: field.Name, options }];
  });
}
