import type { WorkUnitFields } from '@cfs/contracts/work-units';
import { SEVERITIES, WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
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
