import type { Operation } from 'fast-json-patch';
import { FINISHED_STATES, WORK_UNIT_STATES } from '@cfs/contracts/work-units';
import { systemPrincipal } from '../../auth/system-principal.js';
import { scoped } from '../../db/scoped.js';
import type { SystemWorkUnitWriter } from '../../engines/work-units/system-writer.js';
import { createWorkUnit, patchWorkUnit } from './commands.js';
import { addNote, recordSystemNote } from './notes.js';

/** Work units other areas open for their causes (engines/work-units/system-writer.ts). */
export const systemWorkUnitWriter: SystemWorkUnitWriter = {
  async open(db, unit, inTransaction) {
    return createWorkUnit(
      db,
      systemPrincipal(unit.tenantId, unit.actor),
      {
        title: unit.title.slice(0, 400),
        description: unit.description,
        severityId: unit.severityId,
        stateId: WORK_UNIT_STATES.New,
        tenantId: unit.tenantId,
        workUnitTypeId: unit.workUnitTypeId,
        relations: [unit.relation],
        ...(unit.source === undefined ? {} : { source: unit.source }),
        ...(unit.referenceId === undefined ? {} : { referenceId: unit.referenceId }),
      },
      { inTransaction: (trx, written) => inTransaction(trx, written.workUnitId) },
    );
  },

  async resolve(db, unit) {
    const user = systemPrincipal(unit.tenantId, unit.actor);
    const row = await scoped(db, user.tenantScope)
      .selectFrom('work_unit')
      .select('state_id')
      .where('work_unit_id', '=', unit.workUnitId)
      .executeTakeFirst();
    if (!row || FINISHED_STATES.includes(row.state_id)) return;
    const noted = await scoped(db, user.tenantScope)
      .selectFrom('work_unit_note')
      .select('work_unit_note_id')
      .where('work_unit_id', '=', unit.workUnitId)
      .where('detail', '=', unit.note)
      .executeTakeFirst();
    if (!noted) await addNote(db, user, { workUnitId: unit.workUnitId, detail: unit.note, isExternalNote: false });
    // A new unit is acknowledged before it is resolved, the way the state rules let a person do it.
    const steps =
      row.state_id === WORK_UNIT_STATES.New
        ? [WORK_UNIT_STATES.Acknowledged, WORK_UNIT_STATES.Resolved]
        : [WORK_UNIT_STATES.Resolved];
    for (const stateId of steps) {
      const operations: Operation[] = [{ op: 'replace', path: '/stateId', value: stateId }];
      await patchWorkUnit(db, user, unit.workUnitId, operations);
    }
  },

  recordNote: (trx, note) => recordSystemNote(trx, note),

  async recordEvent(trx, event) {
    await recordSystemNote(trx, event);
    await scoped(trx, { kind: 'some', tenantIds: [event.tenantId] })
      .insertInto('work_unit_event', {
        work_unit_id: event.workUnitId,
        tenant_id: event.tenantId,
        event_type_id: event.eventTypeId,
        created_by: event.createdBy,
      })
      .execute();
  },

  async followProtocol(trx, units) {
    await scoped(trx, { kind: 'some', tenantIds: [units.tenantId] })
      .updateTable('work_unit')
      .set({ protocol_id: units.protocolId })
      .where('work_unit_id', 'in', units.workUnitIds)
      .execute();
  },
};
