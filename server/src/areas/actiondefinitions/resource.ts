import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

/**
 * GET v1/actionDefinitions (spec 002 §2 Action catalogue, §7): the caller's tenants' actions and
 * the installation's (tenantless: the built-ins and shared ones), by name; search covers name and
 * description.
 */
export const actionDefinitionsResource = defineResource({
  table: 'action_definition',
  key: 'actionDefinitionId',
  fields: {
    actionDefinitionId: { type: 'guid' },
    name: { type: 'string' },
    description: { type: 'string' },
    actionDefinitionTypeId: { type: 'integer' },
    tenantId: { type: 'guid' },
    inputParameters: { type: 'string' },
    endpointUrl: { type: 'string' },
    httpMethod: { type: 'string' },
    headers: { type: 'string', filterable: false, sortable: false },
    body: { type: 'string', filterable: false, sortable: false },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
  },
  defaultOrderBy: 'name asc',
});
