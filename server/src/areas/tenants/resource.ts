import { customFieldColumns, tenantInputSchema, tenantSchema, type CustomFieldColumn } from '@cfs/contracts/tenants';
import { defineEntity } from '../../odata/entity.js';

/** The custom fields' columns write their number apart: `workUnitField1` is `work_unit_field_1`. */
type CustomFieldColumnName<F extends CustomFieldColumn> = F extends `workUnitField${infer N}`
  ? `work_unit_field_${N}`
  : never;
const customFieldColumnNames = Object.fromEntries(
  customFieldColumns.map((field) => [field, field.replace('workUnitField', 'work_unit_field_')]),
) as { readonly [F in CustomFieldColumn]: CustomFieldColumnName<F> };

/**
 * A tenant, described once on its contract: GET v1/tenants (the tenants grid lists, filters and
 * sorts all but the intake wizard's form and the custom field definitions, which only one tenant's
 * drawer reads), one tenant, and the columns an input writes.
 */
export const tenantEntity = defineEntity({
  table: 'tenant',
  key: 'tenantId',
  contract: tenantSchema,
  writable: tenantInputSchema,
  columns: customFieldColumnNames,
  unlisted: ['intakeWizardSchema', ...customFieldColumns],
  defaultOrderBy: 'name asc',
});
