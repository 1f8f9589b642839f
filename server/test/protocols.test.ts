import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { ACTION_RESULT_STATUSES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { HISTORY_TYPES, WORK_UNIT_EVENT_TYPES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { ActionFailure, registerBuiltInActions, type ActionRun } from '../src/engines/actions/run.js';
import { actionRunTask } from '../src/engines/actions/runner.js';
import { startJobWorker } from '../src/engines/jobs/worker.js';
import { followWorkUnitEvents, sweepServiceLevels } from '../src/engines/servicelevels/timers.js';
import {
  enqueueProtocolTimers,
  protocolRunNoteTask,
  protocolStepsTask,
  readProtocolEvents,
} from '../src/engines/protocols/tasks.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
const stamp = () => Math.random().toString(36).slice(2, 8);
/** What the test actions did, in order: `{step}:{workUnitId}`. */
const ran: string[] = [];
let recorder = '';
let failing = '';
let unanswered = '';

beforeAll(async () => {
  portal = await createTestPortal();
  const all = scoped(portal.db, ALL_TENANTS);
  const define = async (name: string, typeId: number, tenantId: string | null, inputParameters: string | null) =>
    (
      await all
        .insertInto('action_definition', {
          tenant_id: tenantId,
          name,
          action_definition_type_id: typeId,
          input_parameters: inputParameters,
        })
        .returning('action_definition_id')
        .executeTakeFirstOrThrow()
    ).action_definition_id;
  recorder = await define(`Record ${stamp()}`, 2, null, 'Step,Note');
  failing = await define(`Fail ${stamp()}`, 2, null, 'Step');
  unanswered = await define(`Unanswered ${stamp()}`, 2, null, 'Step');
  // Test built-ins: one records the order it ran in, the other fails as an action that cannot run does.
  registerBuiltInActions({
    [recorder]: (_db, run: ActionRun) => {
      const workUnitId = run.origin.kind === 'protocol' ? run.origin.workUnitId : 0;
      ran.push(`${run.parameters.Step ?? '?'}:${workUnitId}`);
      return Promise.resolve({
        status: ACTION_RESULT_STATUSES.Success,
        detail: `Recorded ${run.parameters.Step ?? '?'}${run.parameters.Note ? ` (${run.parameters.Note})` : ''}.`,
      });
    },
    [failing]: () => Promise.reject(new ActionFailure('The endpoint refused.')),
    // An endpoint that never answers: the run may succeed later, so the job is tried again.
    [unanswered]: () => Promise.reject(new Error('The endpoint did not answer.')),
  });
});
afterAll(async () => {
  await portal?.close();
});

async function createProtocol(user: string, body: Record<string, unknown>) {
  const response = await portal.as(user, { method: 'PUT', url: '/v1/protocols', payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ protocolId: number; tenantId: string | null; timerInverval: string }>();
}

async function addStep(user: string, body: Record<string, unknown>) {
  const response = await portal.as(user, {
    method: 'PUT',
    url: '/v1/protocolActions',
    payload: { actionDefinitionId: recorder, workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew, ...body },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ protocolActionId: string; parameters: Record<string, string> }>();
}

async function createUnit(protocolId: number, stateId: number = WORK_UNIT_STATES.New) {
  const response = await portal.as('operator', {
    method: 'PUT',
    url: '/api/v1/workunits',
    payload: {
      workUnitId: -1,
      title: `Protocol ${stamp()}`,
      severityId: 2,
      stateId,
      tenantId: DEMO.contoso,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
      protocolId,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ workUnitId: number }>().workUnitId;
}

const notesOf = (workUnitId: number) =>
  scoped(portal.db, ALL_TENANTS)
    .selectFrom('work_unit_note')
    .select(['detail', 'history_type'])
    .where('work_unit_id', '=', workUnitId)
    .where('history_type', 'in', [HISTORY_TYPES.ProtocolActionActivity, HISTORY_TYPES.ProtocolActionFailure])
    .orderBy('work_unit_note_id')
    .execute();

/**
 * Reads the events through the engine's cursor until the unit's steps job is there: the cursor
 * reads only events older than every running transaction, and other databases of the server may
 * hold one open for a moment.
 */
async function readEventsOf(workUnitId: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await readProtocolEvents(portal.db);
    const job = await portal.db
      .selectFrom('job')
      .select('job_id')
      .where('task', '=', protocolStepsTask.name)
      .where('payload', '@>', JSON.stringify({ workUnitId }))
      .executeTakeFirst();
    if (job || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the protocol jobs due now on one worker until none is left. */
async function drainJobs(workers = 1) {
  const tasks = [protocolStepsTask, actionRunTask, protocolRunNoteTask];
  const started = Array.from({ length: workers }, () =>
    startJobWorker({ db: portal.db, tasks, pollMs: 10, log: () => undefined }),
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    // Jobs due within a few seconds count too: a run's note waits for its run.
    const open = await portal.db
      .selectFrom('job')
      .select('job_id')
      .where(
        'task',
        'in',
        tasks.map((task) => task.name),
      )
      .where('state', 'in', ['pending', 'running'])
      .where('run_at', '<=', new Date(Date.now() + 5000))
      .execute();
    if (open.length === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await Promise.all(started.map((worker) => worker.stop()));
}

describe('protocols', () => {
  it('creates, reads, lists by name with its tenant, updates and deletes a protocol; units keep existing without it', async () => {
    const name = `A protocol ${stamp()}`;
    const created = await createProtocol('operator', { name, description: 'Escalation', tenantId: DEMO.contoso });
    expect(created.timerInverval).toBe('00:10:00');
    const listed = await portal.as('operator', {
      method: 'GET',
      url: `/v1/protocols?$expand=tenant&$count=true&$filter=${encodeURIComponent(`contains(name,'${name}')`)}`,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ value: { name: string; tenant: { name: string } }[] }>().value).toEqual([
      expect.objectContaining({ name, tenant: expect.objectContaining({ name: expect.any(String) }) }),
    ]);
    const updated = await portal.as('operator', {
      method: 'POST',
      url: `/v1/protocols/${created.protocolId}`,
      payload: { name: `${name} v2`, tenantId: DEMO.contoso, timerInverval: '01:30:00' },
    });
    expect(updated.json()).toMatchObject({ name: `${name} v2`, timerInverval: '01:30:00' });
    const unit = await createUnit(created.protocolId);
    // The work units list finds a protocol's units (the address's protocolId, spec 001 §2).
    const following = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits?$filter=${encodeURIComponent(`protocolId eq ${created.protocolId}`)}`,
    });
    expect(following.statusCode, following.body).toBe(200);
    expect(following.json<{ value: { workUnitId: number; protocolId: number }[] }>().value).toEqual([
      expect.objectContaining({ workUnitId: unit, protocolId: created.protocolId }),
    ]);
    const audit = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('audit_event')
      .select('action')
      .where('entity_type', '=', 'protocol')
      .where('entity_id', '=', String(created.protocolId))
      .execute();
    expect(audit.map((row) => row.action).sort()).toEqual(['create', 'update']);
    const deleted = await portal.as('operator', { method: 'DELETE', url: `/v1/protocols/${created.protocolId}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/protocols/${created.protocolId}` })).statusCode,
    ).toBe(404);
    const kept = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('work_unit')
      .select('protocol_id')
      .where('work_unit_id', '=', unit)
      .executeTakeFirstOrThrow();
    expect(kept.protocol_id).toBeNull();
  });

  it.each([
    [{ name: '' }, AUTOMATION_MESSAGES.nameRequired],
    [{ name: 'x', timerInverval: '' }, AUTOMATION_MESSAGES.timerRequired],
    [{ name: 'x', timerInverval: '5 minutes' }, AUTOMATION_MESSAGES.timerFormat],
    [{ name: 'x', timerInverval: '00:09:59' }, AUTOMATION_MESSAGES.timerMinimum],
  ])('refuses %j with "%s"', async (body, message) => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/protocols',
      payload: { tenantId: DEMO.contoso, ...body },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
  });

  it("keeps a tenant's protocols from other tenants, and a shared protocol to users of all tenants", async () => {
    const contoso = await createProtocol('operator', { name: `Contoso only ${stamp()}`, tenantId: DEMO.contoso });
    expect(
      (await portal.as('operator2', { method: 'GET', url: `/v1/protocols/${contoso.protocolId}` })).statusCode,
    ).toBe(404);
    expect(
      (
        await portal.as('operator2', {
          method: 'POST',
          url: `/v1/protocols/${contoso.protocolId}`,
          payload: { name: 'Taken', tenantId: DEMO.fabrikam },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await portal.as('operator2', { method: 'DELETE', url: `/v1/protocols/${contoso.protocolId}` })).statusCode,
    ).toBe(404);
    const listed = await portal.as('operator2', { method: 'GET', url: '/v1/protocols?$top=100' });
    expect(listed.json<{ value: { protocolId: number }[] }>().value.map((row) => row.protocolId)).not.toContain(
      contoso.protocolId,
    );
    const shared = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/protocols',
      payload: { name: 'Shared', tenantId: null },
    });
    expect(shared.statusCode).toBe(403);
    expect(shared.body).toContain(AUTOMATION_MESSAGES.tenantlessRefused);
    const byAdmin = await createProtocol('admin', { name: `Shared ${stamp()}`, tenantId: null });
    const lookup = await portal.as('operator2', {
      method: 'GET',
      url: `/v1/protocols?$top=100&$filter=${encodeURIComponent(`tenantId eq ${DEMO.fabrikam} or tenantId eq null`)}`,
    });
    expect(lookup.json<{ value: { protocolId: number }[] }>().value.map((row) => row.protocolId)).toContain(
      byAdmin.protocolId,
    );
  });

  it("moves a protocol's steps to its new tenant, and refuses the move while a step runs the old tenant's own action", async () => {
    const protocol = await createProtocol('admin', { name: `Moving ${stamp()}`, tenantId: DEMO.contoso });
    await addStep('admin', { protocolId: protocol.protocolId, parameters: { Step: 'shared' } });
    const moved = await portal.as('admin', {
      method: 'POST',
      url: `/v1/protocols/${protocol.protocolId}`,
      payload: { name: 'Moved', tenantId: DEMO.fabrikam },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const tenants = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('protocol_action')
      .select('tenant_id')
      .where('protocol_id', '=', protocol.protocolId)
      .execute();
    expect(tenants).toEqual([{ tenant_id: DEMO.fabrikam }]);
    const own = (
      await scoped(portal.db, ALL_TENANTS)
        .insertInto('action_definition', {
          tenant_id: DEMO.fabrikam,
          name: `Fabrikam own ${stamp()}`,
          action_definition_type_id: 2,
        })
        .returning('action_definition_id')
        .executeTakeFirstOrThrow()
    ).action_definition_id;
    await addStep('admin', { protocolId: protocol.protocolId, actionDefinitionId: own });
    const back = await portal.as('admin', {
      method: 'POST',
      url: `/v1/protocols/${protocol.protocolId}`,
      payload: { name: 'Moved back', tenantId: DEMO.contoso },
    });
    expect(back.statusCode).toBe(400);
    expect(back.body).toContain(AUTOMATION_MESSAGES.protocolOfOtherTenant);
    expect(
      (await portal.as('admin', { method: 'GET', url: `/v1/protocols/${protocol.protocolId}` })).json(),
    ).toMatchObject({ name: 'Moved', tenantId: DEMO.fabrikam });
  });

  it('lists the rules that create units following the protocol (Assigned Rules)', async () => {
    const protocol = await createProtocol('operator', { name: `Assigned ${stamp()}`, tenantId: DEMO.contoso });
    const rule = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/rules',
      payload: {
        name: `Opens ${stamp()}`,
        ruleTypeId: 1,
        tenantId: DEMO.contoso,
        matchLifetime: '00:05:00',
        conditions: [{ Type: 0, LeftOperand: 1, Operator: 1, RightOperand: 'x' }],
        matchActions: [
          {
            ActionDefinitionId: BUILT_IN_ACTIONS.createWorkUnit.id,
            Parameters: { SeverityId: '1', ProtocolId: String(protocol.protocolId) },
          },
        ],
      },
    });
    expect(rule.statusCode, rule.body).toBe(200);
    const matched = await portal.as('operator', {
      method: 'GET',
      url: `/v1/protocols/GetMatchedRules(id=${protocol.protocolId})`,
    });
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json()).toEqual({
      value: [
        { ruleId: rule.json<{ ruleId: string }>().ruleId, name: expect.stringContaining('Opens'), enabled: true },
      ],
      count: 1,
    });
    const step = await addStep('operator', { protocolId: protocol.protocolId });
    const forAction = await portal.as('operator', {
      method: 'GET',
      url: `/v1/protocols/GetProtocolsForAction(actionDefinitionId=${recorder})`,
    });
    expect(forAction.json<{ protocolId: number }[]>()).toContainEqual({
      protocolId: protocol.protocolId,
      name: expect.any(String),
    });
    expect(step.protocolActionId).toBeTruthy();
  });
});

describe('protocol actions', () => {
  it('keeps only the parameters the action names, and lists the steps by event and sequence with their action', async () => {
    const protocol = await createProtocol('operator', { name: `Steps ${stamp()}`, tenantId: DEMO.contoso });
    const step = await addStep('operator', {
      protocolId: protocol.protocolId,
      parameters: { Step: 'one', Note: 'n', Stray: 'dropped' },
      sequence: 2,
    });
    expect(step.parameters).toEqual({ Step: 'one', Note: 'n' });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'zero' }, sequence: 1 });
    await addStep('operator', {
      protocolId: protocol.protocolId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnAcknowledged,
      parameters: { Step: 'ack' },
      sequence: 0,
    });
    const listed = await portal.as('operator', {
      method: 'GET',
      url: `/v1/protocolActions?$filter=protocolId eq ${protocol.protocolId}&$expand=actionDefinition`,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = listed.json<{ value: { parameters: { Step: string }; actionDefinition: { name: string } }[] }>().value;
    expect(rows.map((row) => row.parameters.Step)).toEqual(['zero', 'one', 'ack']);
    expect(rows[0]?.actionDefinition.name).toContain('Record');
    const updated = await portal.as('operator', {
      method: 'POST',
      url: `/v1/protocolActions/${step.protocolActionId}`,
      payload: {
        protocolId: protocol.protocolId,
        actionDefinitionId: recorder,
        workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
        parameters: { Step: 'uno', Other: 'x' },
      },
    });
    expect(updated.json()).toMatchObject({ parameters: { Step: 'uno' } });
    expect(
      (await portal.as('operator2', { method: 'DELETE', url: `/v1/protocolActions/${step.protocolActionId}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await portal.as('operator', { method: 'DELETE', url: `/v1/protocolActions/${step.protocolActionId}` }))
        .statusCode,
    ).toBe(200);
  });

  it("takes a step's parameters as an object or its JSON text (the spec's), refusing other text or an unknown field", async () => {
    const protocol = await createProtocol('operator', { name: `Text ${stamp()}`, tenantId: DEMO.contoso });
    const asText = await addStep('operator', {
      protocolId: protocol.protocolId,
      parameters: JSON.stringify({ Step: 'text', Note: 7, Stray: 'dropped' }),
    });
    expect(asText.parameters).toEqual({ Step: 'text', Note: '7' });
    const updated = await portal.as('operator', {
      method: 'POST',
      url: `/v1/protocolActions/${asText.protocolActionId}`,
      payload: {
        protocolId: protocol.protocolId,
        actionDefinitionId: recorder,
        workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
        parameters: '',
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ parameters: {} });
    for (const parameters of ['{not json', '["Step"]', '{"Step":{"deep":1}}']) {
      const refused = await portal.as('operator', {
        method: 'PUT',
        url: '/v1/protocolActions',
        payload: { protocolId: protocol.protocolId, actionDefinitionId: recorder, workUnitEventTypeId: 1, parameters },
      });
      expect(refused.statusCode, parameters).toBe(400);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors.parameters).toEqual([
        'parameters must be a JSON object of names and values.',
      ]);
    }
    const unknown = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/protocolActions',
      payload: {
        protocolId: protocol.protocolId,
        actionDefinitionId: recorder,
        workUnitEventTypeId: 1,
        runAutomaticaly: false,
      },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ errors: { runAutomaticaly: ['Unknown field "runAutomaticaly".'] } });
  });

  it("offers the tenant's and the shared actions of a protocol type in the action picker", async () => {
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/actionDefinitions/GetActionDefinitionsForProtocols(tenantId=${DEMO.contoso})`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const ids = response.json<{ actionDefinitionId: string }[]>().map((row) => row.actionDefinitionId);
    expect(ids).toEqual(expect.arrayContaining([recorder, BUILT_IN_ACTIONS.sendEmail.id]));
    expect(ids).not.toContain(BUILT_IN_ACTIONS.setColor.id);
    expect(
      (
        await portal.as('operator', {
          method: 'GET',
          url: `/v1/actionDefinitions/GetActionDefinitionsForProtocols(tenantId=${DEMO.fabrikam})`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it("refuses a step without event or action, with a rule-only action, or with another tenant's action", async () => {
    const protocol = await createProtocol('operator', { name: `Refusals ${stamp()}`, tenantId: DEMO.contoso });
    const put = (body: Record<string, unknown>) =>
      portal.as('operator', {
        method: 'PUT',
        url: '/v1/protocolActions',
        payload: { protocolId: protocol.protocolId, ...body },
      });
    const noEvent = await put({ actionDefinitionId: recorder });
    expect(noEvent.statusCode).toBe(400);
    expect(noEvent.body).toContain(AUTOMATION_MESSAGES.eventRequired);
    const noAction = await put({ workUnitEventTypeId: 1 });
    expect(noAction.statusCode).toBe(400);
    expect(noAction.body).toContain(AUTOMATION_MESSAGES.actionRequired);
    const ruleOnly = await put({ workUnitEventTypeId: 1, actionDefinitionId: BUILT_IN_ACTIONS.setColor.id });
    expect(ruleOnly.statusCode).toBe(400);
    expect(ruleOnly.body).toContain(AUTOMATION_MESSAGES.actionNotForProtocols);
    const fabrikamAction = (
      await scoped(portal.db, ALL_TENANTS)
        .insertInto('action_definition', {
          tenant_id: DEMO.fabrikam,
          name: `Fabrikam ${stamp()}`,
          action_definition_type_id: 2,
        })
        .returning('action_definition_id')
        .executeTakeFirstOrThrow()
    ).action_definition_id;
    const asAdmin = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/protocolActions',
      payload: { protocolId: protocol.protocolId, workUnitEventTypeId: 1, actionDefinitionId: fabrikamAction },
    });
    expect(asAdmin.statusCode).toBe(400);
    expect(asAdmin.body).toContain(AUTOMATION_MESSAGES.protocolOfOtherTenant);
    const count = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('protocol_action')
      .select('protocol_action_id')
      .where('protocol_id', '=', protocol.protocolId)
      .execute();
    expect(count).toEqual([]);
  });
});

describe('the protocol engine', () => {
  it('runs the automatic OnNew steps in sequence order, writes one note per step, and runs them once however often the job runs', async () => {
    const protocol = await createProtocol('operator', { name: `Sequence ${stamp()}`, tenantId: DEMO.contoso });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'third' }, sequence: 30 });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'first' }, sequence: 10 });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'second' }, sequence: 20 });
    await addStep('operator', {
      protocolId: protocol.protocolId,
      parameters: { Step: 'manual' },
      sequence: 5,
      runAutomatically: false,
    });
    await addStep('operator', {
      protocolId: protocol.protocolId,
      parameters: { Step: 'later' },
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnResolved,
    });
    const unit = await createUnit(protocol.protocolId);
    await readEventsOf(unit);
    await drainJobs();
    expect(ran.filter((entry) => entry.endsWith(`:${unit}`))).toEqual([
      `first:${unit}`,
      `second:${unit}`,
      `third:${unit}`,
    ]);
    // The job again (a worker that died after the work): nothing runs twice, no note is written twice.
    await portal.db
      .updateTable('job')
      .set({ state: 'pending', attempts: 0 })
      .where('task', '=', protocolStepsTask.name)
      .where('payload', '@>', JSON.stringify({ workUnitId: unit }))
      .execute();
    await drainJobs();
    expect(ran.filter((entry) => entry.endsWith(`:${unit}`))).toHaveLength(3);
    const notes = await notesOf(unit);
    expect(notes.map((note) => note.history_type)).toEqual([3, 3, 3]);
    expect(notes[0]?.detail).toMatch(/^Protocol action "Record .*" ran: Recorded first\./);
  });

  it('acts on the service level events: a step on the response warning and one on its breach run when the sweep finds them, and the unit’s timeline tells both', async () => {
    const protocol = await createProtocol('operator', { name: `Breach ${stamp()}`, tenantId: DEMO.contoso });
    await addStep('operator', {
      protocolId: protocol.protocolId,
      parameters: { Step: 'warned' },
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnResponseWarning,
    });
    await addStep('operator', {
      protocolId: protocol.protocolId,
      parameters: { Step: 'breached' },
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnResponseBreach,
    });
    const unit = await createUnit(protocol.protocolId);
    // The service level engine starts the unit's clocks from its events (a Sev2 answered within 4 hours).
    await vi.waitFor(
      async () => {
        await followWorkUnitEvents(portal.db);
        const clocks = await portal.db
          .selectFrom('service_level_timer')
          .select('kind')
          .where('work_unit_id', '=', unit)
          .execute();
        expect(clocks).toHaveLength(2);
      },
      { timeout: 10_000, interval: 100 },
    );
    await sweepServiceLevels(portal.db, new Date(Date.now() + 5 * 3_600_000));
    // The engine's cursor reads the sweep's events once no older transaction is open: read and run until both ran.
    await vi.waitFor(
      async () => {
        await readProtocolEvents(portal.db);
        await drainJobs();
        // Each event's steps are a job of their own: both run, in either order.
        expect(ran.filter((entry) => entry.endsWith(`:${unit}`)).sort()).toEqual([
          `breached:${unit}`,
          `warned:${unit}`,
        ]);
      },
      { timeout: 20_000, interval: 200 },
    );

    const timeline = await portal.as('operator', { method: 'GET', url: `/v1/workunits/${unit}/timeline` });
    expect(timeline.statusCode, timeline.body).toBe(200);
    const titles = timeline.json<{ entries: { title: string }[] }>().entries.map((entry) => entry.title);
    // The sweep ran well after the due time: the record says when the breach happened.
    expect(titles.some((title) => title.startsWith('Response target of 4 hours breached.'))).toBe(true);
    expect(titles.some((title) => /^Protocol action "Record .*" ran: Recorded breached\./.test(title))).toBe(true);
  });

  it('stops the later steps of an event at a failed step and notes the failure', async () => {
    const protocol = await createProtocol('operator', { name: `Failure ${stamp()}`, tenantId: DEMO.contoso });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'before' }, sequence: 1 });
    await addStep('operator', {
      protocolId: protocol.protocolId,
      actionDefinitionId: failing,
      parameters: { Step: 'boom' },
      sequence: 2,
    });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'after' }, sequence: 3 });
    const unit = await createUnit(protocol.protocolId);
    await readEventsOf(unit);
    await drainJobs();
    expect(ran.filter((entry) => entry.endsWith(`:${unit}`))).toEqual([`before:${unit}`]);
    const notes = await notesOf(unit);
    expect(notes.map((note) => note.history_type)).toEqual([
      HISTORY_TYPES.ProtocolActionActivity,
      HISTORY_TYPES.ProtocolActionFailure,
    ]);
    expect(notes[1]?.detail).toContain('The endpoint refused.; the 1 later step(s) of this event did not run');
  });

  it('records the step that never answered as a Failure and notes it once the job has used its attempts', async () => {
    const protocol = await createProtocol('operator', { name: `Unanswered ${stamp()}`, tenantId: DEMO.contoso });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'fine' }, sequence: 1 });
    const silent = await addStep('operator', {
      protocolId: protocol.protocolId,
      actionDefinitionId: unanswered,
      parameters: { Step: 'silent' },
      sequence: 2,
    });
    await addStep('operator', { protocolId: protocol.protocolId, parameters: { Step: 'never' }, sequence: 3 });
    const unit = await createUnit(protocol.protocolId);
    await readEventsOf(unit);
    const job = await portal.db
      .selectFrom('job')
      .select(['job_id', 'key', 'payload'])
      .where('task', '=', protocolStepsTask.name)
      .where('payload', '@>', JSON.stringify({ workUnitId: unit }))
      .executeTakeFirstOrThrow();
    const payload = protocolStepsTask.payload.parse(job.payload);
    const context = { db: portal.db, jobId: Number(job.job_id), key: job.key, attempt: protocolStepsTask.attempts };
    await expect(protocolStepsTask.perform(payload, context)).rejects.toThrow('The endpoint did not answer.');
    expect(await notesOf(unit)).toHaveLength(1);
    await protocolStepsTask.onFailed?.(payload, new Error('The endpoint did not answer.'), context);
    const history = await portal.db
      .selectFrom('action_history')
      .select(['result_status_id', 'result_detail'])
      .where('protocol_action_id', '=', silent.protocolActionId)
      .execute();
    expect(history).toEqual([
      {
        result_status_id: ACTION_RESULT_STATUSES.Failure,
        result_detail: 'Gave up after the last attempt: The endpoint did not answer.',
      },
    ]);
    const notes = await notesOf(unit);
    expect(notes.map((note) => note.history_type)).toEqual([
      HISTORY_TYPES.ProtocolActionActivity,
      HISTORY_TYPES.ProtocolActionFailure,
    ]);
    expect(notes[1]?.detail).toContain('the 1 later step(s) of this event did not run');
    expect(ran.filter((entry) => entry.endsWith(`:${unit}`))).toEqual([`fine:${unit}`]);
  });

  it("fires each open unit's OnTimer steps once per interval across two workers", async () => {
    const protocol = await createProtocol('operator', { name: `Timer ${stamp()}`, tenantId: DEMO.contoso });
    await addStep('operator', {
      protocolId: protocol.protocolId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnTimer,
      parameters: { Step: 'tick' },
    });
    const open = [await createUnit(protocol.protocolId), await createUnit(protocol.protocolId)];
    const closed = await createUnit(protocol.protocolId);
    await scoped(portal.db, ALL_TENANTS)
      .updateTable('work_unit')
      .set({ state_id: WORK_UNIT_STATES.Closed })
      .where('work_unit_id', '=', closed)
      .execute();
    const start = new Date(Math.ceil(Date.now() / 600_000) * 600_000 + 600_000);
    // Two sweeps in one period (as two workers would) and one in the next.
    const [a, b] = await Promise.all([
      enqueueProtocolTimers(portal.db, new Date(start.getTime() + 1000)),
      enqueueProtocolTimers(portal.db, new Date(start.getTime() + 2000)),
    ]);
    expect((a ?? 0) + (b ?? 0)).toBe(2);
    await portal.db.updateTable('job').set({ run_at: new Date() }).where('task', '=', protocolStepsTask.name).execute();
    await drainJobs(2);
    expect(ran.filter((entry) => entry.startsWith('tick:')).sort()).toEqual(open.map((id) => `tick:${id}`).sort());
    expect(await enqueueProtocolTimers(portal.db, new Date(start.getTime() + 599_000))).toBe(0);
    expect(await enqueueProtocolTimers(portal.db, new Date(start.getTime() + 600_000))).toBe(2);
    await drainJobs(2);
    expect(ran.filter((entry) => entry.startsWith('tick:'))).toHaveLength(4);
  });
});

describe('manual actions', () => {
  async function manualSetup(repeatable: boolean) {
    const protocol = await createProtocol('operator', { name: `Manual ${stamp()}`, tenantId: DEMO.contoso });
    const step = await addStep('operator', {
      protocolId: protocol.protocolId,
      parameters: { Step: 'hand', Note: 'default' },
      runAutomatically: false,
      repeatable,
    });
    const ack = await addStep('operator', {
      protocolId: protocol.protocolId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnAcknowledged,
      parameters: { Step: 'ack' },
      runAutomatically: false,
    });
    const unit = await createUnit(protocol.protocolId);
    return { protocol, step, ack, unit };
  }
  const trigger = (unit: number, step: string, payload: Record<string, unknown>, user = 'operator') =>
    portal.as(user, { method: 'POST', url: `/v1/workunits/${unit}/protocolActions/${step}/trigger`, payload });

  it('lists the manual steps of the current state, or all of them, with their last run', async () => {
    const { step, ack, unit } = await manualSetup(false);
    const current = await portal.as('operator', { method: 'GET', url: `/v1/workunits/${unit}/manualActions` });
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json()).toEqual([
      expect.objectContaining({
        protocolActionId: step.protocolActionId,
        lastRun: null,
        actionDefinition: expect.objectContaining({ inputParameters: 'Step,Note' }),
      }),
    ]);
    const all = await portal.as('operator', { method: 'GET', url: `/v1/workunits/${unit}/manualActions?scope=all` });
    expect(all.json<{ protocolActionId: string }[]>().map((row) => row.protocolActionId)).toEqual([
      step.protocolActionId,
      ack.protocolActionId,
    ]);
    expect(
      (await portal.as('operator2', { method: 'GET', url: `/v1/workunits/${unit}/manualActions` })).statusCode,
    ).toBe(404);
  });

  it("runs a step once with the user's values (first payload form), refuses it again, and refuses a step not pending", async () => {
    const { step, ack, unit } = await manualSetup(false);
    const first = await trigger(unit, step.protocolActionId, {
      workUnitEventType: WORK_UNIT_EVENT_TYPES.OnNew,
      userDefinedParams: { Note: 'typed', Stray: 'x' },
      reject: false,
    });
    expect(first.statusCode, first.body).toBe(202);
    const key = first.json<{ id: string }>().id;
    const job = await portal.db
      .selectFrom('job')
      .select('payload')
      .where('task', '=', actionRunTask.name)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(job.payload).toMatchObject({
      parameters: { Step: 'hand', Note: 'typed' },
      origin: { manual: true, triggeredBy: 'operator' },
    });
    expect(JSON.stringify(job.payload)).not.toContain('Stray');
    const again = await trigger(unit, step.protocolActionId, { reject: false });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(AUTOMATION_MESSAGES.alreadyRun);
    const notPending = await trigger(unit, ack.protocolActionId, { reject: false });
    expect(notPending.statusCode).toBe(400);
    expect(notPending.body).toContain(AUTOMATION_MESSAGES.notPending);
    await drainJobs();
    expect(ran).toContain(`hand:${unit}`);
    const listed = await portal.as('operator', { method: 'GET', url: `/v1/workunits/${unit}/manualActions` });
    expect(listed.json<{ lastRun: { resultStatusId: number; rejected: boolean } }[]>()[0]?.lastRun).toMatchObject({
      resultStatusId: ACTION_RESULT_STATUSES.Success,
      rejected: false,
    });
    const notes = (await notesOf(unit)).map((note) => note.detail);
    expect(notes).toContainEqual(expect.stringContaining('triggered by operator'));
    expect(notes).toContainEqual(expect.stringMatching(/^Protocol action "Record .*" ran: Recorded hand \(typed\)\./));
  });

  it('runs a repeatable step again (second payload form, parameters as JSON text) and rejects a step in one transaction', async () => {
    const { step, unit } = await manualSetup(true);
    const body = {
      workUnitId: unit,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
      protocolActionId: step.protocolActionId,
      userDefinedParams: '{"Note":"json"}',
      reject: false,
    };
    const one = await trigger(unit, step.protocolActionId, body);
    const two = await trigger(unit, step.protocolActionId, body);
    expect([one.statusCode, two.statusCode]).toEqual([202, 202]);
    expect(one.json<{ id: string }>().id).not.toBe(two.json<{ id: string }>().id);
    const bad = await trigger(unit, step.protocolActionId, { ...body, userDefinedParams: '{not json' });
    expect(bad.statusCode).toBe(400);
    const rejected = await trigger(unit, step.protocolActionId, { ...body, reject: true });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const history = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('action_history')
      .select(['result_status_id', 'result_detail'])
      .where('job_key', '=', rejected.json<{ id: string }>().id)
      .executeTakeFirstOrThrow();
    expect(history).toEqual({
      result_status_id: ACTION_RESULT_STATUSES.Suppressed,
      result_detail: 'Rejected by operator.',
    });
    const listed = await portal.as('operator', { method: 'GET', url: `/v1/workunits/${unit}/manualActions` });
    expect(listed.json<{ lastRun: { rejected: boolean } }[]>()[0]?.lastRun?.rejected).toBe(true);
    expect((await notesOf(unit)).map((note) => note.detail)).toContainEqual(
      expect.stringContaining('rejected by operator'),
    );
    expect((await trigger(unit, step.protocolActionId, { reject: false }, 'operator2')).statusCode).toBe(404);
  });

  it('refuses to run or reject a step that is not repeatable once it was rejected', async () => {
    const { step, unit } = await manualSetup(false);
    expect((await trigger(unit, step.protocolActionId, { reject: true })).statusCode).toBe(200);
    const again = await trigger(unit, step.protocolActionId, { reject: false });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(AUTOMATION_MESSAGES.alreadyRun);
  });
});
