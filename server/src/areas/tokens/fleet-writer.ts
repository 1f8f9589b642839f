import { scoped } from '../../db/scoped.js';
import type { TokenGrantWriter } from '../../engines/fleet/owner-ports.js';

/** The demo agent's enrolment token (engines/fleet/owner-ports.ts). */
export const tokenGrantFleetWriter: TokenGrantWriter = {
  async create(trx, scope, grant) {
    const row = await scoped(trx, scope)
      .insertInto('token_grant', grant)
      .returning('token_grant_id')
      .executeTakeFirstOrThrow();
    return row.token_grant_id;
  },
};
