import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import type { MaintenanceCommunicationWriter } from '../../engines/maintenance/owner-ports.js';

/** The maintenance engine's announcements (engines/maintenance/owner-ports.ts); the engine acts for every tenant. */
export const maintenanceCommunicationWriter: MaintenanceCommunicationWriter = {
  async cancel(trx, changeWorkUnitId, actor) {
    await scoped(trx, ALL_TENANTS)
      .updateTable('work_unit_communication')
      .set({ status: 'Cancelled', next_update: null, modified: new Date(), modified_by: actor })
      .where('change_work_unit_id', '=', changeWorkUnitId)
      .where('status', 'not in', ['Cancelled', 'Resolved'])
      .execute();
  },

  async draft(trx, draft, actor) {
    const tx = scoped(trx, ALL_TENANTS);
    const { title, details, start } = draft;
    const drafted = await tx
      .insertInto('work_unit_communication', {
        tenant_id: draft.tenantId,
        title,
        service_manager: draft.serviceManager,
        status: 'Investigating',
        details,
        event_started: start,
        next_update: start,
        change_work_unit_id: draft.changeWorkUnitId,
        created_by: actor,
        modified_by: actor,
      })
      .onConflict((oc) => oc.column('change_work_unit_id').where('change_work_unit_id', 'is not', null).doNothing())
      .returning('work_unit_communication_id')
      .executeTakeFirst();
    if (drafted) {
      await tx
        .insertInto('work_unit_communication_work_unit', {
          work_unit_communication_id: drafted.work_unit_communication_id,
          work_unit_id: draft.changeWorkUnitId,
          tenant_id: draft.tenantId,
          created_by: actor,
        })
        .onConflict((oc) => oc.columns(['work_unit_communication_id', 'work_unit_id']).doNothing())
        .execute();
      return;
    }
    await tx
      .updateTable('work_unit_communication')
      .set({ title, details, event_started: start, next_update: start, modified: new Date() })
      .where('change_work_unit_id', '=', draft.changeWorkUnitId)
      .where('modified_by', '=', actor)
      .where('status', '=', 'Investigating')
      .where((eb) =>
        eb.or([
          eb('title', '!=', title),
          eb('details', 'is', null),
          eb('details', '!=', details),
          eb('event_started', 'is', null),
          eb('event_started', '!=', start),
          eb('next_update', 'is', null),
          eb('next_update', '!=', start),
        ]),
      )
      .execute();
  },
};
