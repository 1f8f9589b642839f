import {
  COMMUNICATION_MESSAGES,
  type Communication,
  type CommunicationActivity,
  type CommunicationValues,
  type communicationActivityInputSchema,
} from '@cfs/contracts/communications';
import type { z } from 'zod';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';
import { ACTIVITY, COMMUNICATION } from './queries.js';
import { communicationActivityEntity, communicationEntity } from './resource.js';

type ActivityValues = z.output<typeof communicationActivityInputSchema>;
const ENTITY = 'workUnitCommunication';

/** A tenant outside the caller's scope is as good as none chosen: the form's tenant message. */
async function assertTenant(executor: Db | Tx, user: Principal, tenantId: string): Promise<void> {
  if (!(await scoped(executor, user.tenantScope).hasTenant(tenantId))) {
    throw new BadRequestError(COMMUNICATION_MESSAGES.saveFailed, { tenantId: [COMMUNICATION_MESSAGES.tenantRequired] });
  }
}

/** The communication, locked for this transaction; 404 outside the caller's scope. */
async function lockCommunication(trx: Tx, user: Principal, id: string) {
  const row = await scoped(trx, user.tenantScope)
    .selectFrom('work_unit_communication')
    .selectAll()
    .where('work_unit_communication_id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return orNotFound(row, COMMUNICATION);
}

/** The communication's own fields, read in the transaction: what its audit records compare. */
async function readCommunication(trx: Tx, user: Principal, id: string): Promise<Communication> {
  return communicationEntity.present(
    await scoped(trx, user.tenantScope)
      .selectFrom('work_unit_communication')
      .selectAll()
      .where('work_unit_communication_id', '=', id)
      .executeTakeFirstOrThrow(),
  );
}

/** An activity or a link changes what the communication says: its modified time moves with it. */
async function touchCommunication(trx: Tx, user: Principal, id: string): Promise<void> {
  await scoped(trx, user.tenantScope)
    .updateTable('work_unit_communication')
    .set({ modified: new Date(), modified_by: user.userName })
    .where('work_unit_communication_id', '=', id)
    .execute();
}

/** PUT v1/workunitcommunications: a new communication, Investigating unless the form says otherwise; its id. */
export async function createCommunication(db: Db, user: Principal, input: CommunicationValues): Promise<string> {
  await assertTenant(db, user, input.tenantId);
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const row = await scoped(trx, user.tenantScope)
      .insertInto('work_unit_communication', {
        ...communicationEntity.writeColumns(input),
        created_by: user.userName,
        modified_by: user.userName,
        user_changed: now,
        user_changed_by: user.userName,
      })
      .returning('work_unit_communication_id')
      .executeTakeFirstOrThrow();
    const created = await readCommunication(trx, user, row.work_unit_communication_id);
    await recordAudit(trx, user, {
      entityType: ENTITY,
      entityId: created.workUnitCommunicationId,
      tenantId: created.tenantId,
      action: 'create',
      changes: { title: created.title, status: created.status },
    });
    return created.workUnitCommunicationId;
  });
}

/**
 * POST v1/workunitcommunications/{id}: the whole form again. A communication moved to another
 * tenant takes its activities along; its linked work units would then belong to another tenant,
 * so the move is refused while any are linked.
 */
export async function updateCommunication(
  db: Db,
  user: Principal,
  id: string,
  input: CommunicationValues,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const locked = await lockCommunication(trx, user, id);
    const tx = scoped(trx, user.tenantScope);
    if (input.tenantId !== locked.tenant_id) {
      await assertTenant(trx, user, input.tenantId);
      const link = await tx
        .selectFrom('work_unit_communication_work_unit')
        .select('work_unit_id')
        .where('work_unit_communication_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      if (link)
        throw new BadRequestError(COMMUNICATION_MESSAGES.saveFailed, {
          tenantId: [COMMUNICATION_MESSAGES.linkCrossesTenant],
        });
    }
    const before = await readCommunication(trx, user, id);
    const now = new Date();
    await tx
      .updateTable('work_unit_communication')
      .set({
        ...communicationEntity.writeColumns(input),
        modified: now,
        modified_by: user.userName,
        user_changed: now,
        user_changed_by: user.userName,
      })
      .where('work_unit_communication_id', '=', id)
      .execute();
    if (input.tenantId !== locked.tenant_id) {
      await tx
        .updateTable('work_unit_communication_activity')
        .set({ tenant_id: input.tenantId })
        .where('work_unit_communication_id', '=', id)
        .execute();
    }
    const after = await readCommunication(trx, user, id);
    const {
      modified: _m,
      userChanged: _u,
      userChangedBy: _b,
      isOverdue: _o,
      isInternalOverdue: _i,
      ...changes
    } = changedFields(before, after);
    await recordAudit(trx, user, {
      entityType: ENTITY,
      entityId: id,
      tenantId: after.tenantId,
      action: 'update',
      changes,
    });
  });
}

/** DELETE v1/workunitcommunications/{id}: its links and activities go with it. */
export async function deleteCommunication(db: Db, user: Principal, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const locked = await lockCommunication(trx, user, id);
    await scoped(trx, user.tenantScope)
      .deleteFrom('work_unit_communication')
      .where('work_unit_communication_id', '=', id)
      .execute();
    await recordAudit(trx, user, {
      entityType: ENTITY,
      entityId: id,
      tenantId: locked.tenant_id,
      action: 'delete',
      changes: { title: locked.title },
    });
  });
}

/**
 * POST v1/workunitcommunications/{id}/workUnits: links the work units, each once however often
 * asked. Every unit must be one the caller may see (else none is linked) and of the
 * communication's own tenant.
 */
export async function linkWorkUnits(
  db: Db,
  user: Principal,
  id: string,
  workUnitIds: readonly number[],
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const communication = await lockCommunication(trx, user, id);
    const wanted = [...new Set(workUnitIds)];
    const units = await scoped(trx, user.tenantScope)
      .selectFrom('work_unit')
      .select(['work_unit_id', 'tenant_id'])
      .where('work_unit_id', 'in', wanted)
      .execute();
    if (units.length !== wanted.length)
      throw new BadRequestError(COMMUNICATION_MESSAGES.workUnitNotVisible, {
        workunitIds: [COMMUNICATION_MESSAGES.workUnitNotVisible],
      });
    if (units.some((unit) => unit.tenant_id !== communication.tenant_id)) {
      throw new BadRequestError(COMMUNICATION_MESSAGES.linkCrossesTenant, {
        workunitIds: [COMMUNICATION_MESSAGES.linkCrossesTenant],
      });
    }
    const added = await scoped(trx, user.tenantScope)
      .insertInto(
        'work_unit_communication_work_unit',
        units.map((unit) => ({
          work_unit_communication_id: id,
          work_unit_id: unit.work_unit_id,
          tenant_id: communication.tenant_id,
          created_by: user.userName,
        })),
      )
      .onConflict((oc) => oc.columns(['work_unit_communication_id', 'work_unit_id']).doNothing())
      .returning('work_unit_id')
      .execute();
    if (added.length > 0) {
      await touchCommunication(trx, user, id);
      await recordAudit(trx, user, {
        entityType: ENTITY,
        entityId: id,
        tenantId: communication.tenant_id,
        action: 'link',
        changes: { workUnitIds: added.map((row) => row.work_unit_id) },
      });
    }
  });
}

/** DELETE v1/workunitcommunications/{id}/workUnits/{workunitId}: unlinking a unit that is not linked changes nothing. */
export async function unlinkWorkUnit(db: Db, user: Principal, id: string, workUnitId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const communication = await lockCommunication(trx, user, id);
    const removed = await scoped(trx, user.tenantScope)
      .deleteFrom('work_unit_communication_work_unit')
      .where('work_unit_communication_id', '=', id)
      .where('work_unit_id', '=', workUnitId)
      .returning('work_unit_id')
      .execute();
    if (removed.length > 0) {
      await touchCommunication(trx, user, id);
      await recordAudit(trx, user, {
        entityType: ENTITY,
        entityId: id,
        tenantId: communication.tenant_id,
        action: 'unlink',
        changes: { workUnitIds: [workUnitId] },
      });
    }
  });
}

/**
 * A completed step is a past step (ResolutionActivity), an open one a next step (TaskActivity)
 * (spec 001 §4 Activity): the type follows the check box, and a completed step keeps the time it
 * was completed (now unless given).
 */
function activityColumns(input: ActivityValues, previousCompleted: Date | null) {
  return {
    activity_type: input.isComplete ? 'ResolutionActivity' : 'TaskActivity',
    details: input.details,
    is_customer_facing: input.isCustomerFacing,
    is_complete: input.isComplete,
    completed: input.isComplete ? (input.completed ?? previousCompleted ?? new Date()) : null,
  };
}

/** PUT v1/workunitcommunicationactivities: a step of a communication the caller may see, carrying its tenant. */
export async function createActivity(db: Db, user: Principal, input: ActivityValues): Promise<CommunicationActivity> {
  return db.transaction().execute(async (trx) => {
    const communication = await lockCommunication(trx, user, input.workUnitCommunicationId);
    const row = await scoped(trx, user.tenantScope)
      .insertInto('work_unit_communication_activity', {
        ...activityColumns(input, null),
        work_unit_communication_id: communication.work_unit_communication_id,
        tenant_id: communication.tenant_id,
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await touchCommunication(trx, user, communication.work_unit_communication_id);
    await recordAudit(trx, user, {
      entityType: ENTITY,
      entityId: communication.work_unit_communication_id,
      tenantId: communication.tenant_id,
      action: 'add activity',
      changes: { activityType: row.activity_type, details: row.details },
    });
    return communicationActivityEntity.present(row);
  });
}

async function lockActivity(trx: Tx, user: Principal, id: string) {
  const row = await scoped(trx, user.tenantScope)
    .selectFrom('work_unit_communication_activity')
    .selectAll()
    .where('work_unit_communication_activity_id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return orNotFound(row, ACTIVITY);
}

/** POST v1/workunitcommunicationactivities/{id}: a step stays with its communication. */
export async function updateActivity(
  db: Db,
  user: Principal,
  id: string,
  input: ActivityValues,
): Promise<CommunicationActivity> {
  return db.transaction().execute(async (trx) => {
    const locked = await lockActivity(trx, user, id);
    if (input.workUnitCommunicationId !== locked.work_unit_communication_id) {
      throw new BadRequestError(COMMUNICATION_MESSAGES.saveFailed, {
        workUnitCommunicationId: ['An activity cannot move to another communication.'],
      });
    }
    const before = communicationActivityEntity.present(locked);
    const row = await scoped(trx, user.tenantScope)
      .updateTable('work_unit_communication_activity')
      .set({
        ...activityColumns(input, locked.completed === null ? null : new Date(locked.completed)),
        modified: new Date(),
        modified_by: user.userName,
      })
      .where('work_unit_communication_activity_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = communicationActivityEntity.present(row);
    await touchCommunication(trx, user, locked.work_unit_communication_id);
    await recordAudit(trx, user, {
      entityType: ENTITY,
      entityId: locked.work_unit_communication_id,
      tenantId: locked.tenant_id,
      action: 'update activity',
      changes: changedFields(before, after),
    });
    return after;
  });
}

/** DELETE v1/workunitcommunicationactivities/{id}. */
export async function deleteActivity(db: Db, user: Principal, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const locked = await lockActivity(trx, user, id);
    await scoped(trx, user.tenantScope)
      .deleteFrom('work_unit_communication_activity')
      .where('work_unit_communication_activity_id', '=', id)
      .execute();
    await touchCommunication(trx, user, locked.work_unit_communication_id);
    await recordAudit(trx, user, {
      entityType: ENTITY,
      entityId: locked.work_unit_communication_id,
      tenantId: locked.tenant_id,
      action: 'delete activity',
      changes: { details: locked.details },
    });
  });
}
