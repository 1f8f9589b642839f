import type { Selectable } from 'kysely';
import { BLOCK_MESSAGES, type Block, type BlockCreateValues, type BlockUpdateValues } from '@cfs/contracts/blocks';
import { changedFields, entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { claimEntities } from '../../engines/ingestion/entity-owners.js';
import type { DB as Database } from '../../db/schema.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';
import { blockEntity } from './resource.js';

/** Records an action on a block in the change history, in the write's transaction. */
const recordChange = entityAudit('block', (row: { block_id: string; tenant_id: string | null }) => row.block_id);

/** One block as the contract gives it; with `color` (null: none), its entity's colour as the list rows carry it. */
export const presentBlock = (row: Selectable<Database['block']>, color?: string | null): Block => ({
  ...blockEntity.present(row),
  ...(color === undefined ? {} : { entityColor: color === null ? null : { color } }),
});

/** The block, locked for the write: 404 when it is not there or not the caller's. */
async function lockBlock(trx: Tx, scope: TenantScope, blockId: string): Promise<Selectable<Database['block']>> {
  return orNotFound(
    await scoped(trx, scope)
      .selectFrom('block')
      .selectAll()
      .where('block_id', '=', blockId)
      .forUpdate()
      .executeTakeFirst(),
    'The block',
  );
}

export async function findBlock(db: Db, scope: TenantScope, blockId: string): Promise<Block> {
  const row = orNotFound(
    await scoped(db, scope).selectFrom('block').selectAll().where('block_id', '=', blockId).executeTakeFirst(),
    'The block',
  );
  const color = await scoped(db, scope)
    .selectFrom('entity_color')
    .select('color')
    .where('entity_id', '=', blockId)
    .executeTakeFirst();
  return presentBlock(row, color?.color ?? null);
}

/**
 * PUT /v1/blocks (spec 002 §4, §5 Block): the tenant is the subscription's. The id is the entity's
 * — the one its packets name — so creating the block makes the tenant the entity's owner
 * (entity-owners.ts), in the same transaction: another tenant's packets for it are refused from
 * then on. An id the tenant cannot take answers 400 on blockId.
 *
 * Why one text for every such id: entity ids are global (packets address them), so an id another
 * tenant owns cannot be given to this one too, and a refusal is unavoidable. What the answer must
 * not do is tell what holds the id or where: the same text answers an id of the caller's own
 * existing block and an id of another tenant's block, device, device operation or reported
 * entity, so it says no more about another tenant than the caller knows of its own blocks. (Block
 * ids per tenant would hide even that, but then two tenants would own one entity's packets.)
 */
export async function createBlock(db: Db, user: Principal, input: BlockCreateValues): Promise<Block> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const subscription = await tx
      .selectFrom('subscription')
      .select(['subscription_id', 'tenant_id'])
      .where('subscription_id', '=', input.subscriptionId)
      .executeTakeFirst();
    if (!subscription)
      throw new BadRequestError(BLOCK_MESSAGES.saveFailed, { subscriptionId: [BLOCK_MESSAGES.subscriptionRequired] });
    if (input.tenantId && input.tenantId !== subscription.tenant_id)
      throw new BadRequestError(BLOCK_MESSAGES.saveFailed, { subscriptionId: [BLOCK_MESSAGES.subscriptionRequired] });
    const unavailable = () =>
      new BadRequestError(BLOCK_MESSAGES.blockIdUnavailable, { blockId: [BLOCK_MESSAGES.blockIdUnavailable] });
    if ((await claimEntities(trx, subscription.tenant_id, [input.blockId])).length > 0) throw unavailable();
    const row = await tx
      .insertInto('block', {
        ...blockEntity.writeColumns(input),
        block_id: input.blockId,
        tenant_id: subscription.tenant_id,
        subscription_id: subscription.subscription_id,
        block_type_id: input.blockTypeId,
        created_by: user.userName,
        modified_by: user.userName,
      })
      .onConflict((conflict) => conflict.column('block_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw unavailable();
    await recordChange(trx, user, row, 'create', { name: row.name, blockTypeId: row.block_type_id });
    const color = await tx
      .selectFrom('entity_color')
      .select('color')
      .where('entity_id', '=', row.block_id)
      .executeTakeFirst();
    return presentBlock(row, color?.color ?? null);
  });
}

/** POST /v1/blocks/{id}: only the name and the description change (spec 002 §4). */
export async function updateBlock(db: Db, user: Principal, blockId: string, input: BlockUpdateValues): Promise<Block> {
  return db.transaction().execute(async (trx) => {
    const before = presentBlock(await lockBlock(trx, user.tenantScope, blockId));
    const row = await scoped(trx, user.tenantScope)
      .updateTable('block')
      .set({ ...blockEntity.writeColumns(input), modified: new Date(), modified_by: user.userName })
      .where('block_id', '=', blockId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = presentBlock(row);
    const { modified: _modified, modifiedBy: _modifiedBy, ...changes } = changedFields(before, after);
    await recordChange(trx, user, row, 'update', changes);
    const color = await scoped(trx, user.tenantScope)
      .selectFrom('entity_color')
      .select('color')
      .where('entity_id', '=', blockId)
      .executeTakeFirst();
    return presentBlock(row, color?.color ?? null);
  });
}

/** DELETE /v1/blocks/{id}: the tile goes; the entity's packets, colour and logs stay (they are the entity's). */
export async function deleteBlock(db: Db, user: Principal, blockId: string): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBlock(trx, user.tenantScope, blockId);
    await scoped(trx, user.tenantScope).deleteFrom('block').where('block_id', '=', blockId).execute();
    await recordChange(trx, user, row, 'delete', { name: row.name });
    return { message: BLOCK_MESSAGES.deleted };
  });
}
