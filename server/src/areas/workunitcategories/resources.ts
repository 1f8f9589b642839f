import {
  workUnitCategoryInputSchema,
  workUnitCategorySchema,
  workUnitSubcategoryInputSchema,
  workUnitSubcategorySchema,
  workUnitTypeInputSchema,
  workUnitTypeSchema,
} from '@cfs/contracts/work-unit-settings';
import { defineEntity } from '../../odata/entity.js';
import { tenantReference, workUnitTypeReference } from '../../odata/references.js';

export const categoryEntity = defineEntity({
  table: 'work_unit_category',
  key: 'workUnitCategoryId',
  contract: workUnitCategorySchema,
  writable: workUnitCategoryInputSchema,
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    workUnitType: {
      kind: 'one',
      resource: () => workUnitTypeReference,
      column: 'work_unit_type_id',
      fields: ['workUnitTypeId', 'name'],
    },
  },
  defaultOrderBy: 'workUnitCategoryId asc',
});

export const subcategoryEntity = defineEntity({
  table: 'work_unit_subcategory',
  key: 'workUnitSubcategoryId',
  contract: workUnitSubcategorySchema,
  writable: workUnitSubcategoryInputSchema,
  defaultOrderBy: 'workUnitSubcategoryId asc',
});

export const typeEntity = defineEntity({
  table: 'work_unit_type',
  key: 'workUnitTypeId',
  contract: workUnitTypeSchema,
  writable: workUnitTypeInputSchema,
  defaultOrderBy: 'workUnitTypeId asc',
});
