import type { Operation } from 'fast-json-patch';
import {
  addDays,
  COMPLIANCE_MESSAGES,
  CONTROL_STATUS_MESSAGES,
  CONTROL_STATUS_PATCHABLE,
  controlStatusDocumentSchema,
  controlStatusMessage,
  type ControlStatus,
  type ControlStatusValue,
  type CopyLastWeekResult,
} from '@cfs/contracts/compliance';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, HttpError, NotFoundError } from '../../http/errors.js';
import { applyJsonPatch, pointersOf } from '../../http/json-patch.js';
import { enqueuePoamChecks } from './poam.js';
import {
  assertTenant,
  controlStatusDocument,
  findUsableControl,
  onDate,
  presentControlStatus,
  STATUS_COLUMNS,
  usableControlSets,
} from './queries.js';

/** A failure of a write answered with the spec's message for it (spec 002 §8), the reason per field. */
function failed(status: number, message: string, field: string, reason: string): HttpError {
  return new HttpError(status, message, { [field]: [reason] });
}

/** The database's duplicate key (one record per tenant, control and week). */
const isDuplicate = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';

/**
 * POST v1/controlstatuses (spec 002 §4): choosing a status where no record exists creates one
 * with empty notes; a note where none exists creates one with status Notset. One record per
 * tenant, control and week: a second create for the same week is refused, nothing is written.
 */
export async function createControlStatus(
  db: Db,
  user: Principal,
  input: { checkDate: string; status: ControlStatusValue; notes: string; tenantId: string; controlId: string },
): Promise<ControlStatus> {
  const message = controlStatusMessage(
    'create',
    input.status === 'Notset' && input.notes !== '' ? 'note' : 'status',
    'failure',
  );
  try {
    await assertTenant(db, user.tenantScope, input.tenantId);
  } catch (error) {
    if (error instanceof NotFoundError) throw failed(404, message, 'tenantId', COMPLIANCE_MESSAGES.tenantNotFound);
    throw error;
  }
  try {
    await findUsableControl(db, user.tenantScope, input.tenantId, input.controlId);
  } catch (error) {
    if (error instanceof NotFoundError) throw failed(404, message, 'controlId', COMPLIANCE_MESSAGES.controlNotFound);
    throw error;
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await scoped(trx, user.tenantScope)
        .insertInto('control_status', {
          tenant_id: input.tenantId,
          control_id: input.controlId,
          check_date: input.checkDate,
          status: input.status,
          notes: input.notes,
          created_by: user.userName,
          modified_by: user.userName,
        })
        .returning(STATUS_COLUMNS)
        .executeTakeFirstOrThrow();
      await recordAudit(trx, user, {
        entityType: 'controlStatus',
        entityId: row.control_status_id,
        tenantId: row.tenant_id,
        action: 'create',
        changes: { controlId: row.control_id, checkDate: row.check_date, status: row.status, notes: row.notes },
      });
      await enqueuePoamChecks(trx, [
        {
          tenantId: row.tenant_id,
          controlId: row.control_id,
          checkDate: row.check_date,
          status: row.status,
          at: row.modified,
        },
      ]);
      return presentControlStatus(row);
    });
  } catch (error) {
    if (isDuplicate(error)) throw failed(409, message, 'controlId', COMPLIANCE_MESSAGES.alreadyRecorded);
    throw error;
  }
}

/**
 * PATCH v1/controlstatuses/{id} (spec 002 §4): a JSON Patch (RFC 6902) of the record's status or
 * notes, applied in one transaction that holds the row; `test` operations that no longer hold
 * answer 409 and write nothing.
 */
export async function patchControlStatus(
  db: Db,
  user: Principal,
  id: string,
  operations: Operation[],
): Promise<ControlStatus> {
  const changes = operations.filter((operation) => operation.op !== 'test');
  const onlyNotes = changes.length > 0 && changes.every((operation) => operation.path === '/notes');
  const message = controlStatusMessage('update', onlyNotes ? 'note' : 'status', 'failure');
  for (const pointer of changes.flatMap(pointersOf)) {
    const field = pointer.split('/')[1] ?? '';
    if (!(CONTROL_STATUS_PATCHABLE as readonly string[]).includes(field) || pointer !== `/${field}`) {
      throw failed(400, message, field || 'path', COMPLIANCE_MESSAGES.notPatchable(pointer));
    }
  }
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const row = await tx
      .selectFrom('control_status')
      .select(STATUS_COLUMNS)
      .where('control_status_id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new NotFoundError('The control status');
    const before = controlStatusDocument(row);
    const patched = applyJsonPatch(before, operations, (reason) => new BadRequestError(message, { patch: [reason] }));
    const checked = controlStatusDocumentSchema.safeParse(patched);
    if (!checked.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of checked.error.issues) (errors[issue.path.join('.') || 'patch'] ??= []).push(issue.message);
      throw new BadRequestError(message, errors);
    }
    const after = checked.data;
    if (after.status === before.status && after.notes === before.notes) return presentControlStatus(row);
    const updated = await tx
      .updateTable('control_status')
      .set({ status: after.status, notes: after.notes, modified: new Date(), modified_by: user.userName })
      .where('control_status_id', '=', id)
      .returning(STATUS_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, user, {
      entityType: 'controlStatus',
      entityId: id,
      tenantId: row.tenant_id,
      action: 'update',
      changes: changedFields(
        { status: before.status, notes: before.notes },
        { status: after.status, notes: after.notes },
      ),
    });
    if (after.status !== before.status)
      await enqueuePoamChecks(trx, [
        {
          tenantId: updated.tenant_id,
          controlId: updated.control_id,
          checkDate: updated.check_date,
          status: updated.status,
          at: updated.modified,
        },
      ]);
    return presentControlStatus(updated);
  });
}

/** DELETE v1/controlstatuses/{id} (spec 002 §4: deselecting the toggle, after the confirmation). */
export async function deleteControlStatus(db: Db, user: Principal, id: string): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .deleteFrom('control_status')
      .where('control_status_id', '=', id)
      .returning(STATUS_COLUMNS)
      .executeTakeFirst();
    if (!row)
      throw new HttpError(404, CONTROL_STATUS_MESSAGES.deleteFailed, { id: ['The control status was not found.'] });
    await recordAudit(trx, user, {
      entityType: 'controlStatus',
      entityId: id,
      tenantId: row.tenant_id,
      action: 'delete',
      changes: { controlId: row.control_id, checkDate: row.check_date, status: row.status, notes: row.notes },
    });
    return { message: CONTROL_STATUS_MESSAGES.deleted };
  });
}

/**
 * POST v1/controlstatuses/copyLastWeek: the week starts from the previous week's statuses and
 * notes, for the set's controls that have no record this week yet (a record made this week is
 * never overwritten). The previous week is the calendar week before (seven dates earlier), so a
 * daylight-saving change between them does not matter. One transaction; answers how many.
 */
export async function copyLastWeek(
  db: Db,
  user: Principal,
  input: { controlSetId: string; tenantId: string; checkDate: string },
): Promise<CopyLastWeekResult> {
  await assertTenant(db, user.tenantScope, input.tenantId);
  const set = await usableControlSets(db, user.tenantScope, input.tenantId)
    .select('control_set_id')
    .where('control_set_id', '=', input.controlSetId)
    .executeTakeFirst();
  if (!set) throw new NotFoundError('The control set');
  const previous = addDays(input.checkDate, -7);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const last = await tx
      .selectFrom('control_status')
      .innerJoin('control', 'control.control_id', 'control_status.control_id')
      .select(['control_status.control_id', 'control_status.status', 'control_status.notes'])
      .where('control_status.tenant_id', '=', input.tenantId)
      .where('control_status.check_date', '=', onDate(previous))
      .where('control.control_set_id', '=', input.controlSetId)
      .execute();
    if (last.length === 0) return { copied: 0, message: COMPLIANCE_MESSAGES.nothingToCopy };
    const copied = await tx
      .insertInto(
        'control_status',
        last.map((row) => ({
          tenant_id: input.tenantId,
          control_id: row.control_id,
          check_date: input.checkDate,
          status: row.status,
          notes: row.notes,
          created_by: user.userName,
          modified_by: user.userName,
        })),
      )
      .onConflict((oc) => oc.columns(['tenant_id', 'check_date', 'control_id']).doNothing())
      .returning(STATUS_COLUMNS)
      .execute();
    if (copied.length === 0) return { copied: 0, message: COMPLIANCE_MESSAGES.nothingToCopy };
    await recordAudit(trx, user, {
      entityType: 'controlSet',
      entityId: input.controlSetId,
      tenantId: input.tenantId,
      action: 'update',
      changes: { copiedFrom: previous, checkDate: input.checkDate, copied: copied.length },
    });
    await enqueuePoamChecks(
      trx,
      copied.map((row) => ({
        tenantId: row.tenant_id,
        controlId: row.control_id,
        checkDate: row.check_date,
        status: row.status,
        at: row.modified,
      })),
    );
    return { copied: copied.length, message: COMPLIANCE_MESSAGES.copied(copied.length) };
  });
}
