import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkUnitTypeLookup } from '@cfs/contracts/shell';
import {
  CATEGORY_MESSAGES,
  type WorkUnitCategory as WorkUnitCategoryEntity,
  type WorkUnitCategoryInput,
  type WorkUnitSubcategory as WorkUnitSubcategoryEntity,
  type WorkUnitSubcategoryInput,
  type WorkUnitType as WorkUnitTypeEntity,
} from '@cfs/contracts/work-unit-settings';
import { apiGet, apiSend, isReportedByClient } from '../../lib/api-client';
import type { JsonOf } from '../../lib/json-types';
import { listItemQueryOptions, listQueryKey } from '../../lib/list-api';
import { literal } from '../../lib/list-query';
import { useToast } from '../../lib/toast';

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

/** `/api/generallookup/workunittypes`: the form's choices ("Legacy" hidden, "Request" shown as "User Request" by the server). */
export const workUnitTypesLookupQuery = queryOptions({
  queryKey: ['generallookup', 'workunittypes'],
  queryFn: ({ signal }) => apiGet<WorkUnitTypeLookup[]>('/api/generallookup/workunittypes', undefined, { signal }),
  staleTime: 5 * 60_000,
});

export function useWorkUnitTypesLookup() {
  return useQuery(workUnitTypesLookupQuery);
}

/** One category with its tenant and type, read through the list (no single-category call in spec 001 §7). */
export function useCategory(id: number | null) {
  return useQuery({
    ...listItemQueryOptions<WorkUnitCategory>(CATEGORIES_PATH, `workUnitCategoryId eq ${literal(id)}`, { expand: CATEGORY_EXPAND }),
    enabled: id !== null,
  });
}

/** One work unit type, read through the list. */
export function useWorkUnitType(id: number | null) {
  return useQuery({ ...listItemQueryOptions<WorkUnitType>(WORK_UNIT_TYPES_PATH, `workUnitTypeId eq ${literal(id)}`), enabled: id !== null });
}

/** A save that refreshes the lists it changes and toasts the spec's text when it fails. */
function useSettingsMutation<TVariables, TResult>(send: (variables: TVariables) => Promise<TResult>, failure: string, changedLists: readonly (readonly unknown[])[]) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: send,
    onSuccess: () => Promise.all(changedLists.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(failure);
    },
  });
}

/** `PUT v1/workunitcategories` or `POST v1/workunitcategories/{id}`. */
export function useSaveCategory(id: number | 'new') {
  return useSettingsMutation(
    (input: WorkUnitCategoryInput) =>
      id === 'new' ? apiSend<WorkUnitCategory>('PUT', CATEGORIES_PATH, input) : apiSend<WorkUnitCategory>('POST', `${CATEGORIES_PATH}/${id}`, input),
    CATEGORY_MESSAGES.categorySaveFailed,
    [listQueryKey(CATEGORIES_PATH)],
  );
}

/** `PUT v1/workunitsubcategories` or `POST v1/workunitsubcategories/{id}`. */
export function useSaveSubcategory(id: number | 'new') {
  return useSettingsMutation(
    (input: WorkUnitSubcategoryInput) =>
      id === 'new' ? apiSend<WorkUnitSubcategory>('PUT', SUBCATEGORIES_PATH, input) : apiSend<WorkUnitSubcategory>('POST', `${SUBCATEGORIES_PATH}/${id}`, input),
    CATEGORY_MESSAGES.subcategorySaveFailed,
    [listQueryKey(SUBCATEGORIES_PATH)],
  );
}

/** `PUT v1/workunittypes` or `POST v1/workunittypes/{id}`; categories show type names, forms the lookup. */
export function useSaveWorkUnitType(id: number | 'new') {
  return useSettingsMutation(
    (input: { name: string; enabled: boolean }) =>
      id === 'new' ? apiSend<WorkUnitType>('PUT', WORK_UNIT_TYPES_PATH, input) : apiSend<WorkUnitType>('POST', `${WORK_UNIT_TYPES_PATH}/${id}`, input),
    CATEGORY_MESSAGES.typeSaveFailed,
    [listQueryKey(WORK_UNIT_TYPES_PATH), listQueryKey(CATEGORIES_PATH), workUnitTypesLookupQuery.queryKey],
  );
}

/** The numeric id in a drawer's query parameter, 'new', or null (closed or not a number). */
export function drawerNumericId(openId: string | null): number | 'new' | null {
  if (openId === 'new') return 'new';
  if (openId === null || !/^\d+$/.test(openId)) return null;
  return Number(openId);
}
