import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_MAX_IDS, BULK_MESSAGES } from '@cfs/contracts/api';
import {
  HISTORY_TYPES,
  WORK_UNIT_MESSAGES,
  WORK_UNIT_STATES,
  WORK_UNIT_TYPES,
  type WorkUnit,
} from '@cfs/contracts/work-units';
import { DEMO } from '../src/db/demo-ids.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

async function create(user: string, overrides: Record<string, unknown> = {}): Promise<WorkUnit> {
  const body = {
    workUnitId: -1,
    title: 'Bulk incident',
    severityId: 2,
    stateId: WORK_UNIT_STATES.New,
    tenantId: DEMO.contoso,
    workUnitTypeId: WORK_UNIT_TYPES.Incident,
    ...overrides,
  };
  const response = await portal.as(user, { method: 'PUT', url: '/api/v1/workunits', payload: body });
  if (response.statusCode !== 200) throw new Error(`create: ${response.statusCode} ${response.body}`);
  return response.json<WorkUnit>();
}

async function acknowledge(unit: WorkUnit): Promise<void> {
  const response = await portal.as('operator', {
    method: 'POST',
    url: '/v1/workunits/bulk/state',
    payload: { workUnitIds: [unit.workUnitId], stateId: WORK_UNIT_STATES.Acknowledged },
  });
  expect(response.json()).toEqual({ succeeded: [unit.workUnitId], refused: [] });
}

const read = async (unit: WorkUnit) =>
  (await portal.as('operator', { method: 'GET', url: `/v1/workunits/${unit.workUnitId}` })).json<WorkUnit>();
const history = async (unit: WorkUnit) =>
  (
    await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits/GetWorkUnitHistoryRecords?workUnitId=${unit.workUnitId}`,
    })
  ).json<{ value: { detail: string; historyType: number | null }[] }>().value;

describe('bulk state change', () => {
  it('changes each unit the state rules allow and reports the refused ones with their reason, leaving the others changed', async () => {
    const fresh = await create('operator', { title: 'Still new' });
    const acknowledged = await create('operator', { title: 'Acknowledged one' });
    await acknowledge(acknowledged);

    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/state',
      payload: { workUnitIds: [acknowledged.workUnitId, fresh.workUnitId], stateId: WORK_UNIT_STATES.InProgress },
    });

    expect(response.statusCode).toBe(200);
    // A New unit may move only to New, Acknowledged or Canceled (spec 001 §4).
    expect(response.json()).toEqual({
      succeeded: [acknowledged.workUnitId],
      refused: [{ id: fresh.workUnitId, message: WORK_UNIT_MESSAGES.stateNotAllowed }],
    });
    expect((await read(acknowledged)).stateId).toBe(WORK_UNIT_STATES.InProgress);
    expect((await read(fresh)).stateId).toBe(WORK_UNIT_STATES.New);
  });

  it('writes the same history, events and audit as a single edit', async () => {
    const unit = await create('operator');
    await acknowledge(unit);
    const records = await history(unit);
    expect(
      records.some(
        (record) =>
          record.detail === 'State changed from New to Acknowledged.' &&
          record.historyType === HISTORY_TYPES.WorkUnitStateChange,
      ),
    ).toBe(true);
    const events = await portal.db
      .selectFrom('work_unit_event')
      .select(['event_type_id', 'to_state_id'])
      .where('work_unit_id', '=', unit.workUnitId)
      .execute();
    expect(events.some((event) => event.to_state_id === WORK_UNIT_STATES.Acknowledged)).toBe(true);
    const audit = await portal.db
      .selectFrom('audit_event')
      .select(['action', 'changes'])
      .where('entity_type', '=', 'workUnit')
      .where('entity_id', '=', String(unit.workUnitId))
      .where('action', '=', 'update')
      .execute();
    expect(audit).toHaveLength(1);
  });
});

describe('bulk assign', () => {
  it('assigns every selected unit and records the change on each', async () => {
    const units = [await create('operator'), await create('operator')];
    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/assign',
      payload: { workUnitIds: units.map((u) => u.workUnitId), assignedTo: 'operator@cfs.example' },
    });
    expect(response.json()).toEqual({ succeeded: units.map((u) => u.workUnitId), refused: [] });
    for (const unit of units) {
      expect((await read(unit)).assignedTo).toBe('operator@cfs.example');
      expect((await history(unit)).map((record) => record.detail)).toContain(
        "Assigned To changed from (empty) to 'operator@cfs.example'.",
      );
    }
  });

  it('refuses a unit its tenant rules refuse and still assigns the others', async () => {
    const good = await create('operator');
    const broken = await create('operator');
    // A unit whose category is another tenant's fails the category rule on any edit, as in the panel.
    const otherCategory = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/workunitcategories',
      payload: { tenantId: DEMO.fabrikam, name: 'Elsewhere', workUnitTypeId: WORK_UNIT_TYPES.Incident },
    });
    await portal.db
      .updateTable('work_unit')
      .set({ work_unit_category_id: otherCategory.json<{ workUnitCategoryId: number }>().workUnitCategoryId })
      .where('work_unit_id', '=', broken.workUnitId)
      .execute();

    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/assign',
      payload: { workUnitIds: [good.workUnitId, broken.workUnitId], assignedTo: 'operator@cfs.example' },
    });
    expect(response.json()).toEqual({
      succeeded: [good.workUnitId],
      refused: [{ id: broken.workUnitId, message: 'Please choose a category of the work unit’s tenant.' }],
    });
    expect((await read(good)).assignedTo).toBe('operator@cfs.example');
  });

  it('clears the assignee when none is given', async () => {
    const unit = await create('operator', { assignedTo: 'operator@cfs.example' });
    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/assign',
      payload: { workUnitIds: [unit.workUnitId], assignedTo: null },
    });
    expect(response.json()).toEqual({ succeeded: [unit.workUnitId], refused: [] });
    expect((await read(unit)).assignedTo).toBeNull();
  });
});

describe('bulk limits and scope', () => {
  it(`refuses more than ${BULK_MAX_IDS} ids with a 400 that says so, and an empty selection`, async () => {
    const ids = Array.from({ length: BULK_MAX_IDS + 1 }, (_, i) => i + 1);
    const tooMany = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/assign',
      payload: { workUnitIds: ids, assignedTo: 'x@cfs.example' },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ errors: Record<string, string[]> }>().errors.workUnitIds).toEqual([BULK_MESSAGES.tooManyIds]);
    const none = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/state',
      payload: { workUnitIds: [], stateId: WORK_UNIT_STATES.Canceled },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json<{ errors: Record<string, string[]> }>().errors.workUnitIds).toEqual([BULK_MESSAGES.idsRequired]);
  });

  it("answers 404 and changes nothing when a selection holds another tenant's unit", async () => {
    const own = await create('operator');
    const foreign = await create('operator2', { tenantId: DEMO.fabrikam });
    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/workunits/bulk/state',
      payload: { workUnitIds: [own.workUnitId, foreign.workUnitId], stateId: WORK_UNIT_STATES.Canceled },
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain(DEMO.fabrikam);
    expect((await read(own)).stateId).toBe(WORK_UNIT_STATES.New);
    const foreignNow = await portal.as('operator2', { method: 'GET', url: `/v1/workunits/${foreign.workUnitId}` });
    expect(foreignNow.json<WorkUnit>().stateId).toBe(WORK_UNIT_STATES.New);
  });

  it('is refused to a caller without the edit permission', async () => {
    const unit = await create('operator');
    const response = await portal.as('enduser', {
      method: 'POST',
      url: '/v1/workunits/bulk/assign',
      payload: { workUnitIds: [unit.workUnitId], assignedTo: null },
    });
    expect(response.statusCode).toBe(403);
  });
});
