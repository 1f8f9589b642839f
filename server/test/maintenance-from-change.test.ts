import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ACTION_RESULT_STATUSES, BLOCK_COLORS, LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { tenantCondition, type Rule } from '@cfs/contracts/rules';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES, type WorkUnit } from '@cfs/contracts/work-units';
import type { Db } from '../src/db/database.js';
import { DEMO } from '../src/db/demo-ids.js';
import { actionRunTask } from '../src/engines/actions/runner.js';
import { MAINTENANCE_ACTOR, reconcileChangeWindow } from '../src/engines/maintenance/change-window.js';
import { MAINTENANCE_TASKS, readMaintenanceEvents } from '../src/engines/maintenance/tasks.js';
import type { TaskDefinition } from '../src/engines/jobs/task.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import { RULE_ENGINE_TASKS } from '../src/engines/rules/tasks.js';
import { releaseEndedMaintenance } from '../src/engines/rules/maintenance-end.js';
import { createLocalUser } from './factories.js';
import { openSecondInstance, type TestPortal } from './harness.js';
import { metric, postPackets, red, runPendingJobs, withRulePortal } from './rule-factories.js';
import { workUnitPatch } from './work-unit-patch.js';

let portal: TestPortal;
let contosoToken: string;
withRulePortal(async (opened) => {
  ({ portal, token: contosoToken } = opened);
  // A planner who names the approvers (nobody may name themselves approver).
  await createLocalUser(portal, DEMO.contoso, { userName: 'planner', displayName: 'Pat Planner', groups: [] });
});

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

const changeRequest = (overrides: Record<string, unknown> = {}) => ({
  workUnitId: -1,
  title: 'Replace the core switch',
  severityId: 3,
  stateId: WORK_UNIT_STATES.New,
  tenantId: DEMO.contoso,
  workUnitTypeId: WORK_UNIT_TYPES.ChangeRequest,
  resolution: 'Planned',
  implementationPlan: 'Swap the chassis',
  rollbackPlan: 'Put the old one back',
  affectedResources: 'Core switch',
  environment: 'Production',
  expectedCFSAlerts: 'Heartbeat gaps',
  approver1: 'operator@cfs.example',
  approver2: 'admin@cfs.example',
  plannedOutage: true,
  plannedStartTime: hoursFromNow(-1),
  plannedFinishTime: hoursFromNow(1),
  relations: [],
  ...overrides,
});

async function create(body: Record<string, unknown>): Promise<WorkUnit> {
  const response = await portal.as('planner', { method: 'PUT', url: '/api/v1/workunits', payload: body });
  if (response.statusCode !== 200) throw new Error(`create: ${response.statusCode} ${response.body}`);
  return response.json<WorkUnit>();
}

async function patch(user: string, unit: WorkUnit, changes: Partial<WorkUnit>): Promise<WorkUnit> {
  const response = await portal.as(user, {
    method: 'PATCH',
    url: `/v1/workunits/${unit.workUnitId}`,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify(workUnitPatch(unit, changes)),
  });
  if (response.statusCode !== 200) throw new Error(`patch: ${response.statusCode} ${response.body}`);
  return response.json<WorkUnit>();
}

/** Both approvers approve, each as themselves. */
async function approveBoth(unit: WorkUnit): Promise<WorkUnit> {
  const first = await patch('operator', unit, { approved1By: 'operator@cfs.example' });
  return patch('admin', first, { approved2By: 'admin@cfs.example' });
}

/** The worker's tasks but those that read the work unit events: `work` leaves their jobs pending. */
const WORKER_TASKS: readonly TaskDefinition<unknown>[] = [
  ...MAINTENANCE_TASKS,
  ...RULE_ENGINE_TASKS,
  actionRunTask,
].filter((task) => !task.name.endsWith('.work-unit-events'));

/**
 * Reads the maintenance cursor until it has passed every event written so far: the cursor reads
 * only events older than every running transaction, and other databases of the server may hold
 * one open for a moment.
 */
async function readAllEvents(db: Db): Promise<void> {
  const { rows } = await sql<{
    last: string | null;
  }>`SELECT max(work_unit_event_id)::text AS last FROM work_unit_event`.execute(db);
  const last = rows[0]?.last ?? '0';
  const deadline = Date.now() + 10_000;
  for (;;) {
    await readMaintenanceEvents(db);
    const { rows: behind } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM work_unit_event e, engine_cursor c
      WHERE c.consumer = 'maintenance' AND e.work_unit_event_id <= ${last}::bigint AND (e.tx_id, e.work_unit_event_id) > (c.last_tx, c.last_id)`.execute(
      db,
    );
    if ((behind[0]?.n ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error('The maintenance cursor did not catch up within 10 s.');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads the maintenance cursor and runs the pending jobs as a worker would, until none is left. */
async function work(db: Db = portal.db): Promise<void> {
  await readAllEvents(db);
  await runPendingJobs(db, WORKER_TASKS);
}

const rulesOf = (workUnitId: number) =>
  portal.db.selectFrom('rule').selectAll().where('change_work_unit_id', '=', workUnitId).execute();
const communicationsOf = (workUnitId: number) =>
  portal.db.selectFrom('work_unit_communication').selectAll().where('change_work_unit_id', '=', workUnitId).execute();
const maintenanceNotes = async (workUnitId: number) =>
  (
    await portal.db
      .selectFrom('work_unit_note')
      .select('detail')
      .where('work_unit_id', '=', workUnitId)
      .where('created_by', '=', MAINTENANCE_ACTOR)
      .orderBy('work_unit_note_id')
      .execute()
  ).map((row) => row.detail);

const cpuPacket = (entityId: string, timestamp: string, cpu: number) => ({
  entityId,
  timestamp,
  message: { Value: cpu, Properties: { BlockName: 'Core switch' }, Metrics: { CpuPercent: cpu } },
});

const post = (payload: unknown) => postPackets(portal, contosoToken, payload);

/** An Ingestion rule of Contoso that turns an entity over 80% CPU red: the action a window suppresses. */
async function insertAlertRule(entityIds: readonly string[]): Promise<string> {
  const conditions = [
    tenantCondition(DEMO.contoso),
    metric('CpuPercent', OPERATORS.GreaterThan, 80),
    // Only the test's entities, so that other tests' packets do not open matches of this rule.
    {
      Type: 0,
      LeftOperand: LEFT_OPERANDS.Entity.id,
      LeftOperandFieldName: null,
      Operator: OPERATORS.Matches,
      RightOperand: `^(${entityIds.join('|')})$`,
      OccurrencePattern: null,
    },
  ];
  const row = await portal.db
    .insertInto('rule')
    .values({
      tenant_id: DEMO.contoso,
      name: `CPU alert ${randomUUID().slice(0, 8)}`,
      rule_type_id: RULE_TYPES.Ingestion,
      match_lifetime_seconds: 300,
      use_sliding_expiration: false,
      time_conditions: null,
      conditions: JSON.stringify(conditions),
      match_actions: JSON.stringify([red]),
      expiration_actions: '[]',
    })
    .returning('rule_id')
    .executeTakeFirstOrThrow();
  forgetRules(portal.db);
  return row.rule_id;
}

async function historyOfMatch(ruleId: string, entityId: string) {
  const match = await portal.db
    .selectFrom('rule_match')
    .selectAll()
    .where('rule_id', '=', ruleId)
    .where('subject_id', '=', entityId)
    .executeTakeFirst();
  if (!match) return { match, runs: [] };
  const runs = await portal.db
    .selectFrom('action_history')
    .select(['result_status_id', 'result_detail'])
    .where('rule_match_id', '=', match.rule_match_id)
    .execute();
  return { match, runs };
}

const colorOf = async (entityId: string) =>
  (await portal.db.selectFrom('entity_color').select('color').where('entity_id', '=', entityId).executeTakeFirst())
    ?.color;

describe('an approved planned-outage change opens a maintenance window', () => {
  it('approving both opens exactly one Maintenance rule over the named block and device for the planned window, and drafts one communication linked to the change', async () => {
    const block = randomUUID();
    const device = randomUUID();
    const cr = await create(
      changeRequest({
        relations: [
          { referenceType: 'Block', referenceId: block },
          { referenceType: 'Device', referenceId: device.toUpperCase() },
          { referenceType: 'WorkUnit', referenceId: '1' },
        ],
      }),
    );
    await work();
    expect(await rulesOf(cr.workUnitId)).toEqual([]);

    const approved = await approveBoth(cr);
    await work();
    await work();
    const rules = await rulesOf(cr.workUnitId);
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(rule).toMatchObject({
      tenant_id: DEMO.contoso,
      rule_type_id: RULE_TYPES.Maintenance,
      enabled: true,
      name: `Maintenance: Replace the core switch (#${cr.workUnitId})`,
      created_by: MAINTENANCE_ACTOR,
    });
    expect(rule.time_conditions).toMatchObject({
      TimeZoneId: 'America/New_York',
      StartRange: approved.plannedStartTime,
      EndRange: approved.plannedFinishTime,
      DaysOfWeek: [0, 1, 2, 3, 4, 5, 6],
    });
    expect(rule.conditions).toEqual([
      tenantCondition(DEMO.contoso),
      {
        Type: 0,
        LeftOperand: LEFT_OPERANDS.Entity.id,
        LeftOperandFieldName: null,
        Operator: OPERATORS.Equals,
        RightOperand: block,
        OccurrencePattern: null,
      },
      {
        Type: 1,
        LeftOperand: LEFT_OPERANDS.Device.id,
        LeftOperandFieldName: null,
        Operator: OPERATORS.Equals,
        RightOperand: device,
        OccurrencePattern: null,
      },
    ]);

    // An ordinary rule: the Rules API shows it, with the change it comes from, and it can be edited like any other.
    const read = await portal.as('admin', { method: 'GET', url: `/v1/rules/${rule.rule_id}` });
    expect(read.json<Rule>()).toMatchObject({
      ruleId: rule.rule_id,
      ruleTypeId: RULE_TYPES.Maintenance,
      changeWorkUnitId: cr.workUnitId,
    });
    const {
      ruleId: _id,
      created: _c,
      createdBy: _cb,
      modified: _m,
      modifiedBy: _mb,
      changeWorkUnitId: _w,
      ...input
    } = read.json<Rule>();
    const edited = await portal.as('admin', {
      method: 'POST',
      url: `/v1/rules/${rule.rule_id}`,
      payload: { ...input, description: 'Core switch swap, night shift' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Rule>()).toMatchObject({
      description: 'Core switch swap, night shift',
      changeWorkUnitId: cr.workUnitId,
    });

    const communications = await communicationsOf(cr.workUnitId);
    expect(communications).toHaveLength(1);
    expect(communications[0]).toMatchObject({
      tenant_id: DEMO.contoso,
      status: 'Investigating',
      title: 'Planned maintenance: Replace the core switch',
      service_manager: 'planner',
      event_started: new Date(approved.plannedStartTime!),
      next_update: new Date(approved.plannedStartTime!),
    });
    expect(communications[0]!.details).toContain(block);
    const links = await portal.db
      .selectFrom('work_unit_communication_work_unit')
      .selectAll()
      .where('work_unit_communication_id', '=', communications[0]!.work_unit_communication_id)
      .execute();
    expect(links).toEqual([expect.objectContaining({ work_unit_id: cr.workUnitId, tenant_id: DEMO.contoso })]);
    expect(await maintenanceNotes(cr.workUnitId)).toEqual([
      expect.stringMatching(/^Maintenance window opened from .* over block .*, device /),
    ]);
  });

  it('suppresses and records as Suppressed the actions of a named subject during the window, runs them outside it, and follows the change when its planned times are edited', async () => {
    const named = randomUUID();
    const other = randomUUID();
    const later = randomUUID();
    const alertRule = await insertAlertRule([named, other, later]);
    const cr = await create(
      changeRequest({
        relations: [
          { referenceType: 'Block', referenceId: named },
          { referenceType: 'Block', referenceId: later },
        ],
      }),
    );
    await approveBoth(cr);
    await work();

    // During the window: the named block's match is in maintenance, its action Suppressed, not run.
    await post(cpuPacket(named, secondsAgo(30), 95));
    // A block the change does not name is not in maintenance.
    await post(cpuPacket(other, secondsAgo(30), 95));
    await work();
    const during = await historyOfMatch(alertRule, named);
    expect(during.match).toMatchObject({ in_maintenance: true });
    expect(during.runs).toEqual([expect.objectContaining({ result_status_id: ACTION_RESULT_STATUSES.Suppressed })]);
    expect(await colorOf(named)).toBeUndefined();
    const unnamed = await historyOfMatch(alertRule, other);
    expect(unnamed.match).toMatchObject({ in_maintenance: false });
    expect(unnamed.runs).toEqual([expect.objectContaining({ result_status_id: ACTION_RESULT_STATUSES.Success })]);
    expect(await colorOf(other)).toBe(BLOCK_COLORS.Red);

    // The change moves to tomorrow: the rule follows, and now is outside the window.
    const current = (
      await portal.as('planner', { method: 'GET', url: `/v1/workunits(${cr.workUnitId})` })
    ).json<WorkUnit>();
    const moved = await patch('planner', current, {
      plannedStartTime: hoursFromNow(24),
      plannedFinishTime: hoursFromNow(26),
    });
    await work();
    const [rule] = await rulesOf(cr.workUnitId);
    expect(rule!.time_conditions).toMatchObject({
      StartRange: moved.plannedStartTime,
      EndRange: moved.plannedFinishTime,
    });
    expect(rule!.created_by).toBe(MAINTENANCE_ACTOR);
    expect(await rulesOf(cr.workUnitId)).toHaveLength(1);
    const [communication] = await communicationsOf(cr.workUnitId);
    expect(communication).toMatchObject({
      event_started: new Date(moved.plannedStartTime!),
      next_update: new Date(moved.plannedStartTime!),
    });
    expect((await maintenanceNotes(cr.workUnitId)).at(-1)).toMatch(/^Maintenance window updated: /);

    // The named block's problem, opened in the window and still there now that the window moved
    // away, is silent no more: its match leaves maintenance and its action runs, once.
    await releaseEndedMaintenance(portal.db);
    await releaseEndedMaintenance(portal.db);
    await work();
    const after = await historyOfMatch(alertRule, named);
    expect(after.match).toMatchObject({ in_maintenance: false });
    expect(after.runs.map((run) => run.result_status_id)).toEqual([
      ACTION_RESULT_STATUSES.Suppressed,
      ACTION_RESULT_STATUSES.Success,
    ]);
    expect(await colorOf(named)).toBe(BLOCK_COLORS.Red);

    await post(cpuPacket(later, secondsAgo(10), 97));
    await work();
    const outside = await historyOfMatch(alertRule, later);
    expect(outside.match).toMatchObject({ in_maintenance: false });
    expect(outside.runs).toEqual([expect.objectContaining({ result_status_id: ACTION_RESULT_STATUSES.Success })]);
    expect(await colorOf(later)).toBe(BLOCK_COLORS.Red);
  });

  it('removes the rule when the change is canceled, and marks its draft communication Cancelled', async () => {
    const cr = await create(changeRequest({ relations: [{ referenceType: 'Block', referenceId: randomUUID() }] }));
    const approved = await approveBoth(cr);
    await work();
    expect(await rulesOf(cr.workUnitId)).toHaveLength(1);
    await patch('planner', approved, { stateId: WORK_UNIT_STATES.Canceled });
    await work();
    expect(await rulesOf(cr.workUnitId)).toEqual([]);
    expect(await communicationsOf(cr.workUnitId)).toEqual([
      expect.objectContaining({ status: 'Cancelled', next_update: null }),
    ]);
    expect((await maintenanceNotes(cr.workUnitId)).at(-1)).toMatch(
      /^Maintenance window removed: the change was canceled\./,
    );
    const audit = await portal.db
      .selectFrom('audit_event')
      .select(['action', 'actor_name'])
      .where('entity_type', '=', 'rule')
      .where(sql<boolean>`changes @> ${JSON.stringify({ reason: 'the change was canceled' })}::jsonb`)
      .execute();
    expect(audit).toEqual([{ action: 'delete', actor_name: MAINTENANCE_ACTOR }]);
  });

  it('opens nothing for a change approver 1 approved and approver 2 declined', async () => {
    const cr = await create(changeRequest({ relations: [{ referenceType: 'Block', referenceId: randomUUID() }] }));
    const first = await patch('operator', cr, { approved1By: 'operator@cfs.example' });
    await patch('admin', first, { declined2By: 'admin@cfs.example', decision2Notes: 'Not during the freeze' });
    await work();
    expect(await rulesOf(cr.workUnitId)).toEqual([]);
    expect(await communicationsOf(cr.workUnitId)).toEqual([]);
  });

  it('opens nothing with one approval only, or without a planned outage', async () => {
    const block = { referenceType: 'Block', referenceId: randomUUID() };
    const halfApproved = await create(changeRequest({ relations: [block] }));
    await patch('operator', halfApproved, { approved1By: 'operator@cfs.example' });
    const noOutage = await create(changeRequest({ plannedOutage: false, relations: [block] }));
    await approveBoth(noOutage);
    await work();
    for (const unit of [halfApproved, noOutage]) {
      expect(await rulesOf(unit.workUnitId)).toEqual([]);
      expect(await communicationsOf(unit.workUnitId)).toEqual([]);
      expect(await maintenanceNotes(unit.workUnitId)).toEqual([]);
    }
  });

  it('opens nothing for an approved planned outage naming no block or device, and says why on the change once', async () => {
    const cr = await create(changeRequest({ relations: [{ referenceType: 'WorkUnit', referenceId: '1' }] }));
    const approved = await approveBoth(cr);
    await work();
    await patch('planner', approved, { description: 'Still no subjects' });
    await work();
    expect(await rulesOf(cr.workUnitId)).toEqual([]);
    expect(await communicationsOf(cr.workUnitId)).toEqual([]);
    expect(await maintenanceNotes(cr.workUnitId)).toEqual([
      'No maintenance window was opened for this planned outage: the change names no block or device in its relations (relation type Block or Device with the block or device id).',
    ]);
  });

  it('opens nothing for planned times the rule engine would read as no bound (before 2022), and says why', async () => {
    const cr = await create(
      changeRequest({
        plannedStartTime: '2021-06-01T10:00:00.000Z',
        plannedFinishTime: '2021-06-01T12:00:00.000Z',
        relations: [{ referenceType: 'Block', referenceId: randomUUID() }],
      }),
    );
    await approveBoth(cr);
    await work();
    expect(await rulesOf(cr.workUnitId)).toEqual([]);
    expect(await maintenanceNotes(cr.workUnitId)).toEqual([
      'No maintenance window was opened for this planned outage: the change has no usable planned start and finish time (both from 1 Jan 2022 on, the finish not before the start).',
    ]);
  });

  it('removes the rule when the change stops naming any subject, leaving the draft communication as it is', async () => {
    const cr = await create(changeRequest({ relations: [{ referenceType: 'Block', referenceId: randomUUID() }] }));
    const approved = await approveBoth(cr);
    await work();
    expect(await rulesOf(cr.workUnitId)).toHaveLength(1);
    await patch('planner', approved, { relations: [] });
    await work();
    expect(await rulesOf(cr.workUnitId)).toEqual([]);
    expect(await communicationsOf(cr.workUnitId)).toEqual([expect.objectContaining({ status: 'Investigating' })]);
  });

  it('closes the window while a replaced approver has not approved, and opens it again on re-approval with the same draft communication', async () => {
    const cr = await create(changeRequest({ relations: [{ referenceType: 'Block', referenceId: randomUUID() }] }));
    const approved = await approveBoth(cr);
    await work();
    const [draft] = await communicationsOf(cr.workUnitId);
    const replaced = await patch('planner', approved, { approver2: 'operator2@cfs.example' });
    expect(replaced.approved2By).toBeNull();
    await work();
    expect(await rulesOf(cr.workUnitId)).toEqual([]);
    expect((await maintenanceNotes(cr.workUnitId)).at(-1)).toMatch(
      /^Maintenance window removed: the change is no longer approved by its approvers\./,
    );

    const back = await patch('planner', replaced, { approver2: 'admin@cfs.example' });
    await patch('admin', back, { approved2By: 'admin@cfs.example' });
    await work();
    expect(await rulesOf(cr.workUnitId)).toHaveLength(1);
    expect(await communicationsOf(cr.workUnitId)).toEqual([
      expect.objectContaining({
        work_unit_communication_id: draft!.work_unit_communication_id,
        status: 'Investigating',
      }),
    ]);
  });

  it('writes one rule and one communication when two workers process the same events at once', async () => {
    const second = await openSecondInstance(portal);
    try {
      const cr = await create(changeRequest({ relations: [{ referenceType: 'Block', referenceId: randomUUID() }] }));
      await approveBoth(cr);
      // Both read the cursor at once (one of them finds it busy), then both run the change's window, several times over.
      await Promise.all([readMaintenanceEvents(portal.db), readMaintenanceEvents(second.runtime.db)]);
      const outcomes = await Promise.all(
        [portal.db, second.runtime.db, portal.db, second.runtime.db].map((db) =>
          reconcileChangeWindow(db, cr.workUnitId),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === 'opened')).toHaveLength(1);
      await Promise.all([work(portal.db), work(second.runtime.db)]);
      expect(await rulesOf(cr.workUnitId)).toHaveLength(1);
      const communications = await communicationsOf(cr.workUnitId);
      expect(communications).toHaveLength(1);
      const links = await portal.db
        .selectFrom('work_unit_communication_work_unit')
        .select('work_unit_id')
        .where('work_unit_communication_id', '=', communications[0]!.work_unit_communication_id)
        .execute();
      expect(links).toHaveLength(1);
      expect(
        (await maintenanceNotes(cr.workUnitId)).filter((detail) => detail.startsWith('Maintenance window opened')),
      ).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
