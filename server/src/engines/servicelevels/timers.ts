import { sql } from 'kysely';
import { z } from 'zod';
import { SERVICE_LEVEL_WARN_AT, type ServiceLevelKind } from '@cfs/contracts/service-levels';
import { FINISHED_STATES, WORK_UNIT_EVENT_TYPES, WORK_UNIT_STATES, HISTORY_TYPES } from '@cfs/contracts/work-units';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { readEvents, WORK_UNIT_EVENT_CHANNEL, type WorkUnitEvent } from '../events/cursor.js';
import { defineTask } from '../jobs/task.js';
import { systemWorkUnitWriter } from '../work-units/system-writer.js';
import { utcMinute } from '../../time-zones.js';
import { addBusinessSeconds, businessSeconds, type BusinessCalendar } from './calendar.js';
import { levelsFor, type LevelsInForce } from './definitions.js';

/** A work unit's clock as stored. */
export interface TimerRow {
  work_unit_id: number;
  kind: ServiceLevelKind;
  tenant_id: string;
  severity_id: number;
  target_seconds: number;
  started: Date;
  elapsed_seconds: number;
  counted_to: Date;
  running: boolean;
  paused: boolean;
  stopped: Date | null;
  due: Date | null;
  warn_at: Date | null;
  warned: Date | null;
  breached: Date | null;
}

/** The unit an event is about, as it stands. */
interface Unit {
  work_unit_id: number;
  tenant_id: string;
  work_unit_type_id: number;
  severity_id: number;
}

const ENGINE = 'Service levels';
const KINDS: readonly ServiceLevelKind[] = ['response', 'resolution'];

/** The target of a clock for a unit's type and severity, in seconds; null: none. */
function targetOf(levels: LevelsInForce, kind: ServiceLevelKind, typeId: number, severityId: number): number | null {
  const target = levels.targets.find((each) => each.workUnitTypeId === typeId && each.severityId === severityId);
  return (kind === 'response' ? target?.responseSeconds : target?.resolutionSeconds) ?? null;
}

/** Counts the business time of a running clock up to `at`. */
function countTo(timer: TimerRow, calendar: BusinessCalendar, at: Date): void {
  if (at <= timer.counted_to) return;
  if (timer.running) timer.elapsed_seconds += businessSeconds(calendar, timer.counted_to, at);
  timer.counted_to = at;
}

/**
 * When a running clock warns and is due, from what it has counted; none while it is paused or
 * stopped. A time the clock has already reached stays where it was (or where it was marked warned
 * or breached): an event on an overdue clock does not move its due time on, so it reads overdue.
 */
export function schedule(timer: TimerRow, calendar: BusinessCalendar): void {
  if (!timer.running) {
    timer.due = null;
    timer.warn_at = null;
    return;
  }
  const reachedAt = (share: number, previous: Date | null, marked: Date | null): Date | null => {
    const left = share * timer.target_seconds - timer.elapsed_seconds;
    if (left > 0) return addBusinessSeconds(calendar, timer.counted_to, left);
    if (previous !== null && previous <= timer.counted_to) return previous;
    return marked ?? timer.counted_to;
  };
  timer.due = reachedAt(1, timer.due, timer.breached);
  timer.warn_at = reachedAt(SERVICE_LEVEL_WARN_AT, timer.warn_at, timer.warned);
}

/**
 * A calendar changed (a tenant's levels saved or reset, the installation's saved): the running
 * clocks it counts are counted up to `now` in the calendar before, and their warning and due times
 * worked out again in the one after, so that the due time a clock shows and what it has left
 * agree. `tenantId` null: the tenants that follow the installation's levels. Returns how many.
 */
export async function recountClocks(
  trx: Tx,
  tenantId: string | null,
  before: BusinessCalendar,
  after: BusinessCalendar,
  now = new Date(),
): Promise<number> {
  if (sameCalendar(before, after)) return 0;
  // The engine recounts for the tenants its caller saved levels of (checked there): unscoped by design.
  const all = scoped(trx, ALL_TENANTS);
  const rows = await all
    .selectFrom('service_level_timer')
    .select(TIMER_COLUMNS)
    .where('running', '=', true)
    .where((eb) =>
      tenantId === null
        ? eb(
            'tenant_id',
            'not in',
            all.selectFrom('service_level_calendar').select('tenant_id').where('tenant_id', 'is not', null),
          )
        : eb('tenant_id', '=', tenantId),
    )
    // Locked in the order applyEvents locks them: a save and the event follower wait, never deadlock.
    .orderBy('work_unit_id')
    .orderBy('kind')
    .forUpdate()
    .execute();
  if (rows.length === 0) return 0;
  const recounted = rows.map((row) => {
    const timer: TimerRow = { ...row, kind: row.kind as ServiceLevelKind };
    countTo(timer, before, now);
    schedule(timer, after);
    return timer;
  });
  // Raw SQL: every recounted clock written by one statement from its arrays.
  await sql`
    UPDATE service_level_timer t SET elapsed_seconds = r.elapsed, counted_to = r.counted_to, due = r.due, warn_at = r.warn_at
    FROM unnest(${recounted.map((timer) => timer.work_unit_id)}::bigint[], ${recounted.map((timer) => timer.kind)}::text[],
      ${recounted.map((timer) => timer.elapsed_seconds)}::float8[], ${recounted.map((timer) => timer.counted_to)}::timestamptz[],
      ${recounted.map((timer) => timer.due)}::timestamptz[], ${recounted.map((timer) => timer.warn_at)}::timestamptz[])
      AS r(work_unit_id, kind, elapsed, counted_to, due, warn_at)
    WHERE t.work_unit_id = r.work_unit_id AND t.kind = r.kind`.execute(trx);
  return recounted.length;
}

/** Whether two calendars count alike: the same zone, business hours and holidays. */
function sameCalendar(a: BusinessCalendar, b: BusinessCalendar): boolean {
  const text = (calendar: BusinessCalendar) =>
    JSON.stringify([calendar.timeZone, calendar.hours, [...calendar.holidays].sort()]);
  return text(a) === text(b);
}

/** Whether the clock runs in a state: not after its end (response: New left; resolution: finished) and not paused. */
function runsIn(kind: ServiceLevelKind, state: number, levels: LevelsInForce): boolean {
  if (kind === 'response' && state !== WORK_UNIT_STATES.New) return false;
  return !FINISHED_STATES.includes(state) && !levels.pauseStates.has(state);
}

/**
 * One work unit event applied to the unit's clocks (docs/features/service-levels.md "Clocks"):
 * created, both clocks start (the response clock only in New); a state change stops the response
 * clock when the unit leaves New, stops the resolution clock when it is finished (and starts it
 * again when it is reopened), and pauses or resumes both in the calendar's pause states; a change
 * of severity re-targets them from their start (a warning or breach the new target has not
 * reached may come again). Returns the clocks as they are after it; a clock without a target is gone.
 */
export function applyEvent(
  timers: ReadonlyMap<ServiceLevelKind, TimerRow>,
  event: Pick<WorkUnitEvent, 'event_type_id' | 'from_state_id' | 'to_state_id' | 'created'>,
  unit: Unit,
  levels: LevelsInForce,
): Map<ServiceLevelKind, TimerRow> {
  const at = new Date(event.created);
  const next = new Map([...timers].map(([kind, timer]) => [kind, { ...timer }]));
  const { calendar } = levels;
  if (event.event_type_id === WORK_UNIT_EVENT_TYPES.OnNew && event.from_state_id === null) {
    const state = event.to_state_id ?? WORK_UNIT_STATES.New;
    for (const kind of KINDS) {
      const target = targetOf(levels, kind, unit.work_unit_type_id, unit.severity_id);
      if (target === null || next.has(kind)) continue;
      const running = runsIn(kind, state, levels);
      const timer: TimerRow = {
        work_unit_id: unit.work_unit_id,
        kind,
        tenant_id: unit.tenant_id,
        severity_id: unit.severity_id,
        target_seconds: target,
        started: at,
        elapsed_seconds: 0,
        counted_to: at,
        running,
        paused: levels.pauseStates.has(state),
        stopped: running || levels.pauseStates.has(state) ? null : at,
        due: null,
        warn_at: null,
        warned: null,
        breached: null,
      };
      schedule(timer, calendar);
      next.set(kind, timer);
    }
    return next;
  }
  const { from_state_id: from, to_state_id: to } = event;
  const stateChange =
    event.event_type_id !== WORK_UNIT_EVENT_TYPES.OnChange && from !== null && to !== null && from !== to;
  for (const [kind, timer] of next) {
    // Past its due time when the event came, before the sweep found it (events read late, after a
    // pause of the workers): it was warned and breached at its times, and a stop now is a miss.
    if (timer.running && timer.due !== null && timer.due <= at) {
      timer.warned ??= timer.warn_at;
      timer.breached ??= timer.due;
    }
    countTo(timer, calendar, at);
    if (stateChange) {
      // Reopened: from a finished state to one that is not (Resolved to Closed is still finished).
      const reopened =
        kind === 'resolution' &&
        timer.stopped !== null &&
        FINISHED_STATES.includes(from) &&
        !FINISHED_STATES.includes(to);
      if (reopened) timer.stopped = null;
      if (timer.stopped === null) {
        timer.running = runsIn(kind, to, levels);
        timer.paused = levels.pauseStates.has(to);
        const ended = kind === 'response' ? to !== WORK_UNIT_STATES.New : FINISHED_STATES.includes(to);
        if (ended) {
          timer.stopped = at;
          timer.running = false;
          timer.paused = false;
        }
      }
    }
    if (event.event_type_id === WORK_UNIT_EVENT_TYPES.OnChange && unit.severity_id !== timer.severity_id) {
      const target = targetOf(levels, kind, unit.work_unit_type_id, unit.severity_id);
      if (target === null) {
        next.delete(kind);
        continue;
      }
      // Re-targeted from its start: what it counted stands, the new target decides what is left.
      timer.severity_id = unit.severity_id;
      timer.target_seconds = target;
      if (timer.elapsed_seconds < SERVICE_LEVEL_WARN_AT * target) timer.warned = null;
      if (timer.elapsed_seconds < target) timer.breached = null;
    }
    schedule(timer, calendar);
  }
  return next;
}

const TIMER_COLUMNS = [
  'work_unit_id',
  'kind',
  'tenant_id',
  'severity_id',
  'target_seconds',
  'started',
  'elapsed_seconds',
  'counted_to',
  'running',
  'paused',
  'stopped',
  'due',
  'warn_at',
  'warned',
  'breached',
] as const;

/**
 * Applies a batch of work unit events to the clocks of their units, in the transaction that moves
 * the engine's cursor: the unit's clocks are read locked, changed event by event, and written back.
 */
export async function applyEvents(trx: Tx, events: readonly WorkUnitEvent[]): Promise<void> {
  const all = scoped(trx, ALL_TENANTS);
  const ids = [...new Set(events.map((event) => event.work_unit_id))];
  if (ids.length === 0) return;
  const units = new Map(
    (
      await all
        .selectFrom('work_unit')
        .select(['work_unit_id', 'tenant_id', 'work_unit_type_id', 'severity_id'])
        .where('work_unit_id', 'in', ids)
        .execute()
    ).map((unit) => [unit.work_unit_id, unit]),
  );
  const stored = await all
    .selectFrom('service_level_timer')
    .select(TIMER_COLUMNS)
    .where('work_unit_id', 'in', ids)
    // In one order, as recountClocks locks them.
    .orderBy('work_unit_id')
    .orderBy('kind')
    .forUpdate()
    .execute();
  const clocks = new Map<number, Map<ServiceLevelKind, TimerRow>>();
  for (const row of stored) {
    const kind = row.kind as ServiceLevelKind;
    clocks.set(row.work_unit_id, (clocks.get(row.work_unit_id) ?? new Map()).set(kind, { ...row, kind }));
  }
  const levels = new Map<string, LevelsInForce>();
  const touched = new Set<number>();
  for (const event of events) {
    const unit = units.get(event.work_unit_id);
    if (!unit || event.event_type_id > WORK_UNIT_EVENT_TYPES.OnMitigated) continue;
    let inForce = levels.get(unit.tenant_id);
    if (!inForce) levels.set(unit.tenant_id, (inForce = await levelsFor(trx, unit.tenant_id)));
    clocks.set(unit.work_unit_id, applyEvent(clocks.get(unit.work_unit_id) ?? new Map(), event, unit, inForce));
    touched.add(unit.work_unit_id);
  }
  const rows = [...touched].flatMap((id) => [...(clocks.get(id)?.values() ?? [])]);
  const kept = new Set(rows.map((row) => `${row.work_unit_id} ${row.kind}`));
  const gone = stored.filter((row) => touched.has(row.work_unit_id) && !kept.has(`${row.work_unit_id} ${row.kind}`));
  for (const row of gone)
    await all
      .deleteFrom('service_level_timer')
      .where('work_unit_id', '=', row.work_unit_id)
      .where('kind', '=', row.kind)
      .execute();
  if (rows.length === 0) return;
  await all
    .insertInto('service_level_timer', rows)
    .onConflict((oc) =>
      oc.columns(['work_unit_id', 'kind']).doUpdateSet((eb) => ({
        severity_id: eb.ref('excluded.severity_id'),
        target_seconds: eb.ref('excluded.target_seconds'),
        elapsed_seconds: eb.ref('excluded.elapsed_seconds'),
        counted_to: eb.ref('excluded.counted_to'),
        running: eb.ref('excluded.running'),
        paused: eb.ref('excluded.paused'),
        stopped: eb.ref('excluded.stopped'),
        due: eb.ref('excluded.due'),
        warn_at: eb.ref('excluded.warn_at'),
        warned: eb.ref('excluded.warned'),
        breached: eb.ref('excluded.breached'),
      })),
    )
    .execute();
}

/** Reads work unit events through the engine's own cursor until none is left (or 20 batches). */
export async function followWorkUnitEvents(db: Db, batchSize = 200): Promise<number> {
  let total = 0;
  for (let round = 0; round < 20; round++) {
    const read = await readEvents(db, 'servicelevels', batchSize, (events, trx) => applyEvents(trx, events));
    total += read;
    if (read < batchSize) break;
  }
  return total;
}

/** How often the clocks are looked at for warnings and breaches. */
export const SWEEP_EVERY_MS = 15_000;
const SWEEP_MAX = 500;

const EVENTS: Record<ServiceLevelKind, { warning: number; breach: number; name: string }> = {
  response: {
    warning: WORK_UNIT_EVENT_TYPES.OnResponseWarning,
    breach: WORK_UNIT_EVENT_TYPES.OnResponseBreach,
    name: 'Response',
  },
  resolution: {
    warning: WORK_UNIT_EVENT_TYPES.OnResolutionWarning,
    breach: WORK_UNIT_EVENT_TYPES.OnResolutionBreach,
    name: 'Resolution',
  },
};

const hoursText = (seconds: number) => {
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} minutes` : `${Math.round((minutes / 60) * 10) / 10} hours`;
};

/** A warning or breach the sweep finds later than this after its time is told with its time. */
const LATE_NOTICE_MS = 5 * 60_000;

/**
 * Warnings (75% of a target) and breaches (all of it) as work unit events that protocols act on,
 * with a record in the unit's history: the running clocks past their time are claimed with SKIP
 * LOCKED and marked in the transaction that writes the events, so each fires once across workers.
 */
export async function sweepServiceLevels(db: Db, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Raw SQL: a claim with SKIP LOCKED over the two partial indexes; the engine watches every
    // tenant's clocks (it answers nobody), so it is unscoped by design.
    const { rows } = await sql<TimerRow>`
      SELECT * FROM service_level_timer
      WHERE running AND ((warned IS NULL AND warn_at <= ${now}) OR (breached IS NULL AND due <= ${now}))
      ORDER BY due
      LIMIT ${SWEEP_MAX}
      FOR UPDATE SKIP LOCKED`.execute(trx);
    let fired = 0;
    for (const timer of rows) {
      const kind = EVENTS[timer.kind];
      // Noticed late (the workers were stopped): the history says when it happened.
      const late = (at: Date) =>
        now.getTime() - at.getTime() > LATE_NOTICE_MS ? ` It happened at ${utcMinute(at)}.` : '';
      const due = [
        ...(timer.warned === null && timer.warn_at && timer.warn_at <= now
          ? [
              {
                event: kind.warning,
                detail: `${kind.name} target: 75% of ${hoursText(timer.target_seconds)} used.${late(timer.warn_at)}`,
              },
            ]
          : []),
        ...(timer.breached === null && timer.due && timer.due <= now
          ? [
              {
                event: kind.breach,
                detail: `${kind.name} target of ${hoursText(timer.target_seconds)} breached.${late(timer.due)}`,
              },
            ]
          : []),
      ];
      for (const { event, detail } of due) {
        await systemWorkUnitWriter().recordEvent(trx, {
          tenantId: timer.tenant_id,
          workUnitId: timer.work_unit_id,
          eventTypeId: event,
          detail,
          historyType: HISTORY_TYPES.WorkUnitEvent,
          createdBy: ENGINE,
        });
        fired += 1;
      }
      await scoped(trx, ALL_TENANTS)
        .updateTable('service_level_timer')
        .set({
          // At the times they fell due, not when this sweep came by: a paused or late worker moves
          // neither the report's month nor the clock's times.
          warned: timer.warned ?? (timer.warn_at && timer.warn_at <= now ? timer.warn_at : null),
          breached: timer.breached ?? (timer.due && timer.due <= now ? timer.due : null),
        })
        .where('work_unit_id', '=', timer.work_unit_id)
        .where('kind', '=', timer.kind)
        .execute();
    }
    return fired;
  });
}

export const serviceLevelEventsTask = defineTask({
  name: 'servicelevels.events',
  payload: z.object({}),
  every: 5000,
  wakeOn: WORK_UNIT_EVENT_CHANNEL,
  perform: async (_payload, { db }) => {
    await followWorkUnitEvents(db);
  },
});

export const serviceLevelSweepTask = defineTask({
  name: 'servicelevels.sweep',
  payload: z.object({}),
  every: SWEEP_EVERY_MS,
  perform: async (_payload, { db }) => {
    await sweepServiceLevels(db);
  },
});
