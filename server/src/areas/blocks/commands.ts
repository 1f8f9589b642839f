import type { Selectable } from 'kysely';
import { BLOCK_MESSAGES, type Block, type BlockCreateValues, type BlockUpdateValues } from '@cfs/contracts/blocks';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';

export const presentBlock = (row: Selectable<Database['block']>, color?: string | null): Block => ({
  blockId: row.block_id,
  tenantId: row.tenant_id,
  subscriptionId: row.subscription_id,
  name: row.name,
  description: row.description,
  blockTypeId: row.block_type_id,
  created: row.created,
  createdBy: row.created_by,
  modified: row.modified,
  modifiedBy: row.modified_by,
  ...(color === undefined ? {} : { entityColor: color === null ? null : { color } }),
});

/** The block, locked for the write: 404 when it is not there or not the caller's. */
async function lockBlock(trx: Tx, scope: TenantScope, blockId: string): Promise<Selectable<Database['block']>> {
  return orNotFound(await scoped(trx, scope).selectFrom('block').selectAll().where('block_id', '=', blockId).forUpdate().executeTakeFirst(), 'The block');
}

export async function findBlock(db: Db, scope: TenantScope, blockId: string): Promise<Block> {
  const row = orNotFound(await scoped(db, scope).selectFrom('block').selectAll().where('block_id', '=', blockId).executeTakeFirst(), 'The block');
  const color = await scoped(db, scope).selectFrom('entity_color').select('color').where('entity_id', '=', blockId).executeTakeFirst();
  return presentBlock(row, color?.color ?? null);
}

/**
 * PUT /v1/blocks (spec 002 §4, §5 Block): the tenant is the subscription's. The id is the entity's,
 * and one entity has one block: an id already used answers 400 with a clear text on blockId.
 */
export async function createBlock(db: Db, user: Principal, input: BlockCreateValues): Promise<Block> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const subscription = await tx.selectFrom('subscription').select(['subscription_id', 'tenant_id']).where('subscription_id', '=', input.subscriptionId).executeTakeFirst();
    if (!subscription) throw new BadRequestError(BLOCK_MESSAGES.saveFailed, { subscriptionId: [BLOCK_MESSAGES.subscriptionRequired] });
    if (input.tenantId && input.tenantId !== subscription.tenant_id) throw new BadRequestError(BLOCK_MESSAGES.saveFailed, { subscriptionId: [BLOCK_MESSAGES.subscriptionRequired] });
    const row = await tx
      .insertInto('block', {
        block_id: input.blockId,
        tenant_id: subscription.tenant_id,
        subscription_id: subscription.subscription_id,
        name: input.name,
        description: input.description,
        block_type_id: input.blockTypeId,
        created_by: user.userName,
        modified_by: user.userName,
      })
      // Another tenant's block may hold the id: the answer says only that the id is taken (400 on the
      // field, so the form shows it under Block ID).
      .onConflict((conflict) => conflict.column('block_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new BadRequestError(BLOCK_MESSAGES.blockIdTaken, { blockId: [BLOCK_MESSAGES.blockIdTaken] });
    await recordAudit(trx, user, { entityType: 'block', entityId: row.block_id, tenantId: row.tenant_id, action: 'create', changes: { name: row.name, blockTypeId: row.block_type_id } });
    const color = await tx.selectFrom('entity_color').select('color').where('entity_id', '=', row.block_id).executeTakeFirst();
    return presentBlock(row, color?.color ?? null);
  });
}

/** POST /v1/blocks/{id}: only the name and the description change (spec 002 §4). */
export async function updateBlock(db: Db, user: Principal, blockId: string, input: BlockUpdateValues): Promise<Block> {
  return db.transaction().execute(async (trx) => {
    const before = presentBlock(await lockBlock(trx, user.tenantScope, blockId));
    const row = await scoped(trx, user.tenantScope)
      .updateTable('block')
      .set({ name: input.name, description: input.description, modified: new Date(), modified_by: user.userName })
      .where('block_id', '=', blockId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = presentBlock(row);
    const { modified: _modified, modifiedBy: _modifiedBy, ...changes } = changedFields(before, after);
    await recordAudit(trx, user, { entityType: 'block', entityId: blockId, tenantId: row.tenant_id, action: 'update', changes });
    const color = await scoped(trx, user.tenantScope).selectFrom('entity_color').select('color').where('entity_id', '=', blockId).executeTakeFirst();
    return presentBlock(row, color?.color ?? null);
  });
}

/** DELETE /v1/blocks/{id}: the tile goes; the entity's packets, colour and logs stay (they are the entity's). */
export async function deleteBlock(db: Db, user: Principal, blockId: string): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBlock(trx, user.tenantScope, blockId);
    await scoped(trx, user.tenantScope).deleteFrom('block').where('block_id', '=', blockId).execute();
    await recordAudit(trx, user, { entityType: 'block', entityId: blockId, tenantId: row.tenant_id, action: 'delete', changes: { name: row.name } });
    return { message: BLOCK_MESSAGES.deleted };
  });
}
