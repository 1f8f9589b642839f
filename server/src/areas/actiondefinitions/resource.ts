import { actionDefinitionInputSchema, actionDefinitionSchema } from '@cfs/contracts/action-definitions';
import { defineEntity } from '../../odata/entity.js';
import { tenantReference } from '../../odata/references.js';

/**
 * GET v1/actionDefinitions (spec 002 §2 Action catalogue, §7): the caller's tenants' actions and
 * the installation's (tenantless: the built-ins and shared ones), by name; search covers name and
 * description.
 */
export const actionDefinitionEntity = defineEntity({
  table: 'action_definition',
  key: 'actionDefinitionId',
  contract: actionDefinitionSchema,
  writable: actionDefinitionInputSchema,
  fields: { headers: { filterable: false, sortable: false }, body: { filterable: false, sortable: false } },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
  },
  defaultOrderBy: 'name asc',
});
