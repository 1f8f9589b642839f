import { describe, expect, it } from 'vitest';
import { workUnitInputSchema } from '@cfs/contracts/work-units';
import { WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { assignmentGroupPrompt, blankWorkUnit, categoriesFor, subcategoriesFor } from './work-unit-form-values';

const CONTOSO = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';
const FABRIKAM = '8e7d6c5b-4a3f-4e2d-8c1b-0a9f8e7d6c5b';

describe('a blank work unit', () => {
  it('starts as Sev0 and New in the given tenant and type', () => {
    const unit = blankWorkUnit(CONTOSO, 2);
    expect(unit).toMatchObject({ severityId: 0, stateId: 1, tenantId: CONTOSO, workUnitTypeId: 2, title: '' });
  });

  it('asks for a title with "Please enter the title"', () => {
    const result = workUnitInputSchema.safeParse(blankWorkUnit(CONTOSO, 1));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(WORK_UNIT_MESSAGES.titleRequired);
  });

  it('as a change request asks for the change request fields', () => {
    const result = workUnitInputSchema.safeParse({ ...blankWorkUnit(CONTOSO, 2), title: 'Patch the database' });
    const messages = result.error?.issues.map((issue) => issue.message) ?? [];
    expect(messages).toEqual(
      expect.arrayContaining([
        WORK_UNIT_MESSAGES.implementationPlanRequired,
        WORK_UNIT_MESSAGES.approver1Required,
        WORK_UNIT_MESSAGES.plannedStartRequired,
      ]),
    );
  });
});

describe('the category lookups', () => {
  const categories = [
    { workUnitCategoryId: 1, name: 'Hardware', tenantId: CONTOSO, workUnitTypeId: 1 },
    { workUnitCategoryId: 2, name: 'Releases', tenantId: CONTOSO, workUnitTypeId: 2 },
    { workUnitCategoryId: 3, name: 'Hardware', tenantId: FABRIKAM, workUnitTypeId: 1 },
  ];
  it("offers the categories of the unit's tenant and type", () => {
    expect(categoriesFor(categories, CONTOSO, 1).map((category) => category.workUnitCategoryId)).toEqual([1]);
    expect(categoriesFor(categories, FABRIKAM, 2)).toEqual([]);
  });
  it('offers the subcategories of the chosen category only', () => {
    const subs = [
      { workUnitSubcategoryId: 10, workUnitCategoryId: 1, name: 'Keyboard' },
      { workUnitSubcategoryId: 11, workUnitCategoryId: 2, name: 'Hotfix' },
    ];
    expect(subcategoriesFor(subs, 1).map((sub) => sub.name)).toEqual(['Keyboard']);
    expect(subcategoriesFor(subs, null)).toEqual([]);
  });
});

describe('changing the assignment group (spec 001 §4)', () => {
  it('offers to clear the assignee and set New when the state is not New and someone is assigned', () => {
    expect(assignmentGroupPrompt({ isNew: false, stateId: 3, assignedTo: 'operator@cfs.example' })).toBe(
      'clearAssigneeAndSetNew',
    );
  });
  it('offers to clear the assignee only when the state is New and someone is assigned', () => {
    expect(assignmentGroupPrompt({ isNew: false, stateId: 1, assignedTo: 'operator@cfs.example' })).toBe(
      'clearAssignee',
    );
  });
  it('asks nothing for a new unit or an unassigned one', () => {
    expect(assignmentGroupPrompt({ isNew: true, stateId: 1, assignedTo: 'operator@cfs.example' })).toBeNull();
    expect(assignmentGroupPrompt({ isNew: false, stateId: 3, assignedTo: null })).toBeNull();
    expect(assignmentGroupPrompt({ isNew: false, stateId: 3, assignedTo: ' ' })).toBeNull();
  });
});
