import { customFieldColumns, customFieldOptions, customFieldSchema, CUSTOM_FIELD_TYPES } from '@cfs/contracts/tenants';
import {
  customValueFields,
  SEVERITIES,
  WORK_UNIT_STATES,
  type CustomValueField,
  type WorkUnitFields,
} from '@cfs/contracts/work-units';
import { editableDocument } from './work-unit-patch';

/** The work unit form's values: the editable fields of the contracts (validated by `workUnitInputSchema`). */
export type WorkUnitFormValues = WorkUnitFields;

/** A blank unit of a type for the route's tenant: Sev0 and New (spec 001 §2, §4). */
export function blankWorkUnit(tenantId: string, workUnitTypeId: number): WorkUnitFormValues {
  return {
    ...formValuesOf({}),
    title: '',
    severityId: SEVERITIES.Sev0,
    stateId: WORK_UNIT_STATES.New,
    tenantId,
    workUnitTypeId,
  };
}

/** The form's values of a saved unit: every editable field present, nulls for the empty ones. */
export function formValuesOf(unit: Partial<WorkUnitFields>): WorkUnitFormValues {
  // editableDocument fills every field of the schema; the values are the unit's own.
  return editableDocument(unit) as unknown as WorkUnitFormValues;
}

export interface CategoryOption {
  workUnitCategoryId: number;
  name: string;
  tenantId: string;
  workUnitTypeId: number;
}

export interface SubcategoryOption {
  workUnitSubcategoryId: number;
  workUnitCategoryId: number;
  name: string;
}

/** The categories of the unit's tenant and type (spec 001 §2: "category/subcategory from the lookups"). */
export function categoriesFor<C extends CategoryOption>(
  categories: readonly C[],
  tenantId: string | null | undefined,
  workUnitTypeId: number | null | undefined,
): C[] {
  return categories.filter((category) => category.tenantId === tenantId && category.workUnitTypeId === workUnitTypeId);
}

export function subcategoriesFor<S extends SubcategoryOption>(
  subcategories: readonly S[],
  workUnitCategoryId: number | null | undefined,
): S[] {
  return workUnitCategoryId === null || workUnitCategoryId === undefined
    ? []
    : subcategories.filter((sub) => sub.workUnitCategoryId === workUnitCategoryId);
}

/** One of the tenant's additional fields, shown as customValueN (spec 001 §2 "Work unit panel", §3 Tenant). */
export interface CustomFieldDefinition {
  valueField: CustomValueField;
  name: string;
  /** The options of a Dropdown; null for a Textbox. */
  options: string[] | null;
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
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return [];
    }
    const parsed = customFieldSchema.safeParse(raw);
    if (!parsed.success) return [];
    const valueField = customValueFields[index];
    if (!valueField) return [];
    const options = parsed.data.Type === CUSTOM_FIELD_TYPES.Dropdown ? customFieldOptions(parsed.data) : null;
    return [{ valueField, name: parsed.data.Name, options }];
  });
}

/**
 * What changing the assignment group of an existing unit offers (spec 001 §4): with someone
 * assigned, clear the assignee and set New when the state is not New, or clear the assignee
 * only when it is New. Nothing for a new unit or an unassigned one.
 */
export type AssignmentGroupPrompt = 'clearAssigneeAndSetNew' | 'clearAssignee';

export function assignmentGroupPrompt(unit: {
  isNew: boolean;
  stateId: number;
  assignedTo: string | null | undefined;
}): AssignmentGroupPrompt | null {
  if (unit.isNew || !unit.assignedTo?.trim()) return null;
  return unit.stateId === WORK_UNIT_STATES.New ? 'clearAssignee' : 'clearAssigneeAndSetNew';
}

export const ASSIGNMENT_GROUP_PROMPT_TEXTS: Record<AssignmentGroupPrompt, string> = {
  clearAssigneeAndSetNew: 'The assignment group changed. Do you want to clear the assignee and set the state to New?',
  clearAssignee: 'The assignment group changed. Do you want to clear the assignee?',
};
