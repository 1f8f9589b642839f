import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import type { ProtocolStepWriter } from '../../engines/protocols/step-writer.js';

/** A protocol's steps as the protocols area writes them (engines/protocols/step-writer.ts). */
export const protocolStepWriter: ProtocolStepWriter = {
  async create(trx, scope, steps) {
    await scoped(trx, scope).insertInto('protocol_action', steps).execute();
  },

  async moveToTenant(trx, protocolId, tenantId) {
    // The protocols area has checked the move; the steps follow whatever tenant they had.
    await scoped(trx, ALL_TENANTS)
      .updateTable('protocol_action')
      .set({ tenant_id: tenantId })
      .where('protocol_id', '=', protocolId)
      .execute();
  },
};
