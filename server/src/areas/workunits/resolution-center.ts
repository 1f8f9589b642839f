import { sql } from 'kysely';
import { SEVERITIES, WORK_UNIT_STATES, WORK_UNIT_TYPES, type ResolutionCenterRequest } from '@cfs/contracts/work-units';
import type { Principal } from '../../auth/principal.js';
import { canAccessTenant } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';
import { createWorkUnit } from './commands.js';
import { enqueueResolutionCenterEmail, RESOLUTION_CENTER_SOURCE } from './resolution-center-emails.js';
import type { WorkUnitAccess } from './queries.js';

/** Staff (WorkUnits:view) see their tenants' requests; an end user (view:mine) only those they raised. */
export function resolutionCenterAccess(user: Principal): WorkUnitAccess {
  return user.permissions.has('WorkUnits', 'view')
    ? { scope: user.tenantScope }
    : { scope: user.tenantScope, mine: { userName: user.userName, email: user.email } };
}

/** The Resolution Center's rows: the caller's tenants' incidents, an end user's own only. */
export function resolutionCenterBase(db: Db, user: Principal) {
  const access = resolutionCenterAccess(user);
  let query = scoped(db, access.scope)
    .selectFrom('work_unit')
    .selectAll()
    .where('work_unit_type_id', '=', WORK_UNIT_TYPES.Incident);
  const mine = access.mine;
  if (mine) {
    query = query.where((eb) =>
      eb.or([
        eb('created_by', '=', mine.userName),
        ...(mine.email ? [eb(sql<string>`lower(stakeholder_email_address)`, '=', mine.email.toLowerCase())] : []),
      ]),
    );
  }
  return query;
}

/** The categories (with their subcategories) offered as Service and Need: enabled ones flagged visible in the Resolution Center. */
export async function resolutionCenterCategories(db: Db, user: Principal, tenantId: string) {
  if (!canAccessTenant(user.tenantScope, tenantId)) throw new NotFoundError('The tenant');
  const tenantOwned = scoped(db, user.tenantScope);
  const categories = await tenantOwned
    .selectFrom('work_unit_category')
    .select(['work_unit_category_id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('is_visible_in_resolution_center', '=', true)
    .where('is_enabled', '=', true)
    .where('work_unit_type_id', '=', WORK_UNIT_TYPES.Incident)
    .orderBy('name')
    .execute();
  const ids = categories.map((c) => c.work_unit_category_id);
  const subcategories = ids.length
    ? await db
        .selectFrom('work_unit_subcategory')
        .select(['work_unit_subcategory_id', 'work_unit_category_id', 'name'])
        .where('work_unit_category_id', 'in', ids)
        .where('is_enabled', '=', true)
        .orderBy('name')
        .execute()
    : [];
  return categories.map((c) => ({
    workUnitCategoryId: c.work_unit_category_id,
    name: c.name,
    subcategories: subcategories
      .filter((s) => s.work_unit_subcategory_id && s.work_unit_category_id === c.work_unit_category_id)
      .map((s) => ({ workUnitSubcategoryId: s.work_unit_subcategory_id, name: s.name })),
  }));
}

/** The tenant a request is filed for: the one asked for, else the caller's own (the profile's). */
function tenantOf(user: Principal, asked: string | undefined): string {
  const scope = user.tenantScope;
  if (asked) return asked;
  if (scope.kind === 'some' && scope.tenantIds.length > 0) return scope.tenantIds[0]!;
  throw new BadRequestError('Please choose a tenant.', { tenantId: ['Please choose a tenant.'] });
}

/**
 * PUT /api/v1/rc/workunits: a new Incident, Sev3, New, with the requester as its stakeholder
 * (spec 001 §5). Service and Need must be categories shown in the Resolution Center.
 */
export async function createResolutionCenterRequest(
  db: Db,
  user: Principal,
  input: ResolutionCenterRequest,
): Promise<number> {
  const tenantId = tenantOf(user, input.tenantId);
  if (input.workUnitCategoryId != null) {
    const offered = await resolutionCenterCategories(db, user, tenantId);
    const category = offered.find((c) => c.workUnitCategoryId === input.workUnitCategoryId);
    if (!category)
      throw new BadRequestError('Please choose a Service shown in the Resolution Center.', {
        workUnitCategoryId: ['Please choose a Service shown in the Resolution Center.'],
      });
    if (
      input.workUnitSubcategoryId != null &&
      !category.subcategories.some((s) => s.workUnitSubcategoryId === input.workUnitSubcategoryId)
    ) {
      throw new BadRequestError('Please choose a Need of the chosen Service.', {
        workUnitSubcategoryId: ['Please choose a Need of the chosen Service.'],
      });
    }
  } else if (input.workUnitSubcategoryId != null) {
    throw new BadRequestError('Please choose a Need of the chosen Service.', {
      workUnitSubcategoryId: ['Please choose a Need of the chosen Service.'],
    });
  }
  return createWorkUnit(
    db,
    user,
    {
      tenantId,
      title: input.title,
      description: input.description,
      severityId: SEVERITIES.Sev3,
      stateId: WORK_UNIT_STATES.New,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
      workUnitCategoryId: input.workUnitCategoryId ?? null,
      workUnitSubcategoryId: input.workUnitSubcategoryId ?? null,
      source: RESOLUTION_CENTER_SOURCE,
      stakeHolderFullName: user.displayName,
      stakeHolderEmailAddress: user.email,
      stakeHolderPhoneNumber: input.stakeHolderPhoneNumber,
    },
    { inTransaction: (trx, unit) => enqueueResolutionCenterEmail(trx, unit, 'ResolutionCenterCreated', user.userName) },
  );
}
