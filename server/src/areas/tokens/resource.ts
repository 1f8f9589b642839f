import { tokenGrantSchema, tokenUpdateSchema } from '@cfs/contracts/tokens';
import { defineEntity } from '../../odata/entity.js';

/**
 * A token grant, described once on its contract: GET v1/tokens (a tenant's token grants, newest
 * first, spec 001 §9), one grant, and the columns an edit writes (its name and description; a
 * create also writes the tenant, the lifetime and the token's hash and prefix).
 */
export const tokenEntity = defineEntity({
  table: 'token_grant',
  key: 'tokenGrantId',
  contract: tokenGrantSchema,
  writable: tokenUpdateSchema,
  defaultOrderBy: 'created desc',
});
