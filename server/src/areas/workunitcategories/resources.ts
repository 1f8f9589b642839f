import { defineResource } from '../../odata/resource.js';
import { tenantReference, workUnitTypeReference } from '../../odata/references.js';

export const categoriesResource = defineResource({
  table: 'work_unit_category',
  key: 'workUnitCategoryId',
  fields: {
    workUnitCategoryId: { type: 'integer' },
    name: { type: 'string' },
    tenantId: { type: 'guid' },
    workUnitTypeId: { type: 'integer' },
    isEnabled: { type: 'boolean' },
    isVisibleInResolutionCenter: { type: 'boolean' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    workUnitType: { kind: 'one', resource: () => workUnitTypeReference, column: 'work_unit_type_id', fields: ['workUnitTypeId', 'name'] },
  },
  defaultOrderBy: 'workUnitCategoryId asc',
});

export const subcategoriesResource = defineResource({
  table: 'work_unit_subcategory',
  key: 'workUnitSubcategoryId',
  fields: {
    workUnitSubcategoryId: { type: 'integer' },
    workUnitCategoryId: { type: 'integer' },
    name: { type: 'string' },
    isEnabled: { type: 'boolean' },
  },
  defaultOrderBy: 'workUnitSubcategoryId asc',
});

export const typesResource = defineResource({
  table: 'work_unit_type',
  key: 'workUnitTypeId',
  fields: { workUnitTypeId: { type: 'integer' }, name: { type: 'string' }, enabled: { type: 'boolean' } },
  defaultOrderBy: 'workUnitTypeId asc',
});
