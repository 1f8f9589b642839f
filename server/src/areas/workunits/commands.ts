import type { BulkResult } from '@cfs/contracts/api';
import type { Operation } from 'fast-json-patch';
import {
  WORK_UNIT_STATES,
  FINISHED_STATES,
  workUnitInputSchema,
  type WorkUnitFields,
  type WorkUnitRelation,
} from '@cfs/contracts/work-units';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, HttpError, NotFoundError } from '../../http/errors.js';
import { applyJsonPatch, pointersOf } from '../../http/json-patch.js';
import { EDITABLE_FIELDS, toColumns, toDocument } from './document.js';
import { recordChange } from './history.js';
import { enqueueResolutionCenterEmail, RESOLUTION_CENTER_SOURCE } from './resolution-center-emails.js';
import { lockWorkUnit } from './queries.js';
import { checkWorkUnit, parseDocument } from './rules.js';

const PATCHABLE = new Set<string>([...EDITABLE_FIELDS, 'relations']);

/** `resolved` is stamped when a unit reaches Resolved and cleared when it is reopened. */
function resolvedFor(stateId: number, previous: Date | null): Date | null {
  if (stateId === WORK_UNIT_STATES.Resolved) return previous ?? new Date();
  return FINISHED_STATES.includes(stateId) ? previous : null;
}

async function writeRelations(trx: Tx, workUnitId: number, relations: WorkUnitRelation[] | undefined): Promise<void> {
  if (relations === undefined) return;
  await trx.deleteFrom('work_unit_relation').where('work_unit_id', '=', workUnitId).execute();
  const unique = [...new Map(relations.map((r) => [`${r.referenceType}:${r.referenceId}`, r])).values()];
  if (unique.length) {
    await trx
      .insertInto('work_unit_relation')
      .values(
        unique.map((r) => ({ work_unit_id: workUnitId, reference_type: r.referenceType, reference_id: r.referenceId })),
      )
      .execute();
  }
}

/** PUT /api/v1/workunits: a new unit (sent with workUnitId -1) starts New (spec 001 §4); answers its number. */
export async function createWorkUnit(
  db: Db,
  user: Principal,
  input: WorkUnitFields,
  options: { inTransaction?: (trx: Tx, unit: { workUnitId: number; tenantId: string }) => Promise<void> } = {},
): Promise<number> {
  const document = await checkWorkUnit(scoped(db, user.tenantScope), user, parseDocument(input), null);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const row = await tx
      .insertInto('work_unit', {
        ...toColumns(document),
        tenant_id: document.tenantId,
        title: document.title,
        severity_id: document.severityId,
        state_id: document.stateId,
        work_unit_type_id: document.workUnitTypeId,
        created_by: user.userName,
        modified_by: user.userName,
        resolved: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeRelations(trx, row.work_unit_id, document.relations);
    await recordChange(tx, { workUnitId: row.work_unit_id, tenantId: row.tenant_id }, user.userName, null, document);
    await recordAudit(trx, user, {
      entityType: 'workUnit',
      entityId: String(row.work_unit_id),
      tenantId: row.tenant_id,
      action: 'create',
      changes: { title: row.title },
    });
    await options.inTransaction?.(trx, { workUnitId: row.work_unit_id, tenantId: row.tenant_id });
    return row.work_unit_id;
  });
}

/**
 * PATCH /v1/workunits/{id}, the single-unit change every edit goes through: applies a JSON Patch
 * (RFC 6902) to the unit's editable state, with its rules, history, events and audit, inside one
 * transaction that holds the row, so two editors are served one after the other: the second one's
 * `test` operations no longer hold and nothing of it is written (spec 001 §8).
 */
export async function patchWorkUnit(
  db: Db,
  user: Principal,
  workUnitId: number,
  operations: readonly Operation[],
): Promise<void> {
  for (const pointer of operations.flatMap(pointersOf)) {
    const field = pointer.split('/')[1] ?? '';
    if (!PATCHABLE.has(field))
      throw new BadRequestError(`'${pointer}' cannot be changed.`, {
        [field || 'path']: [`'${pointer}' cannot be changed.`],
      });
  }
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const { row, relations } = await lockWorkUnit(trx, { scope: user.tenantScope }, workUnitId);
    const before = toDocument(row, relations);
    const patched = applyJsonPatch(before, operations, (reason) => new BadRequestError(reason));
    const after = await checkWorkUnit(tx, user, parseDocument(patched), before);
    // A patch that changes nothing writes nothing: no modified stamp, no history, no event.
    const unchanged = workUnitInputSchema.safeParse(before);
    if (unchanged.success && JSON.stringify(after) === JSON.stringify(unchanged.data)) return;
    if (after.tenantId !== before.tenantId) {
      await tx
        .updateTable('work_unit_note')
        .set({ tenant_id: after.tenantId })
        .where('work_unit_id', '=', workUnitId)
        .execute();
      await tx
        .updateTable('work_unit_event')
        .set({ tenant_id: after.tenantId })
        .where('work_unit_id', '=', workUnitId)
        .execute();
    }
    await tx
      .updateTable('work_unit')
      .set({
        ...toColumns(after),
        resolved: resolvedFor(after.stateId, row.resolved),
        modified: new Date(),
        modified_by: user.userName,
      })
      .where('work_unit_id', '=', workUnitId)
      .execute();
    await writeRelations(trx, workUnitId, after.relations);
    await recordChange(tx, { workUnitId, tenantId: after.tenantId }, user.userName, before, after);
    if (
      row.source === RESOLUTION_CENTER_SOURCE &&
      after.stateId === WORK_UNIT_STATES.Resolved &&
      before.stateId !== WORK_UNIT_STATES.Resolved
    ) {
      await enqueueResolutionCenterEmail(
        trx,
        { workUnitId, tenantId: after.tenantId },
        'ResolutionCenterResolved',
        user.userName,
      );
    }
    const { relations: _r, ...comparableBefore } = before;
    const { relations: _a, ...comparableAfter } = after;
    await recordAudit(trx, user, {
      entityType: 'workUnit',
      entityId: String(workUnitId),
      tenantId: after.tenantId,
      action: 'update',
      changes: changedFields(comparableBefore, comparableAfter),
    });
  });
}

/** Why one unit of a bulk change was refused: the field texts of a validation answer, else its message. */
function refusalOf(error: HttpError): string {
  const texts = Object.values(error.errors ?? {}).flat();
  return texts.length > 0 ? texts.join(' ') : error.message;
}

/**
 * Bulk changes (assign, state): the same patch for each selected unit, each through the
 * single-unit edit in a transaction of its own, so a unit the rules refuse (a New unit cannot go
 * straight to In Progress, spec 001 §4) leaves the others changed and is reported with its reason.
 */
export async function bulkPatchWorkUnits(
  db: Db,
  user: Principal,
  workUnitIds: readonly number[],
  operations: readonly Operation[],
): Promise<BulkResult<number>> {
  const ids = [...new Set(workUnitIds)];
  // Like every route naming a unit: one the caller cannot see answers 404, and nothing is changed.
  const visible = await scoped(db, user.tenantScope)
    .selectFrom('work_unit')
    .select('work_unit_id')
    .where('work_unit_id', 'in', ids)
    .execute();
  if (visible.length !== ids.length) throw new NotFoundError('The work unit');
  const result: BulkResult<number> = { succeeded: [], refused: [] };
  for (const id of ids) {
    try {
      await patchWorkUnit(db, user, id, operations);
      result.succeeded.push(id);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      result.refused.push({ id, message: refusalOf(error) });
    }
  }
  return result;
}
