import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';

/**
 * The owner of an entity id (table entity_owner, written only here): the tenant whose packets may
 * be stored for it (spec 002 §3 Packet). An entity belongs to the tenant that created it — a
 * block, a device, a device operation — or, for an entity only packets name, to the first tenant
 * that reported it. Ownership never moves, which lets ingestion keep what it learned
 * (ingest.ts, `ownersOf`).
 *
 * Claims run in the creating transaction: two tenants claiming one id meet on the primary key, the
 * second waiting for the first to commit and then finding the id taken (each claim is its own
 * statement, so it sees the other's commit). Reads span every tenant, since another tenant's id
 * must be seen to be refused; what they find is never answered to the caller.
 *
 * @example
 *   if ((await claimEntities(trx, tenantId, [blockId])).length > 0) throw new BadRequestError(...);
 *
 * @returns the ids another tenant owns (the caller's claim on them took nothing); empty when the
 * tenant now owns every id.
 */
export async function claimEntities(trx: Tx, tenantId: string, entityIds: readonly string[]): Promise<string[]> {
  // One order for every claimer, so two claims of overlapping ids wait for each other instead of deadlocking.
  const ids = [...new Set(entityIds.map((id) => id.toLowerCase()))].sort();
  if (ids.length === 0) return [];
  const all = scoped(trx, ALL_TENANTS);
  const inserted = await all
    .insertInto(
      'entity_owner',
      ids.map((id) => ({ entity_id: id, tenant_id: tenantId })),
    )
    .onConflict((conflict) => conflict.column('entity_id').doNothing())
    .returning('entity_id')
    .execute();
  if (inserted.length === ids.length) return [];
  const claimed = new Set(inserted.map((row) => row.entity_id));
  const known = ids.filter((id) => !claimed.has(id));
  const foreign = await all
    .selectFrom('entity_owner')
    .select('entity_id')
    .where('entity_id', 'in', known)
    .where('tenant_id', '<>', tenantId)
    .execute();
  return foreign.map((row) => row.entity_id);
}

/**
 * Records the owner of entities whose ids the portal itself just made (a device, a device
 * operation: gen_random_uuid in their creating transaction), so nobody could have claimed them
 * before; one owned elsewhere is a broken invariant, not a caller's mistake.
 */
export async function recordCreatedEntities(trx: Tx, tenantId: string, entityIds: readonly string[]): Promise<void> {
  const foreign = await claimEntities(trx, tenantId, entityIds);
  if (foreign.length > 0) throw new Error(`A new entity's id is owned by another tenant: ${foreign.join(', ')}`);
}
