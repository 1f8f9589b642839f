import { LOCATION_MESSAGES, type Location, type LocationLookup, type LocationValues } from '@cfs/contracts/locations';
import { changedFields, entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import { ALL_TENANTS, canAccessTenant, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';
import { locationEntity } from './resource.js';

/** Records an action on a location in the change history, in the write's transaction. */
const recordChange = entityAudit(
  'location',
  (row: { location_id: string; tenant_id: string | null }) => row.location_id,
);

/**
 * A tenantless location is shared by every tenant (spec 002 §7 "locations of the tenant or
 * tenantless"): one tenant's staff may read it but not change what all the others see.
 */
function assertMayWriteTenant(user: Principal, tenantId: string | null): void {
  if (tenantId === null && user.tenantScope.kind !== 'all')
    throw new HttpError(403, LOCATION_MESSAGES.tenantlessRefused);
}

async function assertTenant(db: Db, user: Principal, tenantId: string | null): Promise<void> {
  assertMayWriteTenant(user, tenantId);
  if (tenantId !== null && !(await scoped(db, user.tenantScope).hasTenant(tenantId))) {
    throw new BadRequestError(LOCATION_MESSAGES.saveFailed, { tenantId: ['Please choose a tenant.'] });
  }
}

export async function findLocation(db: Db, scope: TenantScope, id: string): Promise<Location> {
  const row = await scoped(db, scope)
    .selectFrom('location')
    .selectAll()
    .where('location_id', '=', id)
    .executeTakeFirst();
  return locationEntity.present(orNotFound(row, 'The location'));
}

export async function createLocation(db: Db, user: Principal, input: LocationValues): Promise<Location> {
  await assertTenant(db, user, input.tenantId);
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('location', {
        ...locationEntity.writeColumns(input),
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'create', { name: row.name });
    return locationEntity.present(row);
  });
}

export async function updateLocation(db: Db, user: Principal, id: string, input: LocationValues): Promise<Location> {
  await assertTenant(db, user, input.tenantId);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const locked = orNotFound(
      await tx.selectFrom('location').selectAll().where('location_id', '=', id).forUpdate().executeTakeFirst(),
      'The location',
    );
    assertMayWriteTenant(user, locked.tenant_id);
    // A location becoming one tenant's must not hold other tenants' devices (read across tenants:
    // only the yes or no leaves here).
    if (input.tenantId !== null && input.tenantId !== locked.tenant_id) {
      const elsewhere = await scoped(trx, ALL_TENANTS)
        .selectFrom('device')
        .select('device_id')
        .where('location_id', '=', id)
        .where('tenant_id', '<>', input.tenantId)
        .where('is_deleted', '=', false)
        .limit(1)
        .executeTakeFirst();
      if (elsewhere)
        throw new BadRequestError(LOCATION_MESSAGES.saveFailed, { tenantId: [LOCATION_MESSAGES.usedByOtherTenants] });
    }
    const before = locationEntity.present(locked);
    const row = await tx
      .updateTable('location')
      .set({ ...locationEntity.writeColumns(input), modified: new Date(), modified_by: user.userName })
      .where('location_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = locationEntity.present(row);
    const { modified: _modified, modifiedBy: _modifiedBy, ...changes } = changedFields(before, after);
    await recordChange(trx, user, { location_id: id, tenant_id: row.tenant_id ?? before.tenantId }, 'update', changes);
    return after;
  });
}

/**
 * `/api/generallookup/locations` (spec 002 §7): the tenant's locations and the tenantless ones,
 * for the device form's Location choice. Without `tenantId`, every tenant of the caller.
 */
export async function findLocationLookups(
  db: Db,
  scope: TenantScope,
  tenantId: string | undefined,
): Promise<LocationLookup[]> {
  if (tenantId !== undefined && !canAccessTenant(scope, tenantId)) return [];
  let query = scoped(db, scope).selectFrom('location').select(['location_id', 'name', 'tenant_id']);
  if (tenantId !== undefined)
    query = query.where((eb) => eb.or([eb('tenant_id', '=', tenantId), eb('tenant_id', 'is', null)]));
  const rows = await query.orderBy('name').orderBy('location_id').limit(1000).execute();
  return rows.map((row) => ({ locationId: row.location_id, name: row.name, tenantId: row.tenant_id }));
}
