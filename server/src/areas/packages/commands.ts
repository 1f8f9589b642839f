import { sql } from 'kysely';
import { INSTALL_STATUSES } from '@cfs/contracts/fleet';
import {
  PACKAGE_MESSAGES,
  type Operation,
  type OperationValues,
  type Package,
  type PackageDetail,
  type PackageValues,
} from '@cfs/contracts/packages';
import { changedFields, entityAudit } from '../../audit/audit.js';
import { requireHostAccess } from '../../auth/host-access.js';
import type { Principal } from '../../auth/principal.js';
import { ALL_TENANTS, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';
import { operationEntity, packageEntity, packageVersionEntity } from './resource.js';

/** Records an action on a package in the change history, in the write's transaction. */
const recordChange = entityAudit('package', (row: { package_id: string; tenant_id: string | null }) => row.package_id);

/**
 * A tenantless package is the installation's own and offered to every tenant: one tenant's staff
 * may read it but not change what all the others see.
 */
export function assertMayWriteTenant(user: Principal, tenantId: string | null): void {
  if (tenantId === null && user.tenantScope.kind !== 'all')
    throw new HttpError(403, PACKAGE_MESSAGES.tenantlessRefused);
}

async function assertTenant(db: Db, user: Principal, tenantId: string | null): Promise<void> {
  assertMayWriteTenant(user, tenantId);
  if (tenantId !== null && !(await scoped(db, user.tenantScope).hasTenant(tenantId))) {
    throw new BadRequestError(PACKAGE_MESSAGES.saveFailed, { tenantId: ['Please choose a tenant.'] });
  }
}

/** The package, locked for a change of it or of its operations and versions; 403 for a shared one unless the caller has every tenant. */
export async function lockPackage(tx: ScopedDb<Tx>, user: Principal, id: string) {
  const row = orNotFound(
    await tx.selectFrom('package').selectAll().where('package_id', '=', id).forUpdate().executeTakeFirst(),
    'The package',
  );
  assertMayWriteTenant(user, row.tenant_id);
  return row;
}

export async function findPackage(db: Db, scope: TenantScope, id: string): Promise<PackageDetail> {
  const row = orNotFound(
    await scoped(db, scope).selectFrom('package').selectAll().where('package_id', '=', id).executeTakeFirst(),
    'The package',
  );
  // Children of a package the scope has just shown.
  const [operations, versions] = await Promise.all([
    db
      .selectFrom('operation')
      .selectAll()
      .where('package_id', '=', id)
      .orderBy('name')
      .orderBy('operation_id')
      .execute(),
    db
      .selectFrom('package_version')
      .selectAll()
      .where('package_id', '=', id)
      .orderBy('created', 'desc')
      .orderBy('package_version_id')
      .execute(),
  ]);
  return {
    ...packageEntity.present(row),
    operations: operations.map((row) => operationEntity.present(row)),
    versions: versions.map((row) => packageVersionEntity.present(row)),
  };
}

export async function createPackage(db: Db, user: Principal, input: PackageValues): Promise<Package> {
  await assertTenant(db, user, input.tenantId);
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('package', {
        ...packageEntity.writeColumns(input),
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'create', { name: row.name });
    return packageEntity.present(row);
  });
}

export async function updatePackage(db: Db, user: Principal, id: string, input: PackageValues): Promise<Package> {
  await assertTenant(db, user, input.tenantId);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = packageEntity.present(await lockPackage(tx, user, id));
    // A package becoming one tenant's must not be on other tenants' devices: their staff would
    // lose sight of what runs there, and that tenant's staff could change it.
    if (
      input.tenantId !== null &&
      input.tenantId !== before.tenantId &&
      (await packageInUse(trx, id, { outsideTenant: input.tenantId }))
    ) {
      throw new BadRequestError(PACKAGE_MESSAGES.usedByOtherTenants, {
        tenantId: [PACKAGE_MESSAGES.usedByOtherTenants],
      });
    }
    const row = await tx
      .updateTable('package')
      .set({ ...packageEntity.writeColumns(input), modified: new Date(), modified_by: user.userName })
      .where('package_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = packageEntity.present(row);
    const { modified: _modified, modifiedBy: _modifiedBy, ...changes } = changedFields(before, after);
    await recordChange(trx, user, { package_id: id, tenant_id: row.tenant_id ?? before.tenantId }, 'update', changes);
    return after;
  });
}

/** Install states in which a device has the package or is about to (anything but nothing chosen or removed). */
const HELD = [
  INSTALL_STATUSES.Pending,
  INSTALL_STATUSES.Installed,
  INSTALL_STATUSES.Failed,
  INSTALL_STATUSES.RemovalPending,
];

/**
 * Whether any device, of any tenant, holds the package or runs one of its operations. Read across
 * every tenant on purpose: a shared package is used by tenants its editor may not see, and only
 * the yes or no leaves this function.
 */
async function packageInUse(
  trx: Tx,
  packageId: string,
  { outsideTenant }: { outsideTenant?: string } = {},
): Promise<boolean> {
  const everyone = scoped(trx, ALL_TENANTS);
  const installed = await everyone
    .selectFrom('device_installation')
    .select('device_id')
    .where('package_id', '=', packageId)
    .where('install_status_id', 'in', HELD)
    .$if(outsideTenant !== undefined, (query) => query.where('tenant_id', '<>', outsideTenant ?? ''))
    .limit(1)
    .executeTakeFirst();
  if (installed) return true;
  const used = await everyone
    .selectFrom('device_operation')
    .select('device_operation_id')
    .where('operation_id', 'in', trx.selectFrom('operation').select('operation_id').where('package_id', '=', packageId))
    // Deleted device operations still name the operation (their history stays), so they keep a
    // package from being deleted; only live ones keep it from becoming another tenant's.
    .$if(outsideTenant !== undefined, (query) =>
      query.where('tenant_id', '<>', outsideTenant ?? '').where('is_deleted', '=', false),
    )
    .limit(1)
    .executeTakeFirst();
  return used !== undefined;
}

/** Deletes the package with its versions and operations; returns the hashes of the files no version names any more. */
export async function deletePackage(db: Db, user: Principal, id: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const row = await lockPackage(tx, user, id);
    if (await packageInUse(trx, id)) throw new BadRequestError(PACKAGE_MESSAGES.deleteInUse);
    const files = await trx
      .selectFrom('package_version')
      .select('file_sha256')
      .distinct()
      .where('package_id', '=', id)
      .execute();
    // Rows that say "nothing chosen" or "removed" go with the package (ON DELETE CASCADE).
    await tx.deleteFrom('package').where('package_id', '=', id).execute();
    await recordChange(trx, user, row, 'delete', { name: row.name });
    return unreferenced(
      trx,
      files.map((file) => file.file_sha256),
    );
  });
}

/** Of these hashes, those no package version names. */
export async function unreferenced(trx: Tx, hashes: string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const still = await trx
    .selectFrom('package_version')
    .select('file_sha256')
    .where('file_sha256', 'in', hashes)
    .execute();
  const named = new Set(still.map((row) => row.file_sha256));
  return hashes.filter((hash) => !named.has(hash));
}

export async function createOperation(
  db: Db,
  user: Principal,
  packageId: string,
  input: OperationValues,
): Promise<Operation> {
  requireHostAccess(user, [input.operationType]);
  return db.transaction().execute(async (trx) => {
    const pkg = await lockPackage(scoped(trx, user.tenantScope), user, packageId);
    const row = await trx
      .insertInto('operation')
      .values({
        ...operationEntity.writeColumns(input),
        package_id: packageId,
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, pkg, 'create operation', { operationId: row.operation_id, name: row.name });
    return operationEntity.present(row);
  });
}

async function lockOperation(trx: Tx, packageId: string, operationId: string) {
  return orNotFound(
    await trx
      .selectFrom('operation')
      .selectAll()
      .where('operation_id', '=', operationId)
      .where('package_id', '=', packageId)
      .forUpdate()
      .executeTakeFirst(),
    'The operation',
  );
}

export async function updateOperation(
  db: Db,
  user: Principal,
  packageId: string,
  operationId: string,
  input: OperationValues,
): Promise<Operation> {
  // Also a change of an operation's type: a Metric that devices run must not become a Read File.
  requireHostAccess(user, [input.operationType]);
  return db.transaction().execute(async (trx) => {
    const pkg = await lockPackage(scoped(trx, user.tenantScope), user, packageId);
    const before = operationEntity.present(await lockOperation(trx, packageId, operationId));
    const row = await trx
      .updateTable('operation')
      .set({ ...operationEntity.writeColumns(input), modified: sql<Date>`now()`, modified_by: user.userName })
      .where('operation_id', '=', operationId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = operationEntity.present(row);
    const { modified: _modified, ...changes } = changedFields(before, after);
    await recordChange(trx, user, pkg, 'update operation', { operationId, ...changes });
    return after;
  });
}

export async function deleteOperation(db: Db, user: Principal, packageId: string, operationId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const pkg = await lockPackage(scoped(trx, user.tenantScope), user, packageId);
    const row = await lockOperation(trx, packageId, operationId);
    // Across every tenant, as for the package: only whether one exists leaves here.
    const used = await scoped(trx, ALL_TENANTS)
      .selectFrom('device_operation')
      .select('device_operation_id')
      .where('operation_id', '=', operationId)
      .limit(1)
      .executeTakeFirst();
    if (used) throw new BadRequestError(PACKAGE_MESSAGES.operationInUse);
    await trx.deleteFrom('operation').where('operation_id', '=', operationId).execute();
    await recordChange(trx, user, pkg, 'delete operation', { operationId, name: row.name });
  });
}
