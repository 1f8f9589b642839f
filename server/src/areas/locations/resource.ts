import { locationInputSchema, locationSchema } from '@cfs/contracts/locations';
import { defineEntity } from '../../odata/entity.js';
import { tenantReference } from '../../odata/references.js';

export const locationEntity = defineEntity({
  table: 'location',
  key: 'locationId',
  contract: locationSchema,
  writable: locationInputSchema,
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
  },
  defaultOrderBy: 'name asc',
});
