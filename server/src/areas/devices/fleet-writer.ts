import { scoped } from '../../db/scoped.js';
import type { DeviceWriter } from '../../engines/fleet/owner-ports.js';

/** The devices and installations the agent protocol and the pending devices' approval write (engines/fleet/owner-ports.ts). */
export const deviceFleetWriter: DeviceWriter = {
  create: (trx, scope, devices) =>
    scoped(trx, scope).insertInto('device', devices).returning(['device_id', 'agent_key_hash']).execute(),

  async update(trx, scope, deviceId, changes) {
    await scoped(trx, scope).updateTable('device').set(changes).where('device_id', '=', deviceId).execute();
  },

  async clearRestartFlag(trx, scope, deviceId) {
    const updated = await scoped(trx, scope)
      .updateTable('device')
      .set({ restart_agent_flag: false })
      .where('device_id', '=', deviceId)
      .where('restart_agent_flag', '=', true)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  },

  recordContact: (db, scope, deviceId, at) =>
    scoped(db, scope)
      .updateTable('device')
      .set({ last_contact: at })
      .where('device_id', '=', deviceId)
      .returning([
        'device_id',
        'name',
        'heartbeat_interval',
        'device_logging_level_id',
        'trace_expiration',
        'restart_agent_flag',
        'agent_version',
      ])
      .executeTakeFirst(),

  async recordInstallation(trx, scope, installation) {
    await scoped(trx, scope)
      .insertInto('device_installation', installation)
      .onConflict((conflict) =>
        conflict.columns(['device_id', 'package_id']).doUpdateSet((eb) => ({
          package_version_id: eb.ref('excluded.package_version_id'),
          installed_package_version_id: eb.ref('excluded.installed_package_version_id'),
          install_status_id: eb.ref('excluded.install_status_id'),
          status_detail: eb.ref('excluded.status_detail'),
          modified: eb.ref('excluded.modified'),
          modified_by: eb.ref('excluded.modified_by'),
        })),
      )
      .execute();
  },

  async reportInstallation(trx, scope, installation, changes) {
    await scoped(trx, scope)
      .updateTable('device_installation')
      .set(changes)
      .where('device_id', '=', installation.deviceId)
      .where('package_id', '=', installation.packageId)
      .execute();
  },
};
