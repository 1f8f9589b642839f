import {
  SERVICE_LEVEL_MESSAGES,
  type serviceLevelsInputSchema,
  type ServiceLevels,
  type ServiceLevelKind,
  type ServiceLevelTimer,
} from '@cfs/contracts/service-levels';
import { formatInterval, intervalSeconds } from '@cfs/contracts/device-operations';
import { sql } from 'kysely';
import type { z } from 'zod';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { businessSeconds } from '../../engines/servicelevels/calendar.js';
import { levelsFor, type LevelsInForce } from '../../engines/servicelevels/definitions.js';
import { recountClocks } from '../../engines/servicelevels/timers.js';
import { VALIDATION_MESSAGE } from '../../http/error-handler.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';

type Input = z.output<typeof serviceLevelsInputSchema>;

/** The levels in force as the API tells them, for the tenant asked about (null: the installation). */
function present(tenantId: string | null, levels: LevelsInForce): ServiceLevels {
  const span = (seconds: number | null) => (seconds === null ? null : formatInterval(seconds));
  const hours = levels.row.business_hours;
  return {
    tenantId,
    inherited: levels.owner !== tenantId,
    timeZone: levels.row.time_zone,
    businessHours: Array.isArray(hours) ? (hours as ServiceLevels['businessHours']) : null,
    holidays: [...levels.row.holidays].sort(),
    pauseStates: [...levels.row.pause_state_ids].sort((a, b) => a - b),
    targets: levels.targets.map((target) => ({
      workUnitTypeId: target.workUnitTypeId,
      severityId: target.severityId,
      respondWithin: span(target.responseSeconds),
      resolveWithin: span(target.resolutionSeconds),
    })),
    modified: levels.owner === tenantId ? levels.row.modified : null,
    modifiedBy: levels.owner === tenantId ? levels.row.modified_by : null,
  };
}

/** What an audit row compares: the levels as the caller says them. */
const said = ({ timeZone, businessHours, holidays, pauseStates, targets }: ServiceLevels) => ({
  timeZone,
  businessHours,
  holidays,
  pauseStates,
  targets,
});

/** The installation's levels are changed only by staff of every tenant; a tenant's by staff of that tenant. */
async function assertMay(db: Db, user: Principal, tenantId: string | null): Promise<void> {
  if (tenantId === null) {
    if (user.tenantScope.kind !== 'all') throw new HttpError(403, SERVICE_LEVEL_MESSAGES.installationOnly);
  } else if (!(await scoped(db, user.tenantScope).hasTenant(tenantId))) {
    throw new HttpError(404, SERVICE_LEVEL_MESSAGES.notFound);
  }
}

/**
 * The report counts months in the calendar's zone in the database, whose zone names are not all
 * the runtime's (the contract checks those): a zone only one of them knows is refused here.
 */
async function assertDatabaseKnowsZone(db: Db, zone: string): Promise<void> {
  const { rows } = await sql<{
    known: boolean;
  }>`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${zone}) AS known`.execute(db);
  if (!rows[0]?.known)
    throw new BadRequestError(VALIDATION_MESSAGE, { timeZone: [SERVICE_LEVEL_MESSAGES.timeZoneInvalid] });
}

/** GET v1/servicelevels/{tenantId} (and /installation): the levels in force, the tenant's or the installation's. */
export async function findServiceLevels(db: Db, user: Principal, tenantId: string | null): Promise<ServiceLevels> {
  if (tenantId !== null && !(await scoped(db, user.tenantScope).hasTenant(tenantId)))
    throw new HttpError(404, SERVICE_LEVEL_MESSAGES.notFound);
  return present(tenantId, await levelsFor(db, tenantId));
}

/**
 * PUT v1/servicelevels/{tenantId} (and /installation): the calendar and the targets, written whole
 * in one transaction and audited. A tenant's first save gives it levels of its own. Clocks running
 * already keep their targets; new units and changes of severity take the new ones.
 */
export async function saveServiceLevels(
  db: Db,
  user: Principal,
  tenantId: string | null,
  input: Input,
): Promise<ServiceLevels> {
  await assertMay(db, user, tenantId);
  await assertDatabaseKnowsZone(db, input.timeZone);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await levelsFor(trx, tenantId);
    const values = {
      time_zone: input.timeZone,
      business_hours: input.businessHours === null ? null : JSON.stringify(input.businessHours),
      holidays: [...new Set(input.holidays)].sort(),
      pause_state_ids: [...new Set(input.pauseStates)],
      modified: new Date(),
      modified_by: user.userName,
    };
    await tx
      .insertInto('service_level_calendar', { tenant_id: tenantId, ...values })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
      .execute();
    await tx
      .deleteFrom('service_level_target')
      .where((eb) => (tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId)))
      .execute();
    const targets = input.targets.filter((target) => target.respondWithin !== null || target.resolveWithin !== null);
    if (targets.length > 0)
      await tx
        .insertInto(
          'service_level_target',
          targets.map((target) => ({
            tenant_id: tenantId,
            work_unit_type_id: target.workUnitTypeId,
            severity_id: target.severityId,
            response_seconds: target.respondWithin === null ? null : (intervalSeconds(target.respondWithin) ?? null),
            resolution_seconds: target.resolveWithin === null ? null : (intervalSeconds(target.resolveWithin) ?? null),
          })),
        )
        .execute();
    const inForce = await levelsFor(trx, tenantId);
    // The running clocks it counts keep what they counted, and are due by the new calendar.
    await recountClocks(trx, tenantId, before.calendar, inForce.calendar);
    const after = present(tenantId, inForce);
    await recordAudit(trx, user, {
      entityType: 'serviceLevels',
      entityId: tenantId ?? 'installation',
      tenantId,
      action: before.owner === tenantId ? 'update' : 'create',
      changes: changedFields(said(present(tenantId, before)), said(after)),
    });
    return after;
  });
}

/** DELETE v1/servicelevels/{tenantId}: the tenant follows the installation's levels again (audited). */
export async function resetServiceLevels(db: Db, user: Principal, tenantId: string): Promise<ServiceLevels> {
  await assertMay(db, user, tenantId);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await levelsFor(trx, tenantId);
    const deleted = await tx
      .deleteFrom('service_level_calendar')
      .where('tenant_id', '=', tenantId)
      .returning('tenant_id')
      .execute();
    await tx.deleteFrom('service_level_target').where('tenant_id', '=', tenantId).execute();
    const inForce = await levelsFor(trx, tenantId);
    if (deleted.length > 0) {
      await recountClocks(trx, tenantId, before.calendar, inForce.calendar);
      await recordAudit(trx, user, { entityType: 'serviceLevels', entityId: tenantId, tenantId, action: 'delete' });
    }
    return present(tenantId, inForce);
  });
}

/**
 * GET v1/servicelevels/timers/{workUnitId}: the unit's clocks, counted up to now in its tenant's
 * calendar: running, paused, met (stopped within its target) or missed (past it).
 */
export async function findTimers(
  db: Db,
  user: Principal,
  workUnitId: number,
  now = new Date(),
): Promise<ServiceLevelTimer[]> {
  const tx = scoped(db, user.tenantScope);
  const unit = orNotFound(
    await tx.selectFrom('work_unit').select('tenant_id').where('work_unit_id', '=', workUnitId).executeTakeFirst(),
    'The work unit',
  );
  const timers = await tx
    .selectFrom('service_level_timer')
    .selectAll()
    .where('work_unit_id', '=', workUnitId)
    // The response clock first: 'response' after 'resolution' in text order.
    .orderBy('kind', 'desc')
    .execute();
  if (timers.length === 0) return [];
  const { calendar } = await levelsFor(db, unit.tenant_id);
  return timers.map((timer) => {
    const elapsed = timer.elapsed_seconds + (timer.running ? businessSeconds(calendar, timer.counted_to, now) : 0);
    const missed = elapsed >= timer.target_seconds || timer.breached !== null;
    return {
      kind: timer.kind as ServiceLevelKind,
      target: formatInterval(timer.target_seconds),
      status: timer.stopped ? (missed ? 'missed' : 'met') : timer.running ? 'running' : 'paused',
      started: timer.started,
      elapsedSeconds: Math.round(elapsed),
      remainingSeconds: Math.round(timer.target_seconds - elapsed),
      due: timer.running ? timer.due : null,
      stopped: timer.stopped,
      warned: timer.warned,
      breached: timer.breached,
    };
  });
}
