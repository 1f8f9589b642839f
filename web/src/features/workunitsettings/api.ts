import { useQuery } from '@tanstack/react-query';
import {
  CATEGORY_MESSAGES,
  type WorkUnitCategory as WorkUnitCategoryEntity,
  type WorkUnitCategoryInput,
  type WorkUnitSubcategory as WorkUnitSubcategoryEntity,
  type WorkUnitSubcategoryInput,
  type WorkUnitType as WorkUnitTypeEntity,
} from '@cfs/contracts/work-unit-settings';
import { apiSend } from '../../lib/api-client';
import { pathId } from '../../lib/ids';
import type { JsonOf } from '../../lib/json-types';
import { listItemQueryOptions, listQueryKey } from '../../lib/list-api';
import { literal } from '@cfs/contracts/values/odata';
import { lookupKeys } from '../../lib/lookups';
import { useApiMutation } from '../../lib/mutations';

/** Work unit categories, subcategories and types (spec 001 §7 Categories, Subcategories). */
export const CATEGORIES_PATH = '/v1/workunitcategories';
export const SUBCATEGORIES_PATH = '/v1/workunitsubcategories';
export const WORK_UNIT_TYPES_PATH = '/v1/workunittypes';
export const CATEGORY_EXPAND = 'tenant,workUnitType';

export type WorkUnitCategory = JsonOf<WorkUnitCategoryEntity> & {
  tenant?: { tenantId: string; name: string } | null;
  workUnitType?: { workUnitTypeId: number; name: string } | null;
};
export type WorkUnitSubcategory = JsonOf<WorkUnitSubcategoryEntity>;
export type WorkUnitType = JsonOf<WorkUnitTypeEntity>;

/** One category with its tenant and type, read through the list (no single-category call in spec 001 §7). */
export function useCategory(id: number | null) {
  return useQuery({
    ...listItemQueryOptions<WorkUnitCategory>(CATEGORIES_PATH, `workUnitCategoryId eq ${literal(id)}`, {
      expand: CATEGORY_EXPAND,
    }),
    enabled: id !== null,
  });
}

/** One work unit type, read through the list. */
export function useWorkUnitType(id: number | null) {
  return useQuery({
    ...listItemQueryOptions<WorkUnitType>(WORK_UNIT_TYPES_PATH, `workUnitTypeId eq ${literal(id)}`),
    enabled: id !== null,
  });
}

/** `PUT v1/workunitcategories` or `POST v1/workunitcategories/{id}`; the work unit form offers categories by the lookup. */
export function useSaveCategory(id: number | 'new') {
  return useApiMutation({
    mutationFn: (input: WorkUnitCategoryInput) =>
      id === 'new'
        ? apiSend<WorkUnitCategory>('PUT', CATEGORIES_PATH, input)
        : apiSend<WorkUnitCategory>('POST', `${CATEGORIES_PATH}/${pathId(id)}`, input),
    invalidate: [listQueryKey(CATEGORIES_PATH), lookupKeys.categories],
    errorMessage: CATEGORY_MESSAGES.categorySaveFailed,
  });
}

/** `PUT v1/workunitsubcategories` or `POST v1/workunitsubcategories/{id}`; the work unit form offers subcategories by the lookup. */
export function useSaveSubcategory(id: number | 'new') {
  return useApiMutation({
    mutationFn: (input: WorkUnitSubcategoryInput) =>
      id === 'new'
        ? apiSend<WorkUnitSubcategory>('PUT', SUBCATEGORIES_PATH, input)
        : apiSend<WorkUnitSubcategory>('POST', `${SUBCATEGORIES_PATH}/${pathId(id)}`, input),
    invalidate: [listQueryKey(SUBCATEGORIES_PATH), lookupKeys.subcategories],
    errorMessage: CATEGORY_MESSAGES.subcategorySaveFailed,
  });
}

/** `PUT v1/workunittypes` or `POST v1/workunittypes/{id}`; categories show type names, forms and filter chips the lookup. */
export function useSaveWorkUnitType(id: number | 'new') {
  return useApiMutation({
    mutationFn: (input: { name: string; enabled: boolean }) =>
      id === 'new'
        ? apiSend<WorkUnitType>('PUT', WORK_UNIT_TYPES_PATH, input)
        : apiSend<WorkUnitType>('POST', `${WORK_UNIT_TYPES_PATH}/${pathId(id)}`, input),
    invalidate: [listQueryKey(WORK_UNIT_TYPES_PATH), listQueryKey(CATEGORIES_PATH), lookupKeys.workUnitTypes],
    errorMessage: CATEGORY_MESSAGES.typeSaveFailed,
  });
}
