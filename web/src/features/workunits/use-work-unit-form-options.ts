import { useWatch, type Control } from 'react-hook-form';
import type { FieldOption } from '../../components/form-fields';
import {
  useAssignmentGroups,
  useCategoriesLookup,
  useSubcategoriesLookup,
  useTenant,
  useTenantsLookup,
  useWorkUnitTypesLookup,
} from '../../lib/lookups';
import type { WorkUnit } from './api';
import { useProtocolOptions } from './automation-api';
import { customFieldDefinitions } from './custom-fields';
import { categoriesFor, subcategoriesFor } from './work-unit-form-values';
import type { WorkUnitFormInput, WorkUnitFormOutput } from './use-work-unit-form';

/** Keeps a saved value choosable when the lookup no longer offers it (a disabled category, a removed group). */
function withCurrent(
  options: FieldOption[],
  value: string | number | null | undefined,
  label: string | undefined,
): FieldOption[] {
  if (value === null || value === undefined || value === '' || options.some((option) => option.value === value))
    return options;
  return [...options, { value, label: label ?? String(value) }];
}

/**
 * The choices of the work unit form, following its tenant, type and category (spec 001 §2):
 * tenants, types, the tenant's categories of the type and their subcategories, the tenant's
 * assignment groups and custom fields.
 */
export function useWorkUnitFormOptions(
  control: Control<WorkUnitFormInput, unknown, WorkUnitFormOutput>,
  saved: WorkUnit | undefined,
) {
  const [tenantId, workUnitTypeId, categoryId, subcategoryId, assignmentGroup, protocolId] = useWatch({
    control,
    name: [
      'tenantId',
      'workUnitTypeId',
      'workUnitCategoryId',
      'workUnitSubcategoryId',
      'assignmentGroup',
      'protocolId',
    ],
  });
  const tenants = useTenantsLookup();
  const types = useWorkUnitTypesLookup();
  const categories = useCategoriesLookup();
  const subcategories = useSubcategoriesLookup();
  const tenant = useTenant(tenantId);
  const groups = useAssignmentGroups(tenantId);
  const protocols = useProtocolOptions(tenantId);

  // A tenant shows by its name, never its id: the unit's own, else the tenant read for its fields.
  const tenantOptions = withCurrent(
    (tenants.data ?? []).map((option) => ({ value: option.tenantId, label: option.name })),
    tenantId,
    saved?.tenant?.name ?? tenant.data?.name ?? '',
  );
  const typeOptions = withCurrent(
    (types.data ?? []).map((option) => ({ value: option.workUnitTypeId, label: option.name })),
    workUnitTypeId,
    saved?.workUnitType?.name,
  );
  const categoryOptions = withCurrent(
    categoriesFor(categories.data ?? [], tenantId, workUnitTypeId).map((option) => ({
      value: option.workUnitCategoryId,
      label: option.name,
    })),
    categoryId,
    saved?.category?.name,
  );
  const subcategoryOptions = withCurrent(
    subcategoriesFor(subcategories.data ?? [], categoryId).map((option) => ({
      value: option.workUnitSubcategoryId,
      label: option.name,
    })),
    subcategoryId,
    saved?.subcategory?.name,
  );
  const groupOptions = withCurrent(
    (groups.data ?? []).map((group) => ({ value: group, label: group })),
    assignmentGroup,
    undefined,
  );

  // The tenant's protocols and the shared ones (spec 002 §3 Protocol).
  const protocolOptions = withCurrent(
    (protocols.data?.rows ?? []).map((option) => ({ value: option.protocolId, label: option.name })),
    protocolId,
    saved?.protocol?.name,
  );

  return {
    workUnitTypeId,
    tenantOptions,
    typeOptions,
    categoryOptions,
    subcategoryOptions,
    groupOptions,
    protocolOptions,
    customFields: customFieldDefinitions(tenant.data),
  };
}
