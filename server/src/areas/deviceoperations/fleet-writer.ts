import { scoped } from '../../db/scoped.js';
import type { DeviceOperationWriter } from '../../engines/fleet/owner-ports.js';

/** The device operations the agent protocol and the demo agent write (engines/fleet/owner-ports.ts). */
export const deviceOperationFleetWriter: DeviceOperationWriter = {
  async create(trx, scope, operations) {
    const rows = await scoped(trx, scope)
      .insertInto('device_operation', operations)
      .returning('device_operation_id')
      .execute();
    return rows.map((row) => row.device_operation_id);
  },

  async complete(trx, scope, deviceOperationId) {
    await scoped(trx, scope)
      .updateTable('device_operation')
      .set({ operation_complete: true, completion_token: null })
      .where('device_operation_id', '=', deviceOperationId)
      .execute();
  },
};
