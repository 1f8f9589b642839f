import { defineResource } from '../../odata/resource.js';

/** GET v1/tokens: a tenant's token grants, newest first (spec 001 §9). */
export const tokensResource = defineResource({
  table: 'token_grant',
  key: 'tokenGrantId',
  fields: {
    tokenGrantId: { type: 'guid' },
    tenantId: { type: 'guid' },
    name: { type: 'string' },
    description: { type: 'string' },
    lifetimeYears: { type: 'integer' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    expiresOn: { type: 'datetime' },
    revokedOn: { type: 'datetime' },
    tokenPrefix: { type: 'string' },
  },
  defaultOrderBy: 'created desc',
});
