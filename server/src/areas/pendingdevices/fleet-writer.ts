import { scoped } from '../../db/scoped.js';
import type { PendingDeviceWriter } from '../../engines/fleet/owner-ports.js';

/** The agent's enrolments (engines/fleet/owner-ports.ts). */
export const pendingDeviceFleetWriter: PendingDeviceWriter = {
  enrol: (trx, scope, pending) =>
    // The key is unique over every tenant: a key already pending with another tenant is refused
    // (the update's condition leaves that row alone, so nothing comes back).
    scoped(trx, scope)
      .insertInto('pending_device', pending)
      .onConflict((oc) =>
        oc
          .column('agent_key_hash')
          .doUpdateSet((eb) => ({
            machine_name: eb.ref('excluded.machine_name'),
            operating_system: eb.ref('excluded.operating_system'),
            architecture: eb.ref('excluded.architecture'),
            ip_address: eb.ref('excluded.ip_address'),
            token_grant_id: eb.ref('excluded.token_grant_id'),
            last_ping: eb.ref('excluded.last_ping'),
          }))
          .where('pending_device.tenant_id', '=', pending.tenant_id),
      )
      .returning(['pending_device_id', 'created'])
      .executeTakeFirst(),
};
