import type { Operation } from 'fast-json-patch';
import { PermissionSet } from '@cfs/contracts/permissions';
import { FINISHED_STATES, WORK_UNIT_STATES } from '@cfs/contracts/work-units';
import type { Principal } from '../../auth/principal.js';
import { scoped } from '../../db/scoped.js';
import type { SystemActor, SystemWorkUnitWriter } from '../../engines/work-units/system-writer.js';
import { createWorkUnit, patchWorkUnit } from './commands.js';
import { addNote } from './notes.js';

/** The portal acting in one tenant under a named cause: its id stands where a user's would. */
function actorPrincipal(tenantId: string, actor: SystemActor): Principal {
  const name = actor.name.slice(0, 200);
  return {
    userId: actor.id,
    userName: name,
    displayName: name,
    email: null,
    permissions: new PermissionSet([]),
    permissionStrings: [],
    tenantScope: { kind: 'some', tenantIds: [tenantId] },
    groups: [],
    tenantId,
    subscriptionId: null,
  };
}

/** Work units other areas open for their causes (engines/work-units/system-writer.ts). */
export const systemWorkUnitWriter: SystemWorkUnitWriter = {
  async open(db, unit, inTransaction) {
    const created = await createWorkUnit(
      db,
      actorPrincipal(unit.tenantId, unit.actor),
      {
        title: unit.title.slice(0, 400),
        description: unit.description,
        severityId: unit.severityId,
        stateId: WORK_UNIT_STATES.New,
        tenantId: unit.tenantId,
        workUnitTypeId: unit.workUnitTypeId,
        relations: [unit.relation],
      },
      { inTransaction: (trx, written) => inTransaction(trx, written.workUnitId) },
    );
    return created.workUnitId;
  },

  async resolve(db, unit) {
    const user = actorPrincipal(unit.tenantId, unit.actor);
    const row = await scoped(db, user.tenantScope).selectFrom('work_unit').select('state_id').where('work_unit_id', '=', unit.workUnitId).executeTakeFirst();
    if (!row || FINISHED_STATES.includes(row.state_id)) return;
    await addNote(db, user, { workUnitId: unit.workUnitId, detail: unit.note, isExternalNote: false });
    // A new unit is acknowledged before it is resolved, the way the state rules let a person do it.
    const steps = row.state_id === WORK_UNIT_STATES.New ? [WORK_UNIT_STATES.Acknowledged, WORK_UNIT_STATES.Resolved] : [WORK_UNIT_STATES.Resolved];
    for (const stateId of steps) {
      const operations: Operation[] = [{ op: 'replace', path: '/stateId', value: stateId }];
      await patchWorkUnit(db, user, unit.workUnitId, operations);
    }
  },
};
