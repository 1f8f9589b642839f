import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

export const locationsResource = defineResource({
  table: 'location',
  key: 'locationId',
  fields: {
    locationId: { type: 'guid' },
    name: { type: 'string' },
    tenantId: { type: 'guid' },
    address1: { type: 'string' },
    address2: { type: 'string' },
    city: { type: 'string' },
    state: { type: 'string' },
    country: { type: 'string' },
    postalCode: { type: 'string' },
    coordinates: { type: 'string' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
  },
  defaultOrderBy: 'name asc',
});
