import type { Selectable } from 'kysely';
import { HISTORY_TYPES, type HistoryRecord } from '@cfs/contracts/work-units';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import type { SystemNote } from '../../engines/work-units/system-writer.js';
import { assertWorkUnitAccess, lockWorkUnit, type WorkUnitAccess } from './queries.js';

const present = (row: Selectable<Database['work_unit_note']>): HistoryRecord => ({
  id: row.work_unit_note_id,
  workUnitNoteId: row.work_unit_note_id,
  detail: row.detail,
  created: row.created,
  createdBy: row.created_by,
  historyType: row.history_type,
  isExternalNote: row.is_external_note,
  historyUrl: row.history_url,
});

/** GetWorkUnitHistoryRecords: notes and system records, newest first. */
export async function findHistory(
  db: Db,
  user: Principal,
  workUnitId: number,
  externalOnly = false,
): Promise<HistoryRecord[]> {
  await assertWorkUnitAccess(db, { scope: user.tenantScope }, workUnitId);
  let query = scoped(db, user.tenantScope)
    .selectFrom('work_unit_note')
    .selectAll()
    .where('work_unit_id', '=', workUnitId);
  if (externalOnly) query = query.where('is_external_note', '=', true);
  const rows = await query.orderBy('created', 'desc').orderBy('work_unit_note_id', 'desc').limit(1000).execute();
  return rows.map(present);
}

/** The Resolution Center's detail: a request's external notes, for an end user only on their own requests. */
export async function findExternalNotes(db: Db, access: WorkUnitAccess, workUnitId: number): Promise<HistoryRecord[]> {
  await assertWorkUnitAccess(db, access, workUnitId);
  const rows = await scoped(db, access.scope)
    .selectFrom('work_unit_note')
    .selectAll()
    .where('work_unit_id', '=', workUnitId)
    .where('is_external_note', '=', true)
    .orderBy('created', 'desc')
    .orderBy('work_unit_note_id', 'desc')
    .limit(1000)
    .execute();
  return rows.map(present);
}

/** PUT /v1/workunitnotes: a person's note (historyType null), internal or external. */
export async function addNote(
  db: Db,
  user: Principal,
  input: { workUnitId: number; detail: string; isExternalNote: boolean },
): Promise<HistoryRecord> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const { row } = await lockWorkUnit(trx, { scope: user.tenantScope }, input.workUnitId);
    const note = await tx
      .insertInto('work_unit_note', {
        work_unit_id: input.workUnitId,
        tenant_id: row.tenant_id,
        detail: input.detail,
        is_external_note: input.isExternalNote,
        history_type: null,
        created_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .updateTable('work_unit')
      .set({ modified: new Date(), modified_by: user.userName })
      .where('work_unit_id', '=', input.workUnitId)
      .execute();
    return present(note);
  });
}

/**
 * POST /v1/workunitnotes/callme/{id}: the request is recorded on the unit for the service desk.
 * End users (view:mine) ask about their own units only.
 */
export async function requestCallBack(db: Db, user: Principal, workUnitId: number): Promise<HistoryRecord> {
  const access: WorkUnitAccess = user.permissions.has('WorkUnits', 'view')
    ? { scope: user.tenantScope }
    : { scope: user.tenantScope, mine: { userName: user.userName, email: user.email } };
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, access.scope);
    const { row } = await lockWorkUnit(trx, access, workUnitId);
    const phone = row.stakeholder_phone_number ? ` at ${row.stakeholder_phone_number}` : '';
    const note = await tx
      .insertInto('work_unit_note', {
        work_unit_id: workUnitId,
        tenant_id: row.tenant_id,
        detail: `${user.displayName} asked to be called back${phone}.`,
        history_type: HISTORY_TYPES.General,
        is_external_note: true,
        created_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .updateTable('work_unit')
      .set({ modified: new Date(), modified_by: user.userName })
      .where('work_unit_id', '=', workUnitId)
      .execute();
    return present(note);
  });
}

/** A history record the portal writes in the caller's transaction (engines/work-units/system-writer.ts). */
export async function recordSystemNote(trx: Tx, note: SystemNote): Promise<void> {
  await scoped(trx, { kind: 'some', tenantIds: [note.tenantId] })
    .insertInto('work_unit_note', {
      work_unit_id: note.workUnitId,
      tenant_id: note.tenantId,
      detail: note.detail,
      history_type: note.historyType,
      created_by: note.createdBy,
    })
    .execute();
}
