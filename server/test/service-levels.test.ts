import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  SERVICE_LEVEL_MESSAGES,
  type ServiceLevelReport,
  type ServiceLevelTimer,
  type ServiceLevelsInput,
} from '@cfs/contracts/service-levels';
import { FINISHED_STATES, WORK_UNIT_EVENT_TYPES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { DEMO } from '../src/db/demo-ids.js';
import { levelsFor } from '../src/engines/servicelevels/definitions.js';
import {
  applyEvent,
  followWorkUnitEvents,
  sweepServiceLevels,
  type TimerRow,
} from '../src/engines/servicelevels/timers.js';
import { createTenantAs, createWorkUnitAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

const HOUR = 3600;
const aroundTheClock: ServiceLevelsInput = {
  timeZone: 'UTC',
  businessHours: null,
  holidays: [],
  pauseStates: [WORK_UNIT_STATES.OnHold],
  targets: [
    { workUnitTypeId: WORK_UNIT_TYPES.Incident, severityId: 2, respondWithin: '01:00:00', resolveWithin: '08:00:00' },
    { workUnitTypeId: WORK_UNIT_TYPES.Incident, severityId: 1, respondWithin: '00:15:00', resolveWithin: '02:00:00' },
  ],
};

/** Around the clock, the Sev2 response two hours: a new Sev2 is not due within the hour, a Sev1 is. */
const twoHoursAtSev2: ServiceLevelsInput = {
  ...aroundTheClock,
  targets: [
    { workUnitTypeId: WORK_UNIT_TYPES.Incident, severityId: 1, respondWithin: '00:15:00', resolveWithin: '02:00:00' },
    { workUnitTypeId: WORK_UNIT_TYPES.Incident, severityId: 2, respondWithin: '02:00:00', resolveWithin: '08:00:00' },
  ],
};

/** The input fields of an answer (what a client sends back). */
const pick = ({ timeZone, businessHours, holidays, pauseStates, targets }: ServiceLevelsInput) => ({
  timeZone,
  businessHours,
  holidays,
  pauseStates,
  targets,
});

async function put(user: string, tenantId: string, body: unknown) {
  return portal.as(user, { method: 'PUT', url: `/v1/servicelevels/${tenantId}`, payload: body as object });
}

async function patchState(workUnitId: number, stateId: number) {
  const answer = await portal.as('operator', {
    method: 'PATCH',
    url: `/v1/workunits/${workUnitId}`,
    payload: [{ op: 'replace', path: '/stateId', value: stateId }],
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

/** The engine reads every event committed so far (an event waits for older transactions to end). */
async function settle(workUnitId: number, expectedEvents: number) {
  await vi.waitFor(
    async () => {
      await followWorkUnitEvents(portal.db);
      const read = await portal.db
        .selectFrom('engine_cursor')
        .innerJoin('work_unit_event', (join) => join.onTrue())
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('consumer', '=', 'servicelevels')
        .where('work_unit_event.work_unit_id', '=', workUnitId)
        .whereRef('work_unit_event.work_unit_event_id', '<=', 'engine_cursor.last_id')
        .executeTakeFirstOrThrow();
      expect(Number(read.n)).toBeGreaterThanOrEqual(expectedEvents);
    },
    { timeout: 10_000, interval: 100 },
  );
}

async function timers(workUnitId: number) {
  const answer = await portal.as('operator', { method: 'GET', url: `/v1/servicelevels/timers/${workUnitId}` });
  expect(answer.statusCode, answer.body).toBe(200);
  return Object.fromEntries(answer.json<ServiceLevelTimer[]>().map((timer) => [timer.kind, timer]));
}

describe('the demo’s work units', () => {
  it('have clocks that agree with the states their histories went through: targets met and missed', async () => {
    await followWorkUnitEvents(portal.db);
    await sweepServiceLevels(portal.db);
    const clocks = await portal.db
      .selectFrom('service_level_timer')
      .innerJoin('work_unit', 'work_unit.work_unit_id', 'service_level_timer.work_unit_id')
      .select([
        'work_unit.state_id',
        'work_unit.resolved',
        'service_level_timer.kind',
        'service_level_timer.running',
        'service_level_timer.paused',
        'service_level_timer.stopped',
        'service_level_timer.breached',
        'service_level_timer.due',
        'service_level_timer.elapsed_seconds',
        'service_level_timer.target_seconds',
      ])
      .where('work_unit.created_by', '=', 'seed')
      .execute();
    const response = clocks.filter((clock) => clock.kind === 'response');
    const resolution = clocks.filter((clock) => clock.kind === 'resolution');
    expect(response.length).toBeGreaterThan(20);
    // Past New, the response clock stopped; a finished unit's resolution clock stopped when it was resolved.
    for (const clock of response) expect(clock.running).toBe(clock.state_id === WORK_UNIT_STATES.New);
    for (const clock of resolution.filter((each) => FINISHED_STATES.includes(each.state_id)))
      expect(clock).toMatchObject({ running: false, stopped: clock.resolved });
    for (const clock of resolution.filter((each) => each.state_id === WORK_UNIT_STATES.OnHold))
      expect(clock).toMatchObject({ running: false, paused: true });
    // Every clock past its target is breached, answered late or not (the report counts the breached
    // as missed), and some stopped in time; a running clock is breached once it is due.
    const now = new Date();
    for (const clock of clocks)
      expect(clock.breached !== null).toBe(
        clock.running ? clock.due !== null && clock.due <= now : clock.elapsed_seconds >= clock.target_seconds,
      );
    const answeredLate = response.filter((clock) => clock.stopped !== null && clock.breached !== null);
    expect(answeredLate.length).toBeGreaterThan(0);
    for (const kind of [response, resolution]) {
      expect(kind.filter((clock) => clock.stopped !== null && clock.breached === null).length).toBeGreaterThan(0);
      expect(kind.filter((clock) => clock.breached !== null).length).toBeGreaterThan(0);
    }
  });
});

describe('service level definitions', () => {
  it('a tenant follows the installation’s levels until it sets its own; strict input; operators read, administrators change', async () => {
    const { tenantId } = await createTenantAs(portal, 'admin');
    const first = await portal.as('admin', { method: 'GET', url: `/v1/servicelevels/${tenantId}` });
    expect(first.json()).toMatchObject({ tenantId, inherited: true, timeZone: 'UTC', businessHours: null });
    expect(first.json<{ targets: unknown[] }>().targets).toContainEqual({
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
      severityId: 2,
      respondWithin: '04:00:00',
      resolveWithin: '24:00:00',
    });
    const saved = await put('admin', tenantId, aroundTheClock);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      inherited: false,
      modifiedBy: 'admin',
      pauseStates: [WORK_UNIT_STATES.OnHold],
    });
    expect(saved.json<{ targets: unknown[] }>().targets).toHaveLength(2);

    const refused: [Record<string, unknown>, string, string][] = [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', SERVICE_LEVEL_MESSAGES.timeZoneInvalid],
      // Known to the runtime's tables, not to the database's, where the report counts its months.
      [{ timeZone: 'US/Pacific-New' }, 'timeZone', SERVICE_LEVEL_MESSAGES.timeZoneInvalid],
      [
        { businessHours: [{ weekday: 1, start: '18:00', end: '09:00' }] },
        'businessHours.0',
        SERVICE_LEVEL_MESSAGES.hoursInvalid,
      ],
      [{ holidays: ['25/12/2026'] }, 'holidays.0', SERVICE_LEVEL_MESSAGES.holidayInvalid],
      [
        {
          businessHours: [
            { weekday: 1, start: '09:00', end: '13:00' },
            { weekday: 1, start: '12:00', end: '17:00' },
          ],
        },
        'businessHours',
        SERVICE_LEVEL_MESSAGES.hoursOverlap,
      ],
      [{ pauseStates: [WORK_UNIT_STATES.Resolved] }, 'pauseStates.0', SERVICE_LEVEL_MESSAGES.pauseInvalid],
      [
        { targets: [...aroundTheClock.targets, aroundTheClock.targets[0]] },
        'targets',
        SERVICE_LEVEL_MESSAGES.targetTwice,
      ],
    ];
    for (const [change, field, message] of refused) {
      const answer = await put('admin', tenantId, { ...aroundTheClock, ...change });
      expect(answer.statusCode, field).toBe(400);
      expect(answer.json<{ errors: Record<string, string[]> }>().errors[field]).toEqual([message]);
    }
    const unknown = await put('admin', tenantId, { ...aroundTheClock, slaName: 'Gold' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('slaName');

    // Operators read their tenants' levels and change none; the installation's are changed by staff of every tenant.
    expect((await portal.as('operator', { method: 'GET', url: `/v1/servicelevels/${DEMO.contoso}` })).statusCode).toBe(
      200,
    );
    expect((await put('operator', DEMO.contoso, aroundTheClock)).statusCode).toBe(403);
    expect((await portal.as('operator', { method: 'GET', url: `/v1/servicelevels/${DEMO.fabrikam}` })).statusCode).toBe(
      404,
    );
    const audited = await portal.db
      .selectFrom('audit_event')
      .select('action')
      .where('entity_type', '=', 'serviceLevels')
      .where('entity_id', '=', tenantId)
      .execute();
    expect(audited.map((row) => row.action)).toEqual(['create']);

    const reset = await portal.as('admin', { method: 'DELETE', url: `/v1/servicelevels/${tenantId}` });
    expect(reset.json()).toMatchObject({ inherited: true });
  });

  it('the installation’s levels are changed by staff of every tenant and followed by every tenant without its own', async () => {
    const { tenantId } = await createTenantAs(portal, 'admin');
    const before = await portal.as('admin', { method: 'GET', url: '/v1/servicelevels/installation' });
    const changed = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/servicelevels/installation',
      payload: { ...aroundTheClock, timeZone: 'Europe/Berlin', holidays: ['2026-12-25', '2026-12-25'] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ tenantId: null, inherited: false, holidays: ['2026-12-25'] });
    expect((await portal.as('admin', { method: 'GET', url: `/v1/servicelevels/${tenantId}` })).json()).toMatchObject({
      inherited: true,
      timeZone: 'Europe/Berlin',
    });
    // Written again, the one installation row is changed, not doubled.
    const again = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/servicelevels/installation',
      payload: pick(before.json<ServiceLevelsInput>()),
    });
    expect(again.statusCode, again.body).toBe(200);
    const rows = await portal.db
      .selectFrom('service_level_calendar')
      .select('time_zone')
      .where('tenant_id', 'is', null)
      .execute();
    expect(rows).toEqual([{ time_zone: 'UTC' }]);
  });
});

describe('a work unit’s clocks', () => {
  it('start with the unit, stop the response clock when it leaves New, pause on hold, stop on resolution (closing it moves nothing) and start again when reopened', async () => {
    await put('admin', DEMO.contoso, aroundTheClock);
    const unit = await createWorkUnitAs(portal, 'operator', DEMO.contoso, { severityId: 2 });
    await settle(unit.workUnitId, 1);
    let clocks = await timers(unit.workUnitId);
    expect(clocks.response).toMatchObject({ status: 'running', target: '01:00:00' });
    expect(clocks.resolution).toMatchObject({ status: 'running', target: '08:00:00' });
    expect(clocks.resolution!.remainingSeconds).toBeGreaterThan(8 * HOUR - 60);

    await patchState(unit.workUnitId, WORK_UNIT_STATES.Acknowledged);
    await patchState(unit.workUnitId, WORK_UNIT_STATES.OnHold);
    await settle(unit.workUnitId, 5);
    clocks = await timers(unit.workUnitId);
    expect(clocks.response).toMatchObject({ status: 'met' });
    expect(clocks.resolution).toMatchObject({ status: 'paused', due: null });

    await patchState(unit.workUnitId, WORK_UNIT_STATES.InProgress);
    await patchState(unit.workUnitId, WORK_UNIT_STATES.Resolved);
    await settle(unit.workUnitId, 9);
    const resolved = (await timers(unit.workUnitId)).resolution;
    expect(resolved).toMatchObject({ status: 'met' });
    // Closed after Resolved: still the clock that stopped at the resolution, not a reopening.
    await patchState(unit.workUnitId, WORK_UNIT_STATES.Closed);
    await settle(unit.workUnitId, 11);
    expect((await timers(unit.workUnitId)).resolution).toEqual(resolved);
    await patchState(unit.workUnitId, WORK_UNIT_STATES.InProgress);
    await settle(unit.workUnitId, 13);
    expect((await timers(unit.workUnitId)).resolution).toMatchObject({ status: 'running', stopped: null });
  });

  it('a change of severity re-targets both clocks from their start; a bulk change of state moves them as one change does', async () => {
    await put('admin', DEMO.contoso, aroundTheClock);
    const units = [
      await createWorkUnitAs(portal, 'operator', DEMO.contoso, { severityId: 2 }),
      await createWorkUnitAs(portal, 'operator', DEMO.contoso, { severityId: 2 }),
    ];
    const answer = await portal.as('operator', {
      method: 'PATCH',
      url: `/v1/workunits/${units[0]!.workUnitId}`,
      payload: [{ op: 'replace', path: '/severityId', value: 1 }],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    await settle(units[0]!.workUnitId, 2);
    expect((await timers(units[0]!.workUnitId)).resolution).toMatchObject({ target: '02:00:00', status: 'running' });

    const bulk = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/state',
      payload: { workUnitIds: units.map((unit) => unit.workUnitId), stateId: WORK_UNIT_STATES.Acknowledged },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    for (const unit of units) {
      await settle(unit.workUnitId, 3);
      expect((await timers(unit.workUnitId)).response).toMatchObject({ status: 'met' });
    }
  });

  it('warns at 75% and breaches at 100% once each, as work unit events and history, with several workers sweeping', async () => {
    await put('admin', DEMO.contoso, aroundTheClock);
    const unit = await createWorkUnitAs(portal, 'operator', DEMO.contoso, { severityId: 1 });
    await settle(unit.workUnitId, 1);
    const events = async () =>
      (
        await portal.db
          .selectFrom('work_unit_event')
          .select('event_type_id')
          .where('work_unit_id', '=', unit.workUnitId)
          .where('event_type_id', '>', WORK_UNIT_EVENT_TYPES.OnMitigated)
          .orderBy('work_unit_event_id')
          .execute()
      ).map((row) => row.event_type_id);
    const sweep = (minutes: number) => {
      const at = new Date(Date.now() + minutes * 60_000);
      return Promise.all([sweepServiceLevels(portal.db, at), sweepServiceLevels(portal.db, at)]);
    };
    await sweep(5);
    expect(await events()).toEqual([]);
    // Response: 15 minutes, warned at 11¼ and breached at 15.
    await sweep(12);
    expect(await events()).toEqual([WORK_UNIT_EVENT_TYPES.OnResponseWarning]);
    await sweep(16);
    await sweep(17);
    expect(await events()).toEqual([WORK_UNIT_EVENT_TYPES.OnResponseWarning, WORK_UNIT_EVENT_TYPES.OnResponseBreach]);
    // Resolution: two hours, both passed at once by a late sweep: the warning, then the breach.
    await sweep(200);
    expect(await events()).toEqual([
      WORK_UNIT_EVENT_TYPES.OnResponseWarning,
      WORK_UNIT_EVENT_TYPES.OnResponseBreach,
      WORK_UNIT_EVENT_TYPES.OnResolutionWarning,
      WORK_UNIT_EVENT_TYPES.OnResolutionBreach,
    ]);
    const history = await portal.db
      .selectFrom('work_unit_note')
      .select('detail')
      .where('work_unit_id', '=', unit.workUnitId)
      .where('created_by', '=', 'Service levels')
      .orderBy('work_unit_note_id')
      .execute();
    // The late sweep's records say when each happened.
    expect(history.map((note) => note.detail)).toEqual([
      'Response target: 75% of 15 minutes used.',
      'Response target of 15 minutes breached.',
      expect.stringMatching(
        /^Resolution target: 75% of 2 hours used\. It happened at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
      ),
      expect.stringMatching(/^Resolution target of 2 hours breached\. It happened at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/),
    ]);
    // A late sweep marks each clock at the times its warning and due time fell, not at its own.
    const resolution = await portal.db
      .selectFrom('service_level_timer')
      .select(['warn_at', 'warned', 'due', 'breached'])
      .where('work_unit_id', '=', unit.workUnitId)
      .where('kind', '=', 'resolution')
      .executeTakeFirstOrThrow();
    expect(resolution.warned).toEqual(resolution.warn_at);
    expect(resolution.breached).toEqual(resolution.due);
    // The events of the sweep leave the clocks as they are.
    await settle(unit.workUnitId, 5);
    expect((await timers(unit.workUnitId)).resolution).toMatchObject({ status: 'running' });
  });

  it('the list filters and sorts by the clocks: due within an hour, breached; each read through the clocks’ keys', async () => {
    const { tenantId } = await createTenantAs(portal, 'admin');
    expect((await put('admin', tenantId, twoHoursAtSev2)).statusCode).toBe(200);
    const urgent = await createWorkUnitAs(portal, 'admin', tenantId, { severityId: 1 });
    const later = await createWorkUnitAs(portal, 'admin', tenantId, { severityId: 2 });
    const answered = await createWorkUnitAs(portal, 'admin', tenantId, { severityId: 2 });
    await portal.as('admin', {
      method: 'PATCH',
      url: `/v1/workunits/${answered.workUnitId}`,
      payload: [{ op: 'replace', path: '/stateId', value: WORK_UNIT_STATES.Acknowledged }],
    });
    for (const unit of [urgent, later]) await settle(unit.workUnitId, 1);
    await settle(answered.workUnitId, 2);

    const list = async (filter: string, orderBy?: string) => {
      const answer = await portal.as('admin', {
        method: 'GET',
        url: '/v1/workunits',
        query: {
          $filter: `tenantId eq ${tenantId} and (${filter})`,
          $expand: 'responseClock,resolutionClock',
          ...(orderBy ? { $orderby: orderBy } : {}),
        },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ value: { workUnitId: number; resolutionClock: { due: string | null } | null }[] }>().value;
    };
    const ids = (rows: { workUnitId: number }[]) => rows.map((row) => row.workUnitId);
    const within = (hours: number) => {
      const from = new Date().toISOString();
      const to = new Date(Date.now() + hours * HOUR * 1000).toISOString();
      return ['responseClock', 'resolutionClock']
        .map((clock) => `(${clock}/due ge ${from} and ${clock}/due le ${to})`)
        .join(' or ');
    };
    // Within an hour: the Sev1's response (15 minutes). Within three: the Sev2's response too (two hours).
    expect(ids(await list(within(1)))).toEqual([urgent.workUnitId]);
    expect(ids(await list(within(3))).sort()).toEqual([urgent.workUnitId, later.workUnitId].sort());
    // Sorted by when resolution is due: 2 h, then the two 8 h clocks in the order they started.
    const sorted = await list('true', 'resolutionClock/due asc');
    expect(ids(sorted)).toEqual([urgent.workUnitId, later.workUnitId, answered.workUnitId]);
    expect(sorted[0]!.resolutionClock!.due).toMatch(/Z$/);

    const breached = 'responseClock/breached ne null or resolutionClock/breached ne null';
    expect(await list(breached)).toEqual([]);
    await sweepServiceLevels(portal.db, new Date(Date.now() + 20 * 60_000));
    expect(ids(await list(breached))).toEqual([urgent.workUnitId]);
    // A clock that was met is due no more (the acknowledged unit’s response); a breached one still runs.
    expect(ids(await list('responseClock/due ne null')).sort()).toEqual([urgent.workUnitId, later.workUnitId].sort());
  });

  it('the monthly report: each clock counted once in the month it was decided, per type and severity, week and in total; the missed listed; CSV', async () => {
    const { tenantId } = await createTenantAs(portal, 'admin');
    expect((await put('admin', tenantId, twoHoursAtSev2)).statusCode).toBe(200);
    const change = async (workUnitId: number, stateId: number) => {
      const answer = await portal.as('admin', {
        method: 'PATCH',
        url: `/v1/workunits/${workUnitId}`,
        payload: [{ op: 'replace', path: '/stateId', value: stateId }],
      });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    const served = await createWorkUnitAs(portal, 'admin', tenantId, { severityId: 1, title: 'Served in time' });
    const answered = await createWorkUnitAs(portal, 'admin', tenantId, { severityId: 2 });
    const late = await createWorkUnitAs(portal, 'admin', tenantId, { severityId: 1, title: 'Answered late' });
    await createWorkUnitAs(portal, 'admin', tenantId, { severityId: 2, title: 'Still open, in time' });
    await change(served.workUnitId, WORK_UNIT_STATES.Acknowledged);
    await change(served.workUnitId, WORK_UNIT_STATES.Resolved);
    await change(answered.workUnitId, WORK_UNIT_STATES.Acknowledged);
    await settle(served.workUnitId, 3);
    await settle(answered.workUnitId, 2);
    await settle(late.workUnitId, 1);
    const breachedAt = new Date(Date.now() + 16 * 60_000);
    await sweepServiceLevels(portal.db, breachedAt);
    // The late unit is answered after its breach: still one missed clock, counted when it breached.
    await change(late.workUnitId, WORK_UNIT_STATES.Acknowledged);
    await settle(late.workUnitId, 4);

    const month = breachedAt.toISOString().slice(0, 7);
    const answer = await portal.as('operator', {
      method: 'GET',
      url: `/v1/servicelevels/reports/${tenantId}`,
      query: { month },
    });
    // An operator reads only their own tenants' reports.
    expect(answer.statusCode).toBe(404);
    const own = await portal.as('operator', {
      method: 'GET',
      url: `/v1/servicelevels/reports/${DEMO.contoso}`,
      query: { month },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<ServiceLevelReport>()).toMatchObject({ tenantId: DEMO.contoso, month });
    const read = await portal.as('admin', {
      method: 'GET',
      url: `/v1/servicelevels/reports/${tenantId}`,
      query: { month },
    });
    expect(read.statusCode, read.body).toBe(200);
    const report = read.json<ServiceLevelReport>();
    const tally = (decided: number, met: number) => ({
      decided,
      met,
      missed: decided - met,
      attainment: decided === 0 ? null : met / decided,
    });
    expect(report).toMatchObject({ tenantId, month, timeZone: 'UTC', breachesComplete: true });
    expect(report.total).toEqual({ response: tally(3, 2), resolution: tally(1, 1) });
    expect(report.rows).toEqual([
      {
        workUnitTypeId: WORK_UNIT_TYPES.Incident,
        workUnitTypeName: 'Incident',
        severityId: 1,
        response: tally(2, 1),
        resolution: tally(1, 1),
      },
      {
        workUnitTypeId: WORK_UNIT_TYPES.Incident,
        workUnitTypeName: 'Incident',
        severityId: 2,
        response: tally(1, 1),
        resolution: tally(0, 0),
      },
    ]);
    expect(report.weeks.length).toBeGreaterThanOrEqual(4);
    expect(report.weeks.every((week) => new Date(`${week.week}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(report.weeks.reduce((sum, week) => sum + week.response.decided, 0)).toBe(3);
    expect(report.breaches).toEqual([
      expect.objectContaining({
        workUnitId: late.workUnitId,
        title: 'Answered late',
        kind: 'response',
        target: '00:15:00',
        severityId: 1,
      }),
    ]);
    // The month before holds none of them.
    const before = new Date(`${month}-01T00:00:00Z`);
    before.setUTCMonth(before.getUTCMonth() - 1);
    const earlier = await portal.as('admin', {
      method: 'GET',
      url: `/v1/servicelevels/reports/${tenantId}`,
      query: { month: before.toISOString().slice(0, 7) },
    });
    expect(earlier.json<ServiceLevelReport>().total.response).toEqual(tally(0, 0));

    const csv = await portal.as('admin', {
      method: 'GET',
      url: `/v1/servicelevels/reports/${tenantId}/csv`,
      query: { month },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(new RegExp(`service-levels-.+-${month}\\.csv`));
    expect(csv.body.trim().split('\n')).toEqual([
      'Work Unit Type,Severity,Clock,Decided,Met,Missed,Attainment',
      'Incident,Sev1,Response,2,1,1,50.0%',
      'Incident,Sev1,Resolution,1,1,0,100.0%',
      'Incident,Sev2,Response,1,1,0,100.0%',
      'Incident,Sev2,Resolution,0,0,0,',
      'All,All,Response,3,2,1,66.7%',
      'All,All,Resolution,1,1,0,100.0%',
    ]);

    for (const query of [{ month: '2026-13' }, { month: '0000-01' }, {}] as Record<string, string>[]) {
      const refused = await portal.as('admin', { method: 'GET', url: `/v1/servicelevels/reports/${tenantId}`, query });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors.month).toEqual([
        SERVICE_LEVEL_MESSAGES.monthInvalid,
      ]);
    }
    const unknown = await portal.as('admin', {
      method: 'GET',
      url: `/v1/servicelevels/reports/${tenantId}`,
      query: { month, tenant: 'x' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('tenant');
  });

  it('counts in business hours across a weekend and a holiday, paused time not counted', async () => {
    const levels = await levelsFor(portal.db, null);
    const berlin = {
      ...levels,
      calendar: {
        timeZone: 'Europe/Berlin',
        hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 9 * HOUR, end: 17 * HOUR })),
        holidays: new Set(['2026-12-25']),
      },
      targets: [{ workUnitTypeId: 1, severityId: 2, responseSeconds: 4 * HOUR, resolutionSeconds: 16 * HOUR }],
    };
    const unit = { work_unit_id: 1, tenant_id: DEMO.contoso, work_unit_type_id: 1, severity_id: 2 };
    const event = (type: number, from: number | null, to: number, at: string) => ({
      event_type_id: type,
      from_state_id: from,
      to_state_id: to,
      created: new Date(at),
    });
    // Thursday 24 December 2026, 15:00 Berlin (14:00 UTC): Friday the 25th is a holiday, then the weekend.
    let clocks: Map<'response' | 'resolution', TimerRow> = applyEvent(
      new Map(),
      event(WORK_UNIT_EVENT_TYPES.OnNew, null, WORK_UNIT_STATES.New, '2026-12-24T14:00:00Z'),
      unit,
      berlin,
    );
    // Four hours: two on Thursday, two on Monday 28th, due 11:00 Berlin.
    expect(clocks.get('response')!.due?.toISOString()).toBe('2026-12-28T10:00:00.000Z');
    // Sixteen hours: two Thursday, eight Monday, six Tuesday: due Tuesday 15:00.
    expect(clocks.get('resolution')!.due?.toISOString()).toBe('2026-12-29T14:00:00.000Z');
    // On hold from Monday 10:00 to Tuesday 10:00 (Berlin): eight business hours not counted.
    clocks = applyEvent(
      clocks,
      event(WORK_UNIT_EVENT_TYPES.OnHold, WORK_UNIT_STATES.New, WORK_UNIT_STATES.OnHold, '2026-12-28T09:00:00Z'),
      unit,
      berlin,
    );
    expect(clocks.get('response')).toMatchObject({
      stopped: new Date('2026-12-28T09:00:00Z'),
      elapsed_seconds: 3 * HOUR,
    });
    expect(clocks.get('resolution')).toMatchObject({
      running: false,
      paused: true,
      due: null,
      elapsed_seconds: 3 * HOUR,
    });
    clocks = applyEvent(
      clocks,
      event(
        WORK_UNIT_EVENT_TYPES.OnInProgress,
        WORK_UNIT_STATES.OnHold,
        WORK_UNIT_STATES.InProgress,
        '2026-12-29T09:00:00Z',
      ),
      unit,
      berlin,
    );
    // Thirteen hours left from Tuesday 10:00: seven on Tuesday, six on Wednesday: due Wednesday 15:00.
    expect(clocks.get('resolution')!.due?.toISOString()).toBe('2026-12-30T14:00:00.000Z');
  });

  it('a clock that an event finds past its due time, before the sweep did, was warned and breached then: stopped now, it is missed', async () => {
    const levels = {
      ...(await levelsFor(portal.db, null)),
      calendar: { timeZone: 'UTC', hours: null, holidays: new Set<string>() },
      targets: [{ workUnitTypeId: 1, severityId: 2, responseSeconds: HOUR, resolutionSeconds: 8 * HOUR }],
    };
    const unit = { work_unit_id: 1, tenant_id: DEMO.contoso, work_unit_type_id: 1, severity_id: 2 };
    const opened = applyEvent(
      new Map(),
      {
        event_type_id: WORK_UNIT_EVENT_TYPES.OnNew,
        from_state_id: null,
        to_state_id: 1,
        created: new Date('2026-12-01T09:00:00Z'),
      },
      unit,
      levels,
    );
    // Acknowledged at 11:00, an hour past the response target; the resolution clock is not yet due.
    const answered = applyEvent(
      opened,
      {
        event_type_id: WORK_UNIT_EVENT_TYPES.OnAcknowledged,
        from_state_id: WORK_UNIT_STATES.New,
        to_state_id: WORK_UNIT_STATES.Acknowledged,
        created: new Date('2026-12-01T11:00:00Z'),
      },
      unit,
      levels,
    );
    expect(answered.get('response')).toMatchObject({
      running: false,
      stopped: new Date('2026-12-01T11:00:00Z'),
      warned: new Date('2026-12-01T09:45:00Z'),
      breached: new Date('2026-12-01T10:00:00Z'),
    });
    expect(answered.get('resolution')).toMatchObject({ running: true, warned: null, breached: null });
  });

  it('an event on an overdue clock leaves its due time where it fell, in business hours too: it still reads overdue', async () => {
    const levels = {
      ...(await levelsFor(portal.db, null)),
      calendar: {
        timeZone: 'UTC',
        hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 9 * HOUR, end: 17 * HOUR })),
        holidays: new Set<string>(),
      },
      targets: [{ workUnitTypeId: 1, severityId: 1, responseSeconds: HOUR, resolutionSeconds: 8 * HOUR }],
    };
    const unit = { work_unit_id: 1, tenant_id: DEMO.contoso, work_unit_type_id: 1, severity_id: 1 };
    const at = (iso: string) => new Date(iso);
    let clocks = applyEvent(
      new Map(),
      {
        event_type_id: WORK_UNIT_EVENT_TYPES.OnNew,
        from_state_id: null,
        to_state_id: 1,
        created: at('2026-12-01T09:00:00Z'),
      },
      unit,
      levels,
    );
    clocks = applyEvent(
      clocks,
      {
        event_type_id: WORK_UNIT_EVENT_TYPES.OnAcknowledged,
        from_state_id: WORK_UNIT_STATES.New,
        to_state_id: WORK_UNIT_STATES.Acknowledged,
        created: at('2026-12-01T09:30:00Z'),
      },
      unit,
      levels,
    );
    // Eight business hours from Tuesday 09:00: due Tuesday 17:00.
    expect(clocks.get('resolution')!.due).toEqual(at('2026-12-01T17:00:00Z'));
    // Reassigned on Thursday evening, out of hours: the clock is overdue since Tuesday 17:00, and stays so.
    for (const when of ['2026-12-03T19:00:00Z', '2026-12-04T10:00:00Z']) {
      clocks = applyEvent(
        clocks,
        { event_type_id: WORK_UNIT_EVENT_TYPES.OnChange, from_state_id: null, to_state_id: null, created: at(when) },
        unit,
        levels,
      );
      expect(clocks.get('resolution')).toMatchObject({
        due: at('2026-12-01T17:00:00Z'),
        warn_at: at('2026-12-01T15:00:00Z'),
        breached: at('2026-12-01T17:00:00Z'),
      });
    }
  });

  it('a tenant’s new calendar recounts its running clocks: what they counted stands, their due time is the new calendar’s', async () => {
    await put('admin', DEMO.contoso, aroundTheClock);
    const unit = await createWorkUnitAs(portal, 'operator', DEMO.contoso, { severityId: 1 });
    await settle(unit.workUnitId, 1);
    const resolutionClock = () =>
      portal.db
        .selectFrom('service_level_timer')
        .select(['due', 'started'])
        .where('work_unit_id', '=', unit.workUnitId)
        .where('kind', '=', 'resolution')
        .executeTakeFirstOrThrow();
    const before = await resolutionClock();
    // Around the clock, two hours: due two hours after it started.
    expect(before.due!.getTime() - before.started.getTime()).toBe(2 * HOUR * 1000);
    // Business hours on one weekday only, three days from today: the clock waits for that day's 09:00.
    const weekday = (new Date().getUTCDay() + 3) % 7;
    const oneDay = await put('admin', DEMO.contoso, {
      ...aroundTheClock,
      businessHours: [{ weekday, start: '09:00', end: '17:00' }],
    });
    expect(oneDay.statusCode, oneDay.body).toBe(200);
    const after = await resolutionClock();
    expect(after.due!.getUTCDay()).toBe(weekday);
    expect(after.due!.getTime()).toBeGreaterThan(before.due!.getTime() + 86_400_000);
    const { body } = await portal.as('operator', { method: 'GET', url: `/v1/servicelevels/timers/${unit.workUnitId}` });
    const resolution = (JSON.parse(body) as { kind: string; due: string; remainingSeconds: number }[]).find(
      (timer) => timer.kind === 'resolution',
    )!;
    // What it shows left and when it is due agree: due once what is left has passed in the new
    // calendar, its one day's hours starting at 09:00 UTC.
    const opens = new Date(after.due!);
    opens.setUTCHours(9, 0, 0, 0);
    expect(resolution.remainingSeconds).toBeGreaterThan(HOUR);
    expect(
      Math.abs(new Date(resolution.due).getTime() - opens.getTime() - resolution.remainingSeconds * 1000),
    ).toBeLessThan(60_000);
    await put('admin', DEMO.contoso, aroundTheClock);
  });
});
