import { sql } from 'kysely';
import {
  CATEGORY_MESSAGES,
  type WorkUnitCategory,
  type WorkUnitCategoryInput,
  type WorkUnitSubcategory,
  type WorkUnitSubcategoryInput,
  type WorkUnitType,
} from '@cfs/contracts/work-unit-settings';
import { changedFields, entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import type { Db, Tx } from '../../db/database.js';
import { BadRequestError, NotFoundError, orNotFound } from '../../http/errors.js';
import { categoryEntity, subcategoryEntity, typeEntity } from './resources.js';

/** Records an action on a category, subcategory or type in the change history, in the write's transaction. */
const recordCategory = entityAudit('workUnitCategory', (row: { work_unit_category_id: number; tenant_id: string }) =>
  String(row.work_unit_category_id),
);
/** A subcategory's record is its category's tenant's. */
const recordSubcategory = entityAudit(
  'workUnitSubcategory',
  (row: { work_unit_subcategory_id: number; tenant_id: string }) => String(row.work_unit_subcategory_id),
);
/** Types are every tenant's: their records have no tenant. */
const recordType = entityAudit('workUnitType', (row: { work_unit_type_id: number; tenant_id: null }) =>
  String(row.work_unit_type_id),
);

async function assertReferences(db: Db, user: Principal, input: WorkUnitCategoryInput): Promise<void> {
  if (!(await scoped(db, user.tenantScope).hasTenant(input.tenantId)))
    throw new BadRequestError(CATEGORY_MESSAGES.categorySaveFailed, { tenantId: [CATEGORY_MESSAGES.tenantRequired] });
  const type = await db
    .selectFrom('work_unit_type')
    .select('work_unit_type_id')
    .where('work_unit_type_id', '=', input.workUnitTypeId)
    .executeTakeFirst();
  if (!type)
    throw new BadRequestError(CATEGORY_MESSAGES.categorySaveFailed, {
      workUnitTypeId: [CATEGORY_MESSAGES.typeRequired],
    });
}

async function lockCategory(tx: ScopedDb<Tx>, id: number) {
  return orNotFound(
    await tx
      .selectFrom('work_unit_category')
      .selectAll()
      .where('work_unit_category_id', '=', id)
      .forUpdate()
      .executeTakeFirst(),
    'The category',
  );
}

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/** A name the tenant holds already (the unique index on tenant and lower(name)), whatever its case, is the user's mistake: a 400 on the name. */
function refuseTakenName(error: unknown): never {
  if (isUniqueViolation(error))
    throw new BadRequestError(CATEGORY_MESSAGES.categoryNameTaken, { name: [CATEGORY_MESSAGES.categoryNameTaken] });
  throw error;
}

export async function createCategory(db: Db, user: Principal, input: WorkUnitCategoryInput): Promise<WorkUnitCategory> {
  await assertReferences(db, user, input);
  return db
    .transaction()
    .execute(async (trx) => {
      const row = await scoped(trx, user.tenantScope)
        .insertInto('work_unit_category', {
          ...categoryEntity.writeColumns(input),
          created_by: user.userName,
          modified_by: user.userName,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordCategory(trx, user, row, 'create', { name: row.name });
      return categoryEntity.present(row);
    })
    .catch(refuseTakenName);
}

export async function updateCategory(
  db: Db,
  user: Principal,
  id: number,
  input: WorkUnitCategoryInput,
): Promise<WorkUnitCategory> {
  await assertReferences(db, user, input);
  return db
    .transaction()
    .execute(async (trx) => {
      const tx = scoped(trx, user.tenantScope);
      const before = categoryEntity.present(await lockCategory(tx, id));
      const row = await tx
        .updateTable('work_unit_category')
        .set({ ...categoryEntity.writeColumns(input), modified: new Date(), modified_by: user.userName })
        .where('work_unit_category_id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = categoryEntity.present(row);
      await recordCategory(trx, user, row, 'update', changedFields(before, after));
      return after;
    })
    .catch(refuseTakenName);
}

export async function createSubcategory(
  db: Db,
  user: Principal,
  input: WorkUnitSubcategoryInput,
): Promise<WorkUnitSubcategory> {
  return db.transaction().execute(async (trx) => {
    const category = await lockCategory(scoped(trx, user.tenantScope), input.workUnitCategoryId);
    const row = await trx
      .insertInto('work_unit_subcategory')
      .values({
        ...subcategoryEntity.writeColumns(input),
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordSubcategory(trx, user, { ...row, tenant_id: category.tenant_id }, 'create', { name: row.name });
    return subcategoryEntity.present(row);
  });
}

export async function updateSubcategory(
  db: Db,
  user: Principal,
  id: number,
  input: WorkUnitSubcategoryInput,
): Promise<WorkUnitSubcategory> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    // The subcategory is found through its category, so another tenant's answers 404.
    const found = await tx
      .selectFrom('work_unit_category as c')
      .innerJoin('work_unit_subcategory as s', 's.work_unit_category_id', 'c.work_unit_category_id')
      .select('s.work_unit_category_id')
      .where('s.work_unit_subcategory_id', '=', id)
      .executeTakeFirst();
    const category = await lockCategory(tx, orNotFound(found, 'The subcategory').work_unit_category_id);
    const before = await trx
      .selectFrom('work_unit_subcategory')
      .selectAll()
      .where('work_unit_subcategory_id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    // A subcategory may move to another category of a tenant the caller may touch.
    if (input.workUnitCategoryId !== before.work_unit_category_id) await lockCategory(tx, input.workUnitCategoryId);
    const row = await trx
      .updateTable('work_unit_subcategory')
      .set({
        ...subcategoryEntity.writeColumns(input),
        modified: new Date(),
        modified_by: user.userName,
      })
      .where('work_unit_subcategory_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const changes = changedFields(subcategoryEntity.present(before), subcategoryEntity.present(row));
    await recordSubcategory(trx, user, { ...row, tenant_id: category.tenant_id }, 'update', changes);
    return subcategoryEntity.present(row);
  });
}

/** Work unit types are shared by every tenant; ids are small numbers chosen in order. */
export async function createType(
  db: Db,
  user: Principal,
  input: { name: string; enabled: boolean },
): Promise<WorkUnitType> {
  return db.transaction().execute(async (trx) => {
    await sql`LOCK TABLE work_unit_type IN EXCLUSIVE MODE`.execute(trx);
    const duplicate = await trx
      .selectFrom('work_unit_type')
      .select('work_unit_type_id')
      .where(sql<boolean>`lower(name) = lower(${input.name})`)
      .executeTakeFirst();
    if (duplicate)
      throw new BadRequestError(CATEGORY_MESSAGES.typeSaveFailed, { name: ['A work unit type of that name exists.'] });
    const { next } = await trx
      .selectFrom('work_unit_type')
      .select(sql<number>`coalesce(max(work_unit_type_id), 0) + 1`.as('next'))
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto('work_unit_type')
      .values({ work_unit_type_id: next, ...typeEntity.writeColumns(input) })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordType(trx, user, { ...row, tenant_id: null }, 'create', { name: row.name });
    return typeEntity.present(row);
  });
}

export async function updateType(
  db: Db,
  user: Principal,
  id: number,
  input: { name: string; enabled: boolean },
): Promise<WorkUnitType> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('work_unit_type')
      .selectAll()
      .where('work_unit_type_id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new NotFoundError('The work unit type');
    const duplicate = await trx
      .selectFrom('work_unit_type')
      .select('work_unit_type_id')
      .where(sql<boolean>`lower(name) = lower(${input.name})`)
      .where('work_unit_type_id', '<>', id)
      .executeTakeFirst();
    if (duplicate)
      throw new BadRequestError(CATEGORY_MESSAGES.typeSaveFailed, { name: ['A work unit type of that name exists.'] });
    const row = await trx
      .updateTable('work_unit_type')
      .set(typeEntity.writeColumns(input))
      .where('work_unit_type_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const changes = changedFields(typeEntity.present(before), typeEntity.present(row));
    await recordType(trx, user, { ...row, tenant_id: null }, 'update', changes);
    return typeEntity.present(row);
  });
}

/** Lookups for the work unit and Resolution Center forms: enabled categories of the caller's tenants. */
export async function findCategoryLookups(db: Db, scope: TenantScope) {
  const rows = await scoped(db, scope)
    .selectFrom('work_unit_category')
    .selectAll()
    .where('is_enabled', '=', true)
    .orderBy('name')
    .execute();
  return rows.map(({ work_unit_category_id, name, tenant_id, work_unit_type_id, is_visible_in_resolution_center }) => ({
    workUnitCategoryId: work_unit_category_id,
    name,
    tenantId: tenant_id,
    workUnitTypeId: work_unit_type_id,
    isVisibleInResolutionCenter: is_visible_in_resolution_center,
  }));
}

export async function findSubcategoryLookups(db: Db, scope: TenantScope) {
  const rows = await scoped(db, scope)
    .selectFrom('work_unit_category as c')
    .innerJoin('work_unit_subcategory as s', 's.work_unit_category_id', 'c.work_unit_category_id')
    .select(['s.work_unit_subcategory_id', 's.work_unit_category_id', 's.name'])
    .where('s.is_enabled', '=', true)
    .where('c.is_enabled', '=', true)
    .orderBy('s.name')
    .execute();
  return rows.map((row) => ({
    workUnitSubcategoryId: row.work_unit_subcategory_id,
    workUnitCategoryId: row.work_unit_category_id,
    name: row.name,
  }));
}
