import type { Selectable } from 'kysely';
import {
  SAVED_VIEW_MESSAGES,
  savedViewStateSchema,
  type SavedView,
  type SavedViewGrid,
  type SavedViewState,
} from '@cfs/contracts/saved-views';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import type { DB as Database } from '../../db/schema.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';

type Row = Selectable<Database['saved_view']> & { owner_name: string };

function present(row: Row, user: Principal): SavedView {
  // A stored state that no longer reads (an older shape) is offered as an empty view rather than failing the list.
  const state = savedViewStateSchema.safeParse(row.state);
  return {
    savedViewId: row.saved_view_id,
    tenantId: row.tenant_id,
    name: row.name,
    shared: row.shared,
    mine: row.user_id === user.userId,
    ownerName: row.owner_name,
    state: state.success ? state.data : { filters: [], sort: [], columns: {} },
    modified: row.modified.toISOString(),
  };
}

function viewsOf(db: ScopedDb, grid: SavedViewGrid) {
  return db
    .selectFrom('saved_view as v')
    .innerJoin('app_user as u', 'u.user_id', 'v.user_id')
    .selectAll('v')
    .select('u.display_name as owner_name')
    .where('v.grid', '=', grid);
}

/** The views a user is offered in a tenant: their own and those shared with the tenant, by name. */
export async function findSavedViews(
  db: Db,
  user: Principal,
  grid: SavedViewGrid,
  tenantId: string,
): Promise<SavedView[]> {
  const tenantOwned = scoped(db, user.tenantScope);
  if (!(await tenantOwned.hasTenant(tenantId))) throw new NotFoundError('The tenant');
  const rows = await viewsOf(tenantOwned, grid)
    .where('v.tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('v.user_id', '=', user.userId), eb('v.shared', '=', true)]))
    .orderBy((eb) => eb.fn('lower', ['v.name']))
    .orderBy('v.saved_view_id')
    .execute();
  return rows.map((row) => present(row, user));
}

async function assertNameFree(
  tx: ScopedDb<Tx>,
  user: Principal,
  grid: SavedViewGrid,
  tenantId: string,
  name: string,
  except?: string,
): Promise<void> {
  let query = tx
    .selectFrom('saved_view')
    .select('saved_view_id')
    .where('grid', '=', grid)
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', user.userId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (except) query = query.where('saved_view_id', '<>', except);
  if (await query.executeTakeFirst())
    throw new BadRequestError(SAVED_VIEW_MESSAGES.nameTaken, { name: [SAVED_VIEW_MESSAGES.nameTaken] });
}

async function findOne(db: Db, user: Principal, grid: SavedViewGrid, savedViewId: string): Promise<SavedView> {
  const row = await viewsOf(scoped(db, user.tenantScope), grid)
    .where('v.saved_view_id', '=', savedViewId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('The saved view');
  return present(row, user);
}

export interface SavedViewFields {
  name: string;
  shared: boolean;
  state: SavedViewState;
}

export async function createSavedView(
  db: Db,
  user: Principal,
  grid: SavedViewGrid,
  input: SavedViewFields & { tenantId: string },
): Promise<SavedView> {
  const id = await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    if (!(await tx.hasTenant(input.tenantId))) throw new NotFoundError('The tenant');
    await assertNameFree(tx, user, grid, input.tenantId, input.name);
    const row = await tx
      .insertInto('saved_view', {
        tenant_id: input.tenantId,
        user_id: user.userId,
        grid,
        name: input.name,
        shared: input.shared,
        state: JSON.stringify(input.state),
      })
      .returning('saved_view_id')
      .executeTakeFirstOrThrow();
    return row.saved_view_id;
  });
  return findOne(db, user, grid, id);
}

/**
 * The owner's row, locked: only the owner renames, shares or deletes a view; to anyone else,
 * a view shared with them included, it is not there to change.
 */
async function lockOwnView(tx: ScopedDb<Tx>, user: Principal, grid: SavedViewGrid, savedViewId: string) {
  const row = await tx
    .selectFrom('saved_view')
    .select(['saved_view_id', 'tenant_id'])
    .where('saved_view_id', '=', savedViewId)
    .where('grid', '=', grid)
    .where('user_id', '=', user.userId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new NotFoundError('The saved view');
  return row;
}

export async function updateSavedView(
  db: Db,
  user: Principal,
  grid: SavedViewGrid,
  savedViewId: string,
  input: SavedViewFields,
): Promise<SavedView> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const row = await lockOwnView(tx, user, grid, savedViewId);
    await assertNameFree(tx, user, grid, row.tenant_id, input.name, savedViewId);
    await tx
      .updateTable('saved_view')
      .set({ name: input.name, shared: input.shared, state: JSON.stringify(input.state), modified: new Date() })
      .where('saved_view_id', '=', savedViewId)
      .execute();
  });
  return findOne(db, user, grid, savedViewId);
}

export async function deleteSavedView(
  db: Db,
  user: Principal,
  grid: SavedViewGrid,
  savedViewId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    await lockOwnView(tx, user, grid, savedViewId);
    await tx.deleteFrom('saved_view').where('saved_view_id', '=', savedViewId).execute();
  });
}
