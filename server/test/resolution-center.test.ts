import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RESOLUTION_CENTER_MESSAGES,
  SEVERITIES,
  WORK_UNIT_MESSAGES,
  WORK_UNIT_STATES,
  WORK_UNIT_TYPES,
  type WorkUnit,
} from '@cfs/contracts/work-units';
import { BASE_ROLES } from '../src/db/seed.js';
import { DEMO } from '../src/db/demo-ids.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { actionRunSchema } from '../src/engines/actions/run.js';
import { runAction } from '../src/engines/actions/runner.js';
import { createCategoryAs, createStaffedTenant, createSubcategoryAs, createUserIn, unique } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
  // A second end user of Contoso: the two must not see each other's requests.
  const role = await portal.db
    .selectFrom('app_role')
    .select('role_id')
    .where('name', '=', 'EndUser')
    .executeTakeFirstOrThrow();
  const other = await portal.db
    .insertInto('app_user')
    .values({
      user_name: 'enduser2',
      display_name: 'Eli Enduser',
      email: 'enduser2@cfs.example',
      tenant_id: DEMO.contoso,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  await portal.db.insertInto('user_role').values({ user_id: other.user_id, role_id: role.role_id }).execute();
  await portal.db.insertInto('user_tenant').values({ user_id: other.user_id, tenant_id: DEMO.contoso }).execute();
});
afterAll(async () => {
  await portal?.close();
});

const request = (overrides: Record<string, unknown> = {}) => ({
  title: 'My laptop does not start',
  description: 'The screen stays black after the logo.',
  stakeHolderPhoneNumber: '+1 425 555 0100',
  ...overrides,
});

async function file(user: string, overrides: Record<string, unknown> = {}): Promise<WorkUnit> {
  const response = await portal.as(user, { method: 'PUT', url: '/api/v1/rc/workunits', payload: request(overrides) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<WorkUnit>();
}

/** A severity 1 incident of Contoso that staff open on the work units page, not through the Resolution Center. */
const fileStaffIncident = (fields: Record<string, unknown> = {}) =>
  portal.as('operator', {
    method: 'PUT',
    url: '/api/v1/workunits',
    payload: {
      workUnitId: -1,
      title: 'Staff incident',
      severityId: 1,
      stateId: 1,
      tenantId: DEMO.contoso,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
      ...fields,
    },
  });

/** An end user of `tenantId` with a display name of its own: the requester a request names. */
async function createEndUser(tenantId: string) {
  const requester = { userName: `requester-${unique()}`, displayName: `Requester ${unique()}` };
  await createUserIn(portal, requester.userName, BASE_ROLES.EndUser?.permissions ?? [], tenantId, {
    displayName: requester.displayName,
  });
  return requester;
}

async function list(user: string, query = ''): Promise<{ '@odata.count'?: number; value: WorkUnit[] }> {
  const response = await portal.as(user, { method: 'GET', url: `/v1/workunits/rc?$count=true${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function categories(user: string, tenantId: string) {
  const response = await portal.as(user, { method: 'GET', url: `/v1/workunits/rc/categories?tenantId=${tenantId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{
    value: {
      workUnitCategoryId: number;
      name: string;
      subcategories: { workUnitSubcategoryId: number; name: string }[];
    }[];
  }>().value;
}

describe('Resolution Center (spec 001 §2, §5, §7, §8)', () => {
  it('files a request as a Sev3 New Incident of the requester’s tenant with the requester as stakeholder', async () => {
    const requester = await createEndUser(DEMO.contoso);
    const unit = await file(requester.userName);
    expect(unit).toMatchObject({
      title: 'My laptop does not start',
      description: 'The screen stays black after the logo.',
      severityId: SEVERITIES.Sev3,
      stateId: WORK_UNIT_STATES.New,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
      tenantId: DEMO.contoso,
      stakeHolderFullName: requester.displayName,
      stakeHolderEmailAddress: `${requester.userName}@cfs.example`,
      stakeHolderPhoneNumber: '+1 425 555 0100',
      createdBy: requester.userName,
    });
  });

  it('answers each missing field with the spec’s message and writes nothing', async () => {
    const before = await portal.db
      .selectFrom('work_unit')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: '' }, 'title', RESOLUTION_CENTER_MESSAGES.titleRequired],
      [{ title: undefined }, 'title', RESOLUTION_CENTER_MESSAGES.titleRequired],
      [{ description: '  ' }, 'description', RESOLUTION_CENTER_MESSAGES.descriptionRequired],
      [{ description: 'x'.repeat(4001) }, 'description', RESOLUTION_CENTER_MESSAGES.descriptionTooLong],
      [{ stakeHolderPhoneNumber: '' }, 'stakeHolderPhoneNumber', RESOLUTION_CENTER_MESSAGES.phoneRequired],
      [{ stakeHolderPhoneNumber: 'call me' }, 'stakeHolderPhoneNumber', WORK_UNIT_MESSAGES.phoneInvalid],
    ];
    for (const [overrides, field, message] of cases) {
      const response = await portal.as('enduser', {
        method: 'PUT',
        url: '/api/v1/rc/workunits',
        payload: request(overrides),
      });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(JSON.stringify(response.json()), field).toContain(message);
    }
    const after = await portal.db
      .selectFrom('work_unit')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('takes a description of exactly 4000 characters', async () => {
    expect((await file('enduser', { description: 'y'.repeat(4000) })).description).toHaveLength(4000);
  });

  /**
   * A tenant of its own whose end user is offered what is made here: two incident categories shown in
   * the Resolution Center (one with three needs), one hidden there, and one shown but of another type.
   */
  async function rcTenant() {
    const tenant = await createStaffedTenant(portal, { permissions: BASE_ROLES.EndUser?.permissions ?? [] });
    const category = (name: string, body: Record<string, unknown> = {}) =>
      createCategoryAs(portal, 'admin', tenant.tenantId, { name, isVisibleInResolutionCenter: true, ...body });
    const devices = await category('Devices');
    await category('Applications');
    const hidden = await category('Server room', { isVisibleInResolutionCenter: false });
    await category('Accounts', { workUnitTypeId: WORK_UNIT_TYPES.Intake });
    for (const name of ['Printers', 'Laptops', 'Phones'])
      await createSubcategoryAs(portal, 'admin', devices.workUnitCategoryId, { name });
    return { ...tenant, hidden };
  }

  it('offers as Service and Need the incident categories shown in the Resolution Center, and files with them', async () => {
    const tenant = await rcTenant();
    const offered = await categories(tenant.userName, tenant.tenantId);
    expect(offered.map((c) => c.name)).toEqual(['Applications', 'Devices']);
    const devices = offered.find((c) => c.name === 'Devices')!;
    expect(devices.subcategories.map((s) => s.name)).toEqual(['Laptops', 'Phones', 'Printers']);
    const laptops = devices.subcategories.find((s) => s.name === 'Laptops')!;
    const unit = await file(tenant.userName, {
      workUnitCategoryId: devices.workUnitCategoryId,
      workUnitSubcategoryId: laptops.workUnitSubcategoryId,
    });
    expect(unit).toMatchObject({
      tenantId: tenant.tenantId,
      workUnitCategoryId: devices.workUnitCategoryId,
      workUnitSubcategoryId: laptops.workUnitSubcategoryId,
    });
  });

  it('refuses a Service not shown in the Resolution Center, a Need of another Service, and another tenant’s', async () => {
    const tenant = await rcTenant();
    const offered = await categories(tenant.userName, tenant.tenantId);
    const [applications, devices] = [offered[0]!, offered[1]!];
    await createSubcategoryAs(portal, 'admin', applications.workUnitCategoryId, { name: 'Email' });
    const applicationNeeds = (await categories(tenant.userName, tenant.tenantId))[0]!.subcategories;
    const fabrikam = await createCategoryAs(portal, 'operator2', DEMO.fabrikam, { isVisibleInResolutionCenter: true });
    for (const overrides of [
      { workUnitCategoryId: tenant.hidden.workUnitCategoryId },
      {
        workUnitCategoryId: devices.workUnitCategoryId,
        workUnitSubcategoryId: applicationNeeds[0]!.workUnitSubcategoryId,
      },
      { workUnitCategoryId: fabrikam.workUnitCategoryId },
      { workUnitSubcategoryId: devices.subcategories[0]!.workUnitSubcategoryId },
    ]) {
      const response = await portal.as(tenant.userName, {
        method: 'PUT',
        url: '/api/v1/rc/workunits',
        payload: request(overrides),
      });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
    }
    // Another tenant's categories are not listed to an end user of this one.
    expect(
      (
        await portal.as(tenant.userName, {
          method: 'GET',
          url: `/v1/workunits/rc/categories?tenantId=${DEMO.fabrikam}`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses filing for another tenant', async () => {
    const response = await portal.as('enduser', {
      method: 'PUT',
      url: '/api/v1/rc/workunits',
      payload: request({ tenantId: DEMO.fabrikam }),
    });
    expect(response.statusCode).toBe(400);
  });

  it('lists an end user’s own requests only, newest first, with Active/Done states', async () => {
    const first = await file('enduser', { title: 'First of mine' });
    const second = await file('enduser', { title: 'Second of mine' });
    const theirs = await file('enduser2', { title: 'Not mine' });
    const staffs = await fileStaffIncident();
    expect(staffs.statusCode).toBe(200);
    const mine = await list('enduser');
    const ids = mine.value.map((u) => u.workUnitId);
    expect(ids).toContain(first.workUnitId);
    expect(ids).not.toContain(theirs.workUnitId);
    expect(ids).not.toContain(staffs.json<WorkUnit>().workUnitId);
    expect(
      mine.value.every((u) => u.createdBy === 'enduser' || u.stakeHolderEmailAddress === 'enduser@cfs.example'),
    ).toBe(true);
    expect(ids.indexOf(second.workUnitId)).toBeLessThan(ids.indexOf(first.workUnitId));
    // Staff see every incident of their tenants; the other tenant's operator none of Contoso's.
    const staff = (await list('operator', '&$top=100')).value.map((u) => u.workUnitId);
    expect(staff).toEqual(expect.arrayContaining([first.workUnitId, theirs.workUnitId]));
    const fabrikam = (await list('operator2', '&$top=100')).value;
    expect(fabrikam.every((u) => u.tenantId === DEMO.fabrikam)).toBe(true);
  });

  it('shows an end user the external notes of their own request only, and takes their call back request', async () => {
    const requester = await createEndUser(DEMO.contoso);
    const mine = await file(requester.userName);
    const theirs = await file('enduser2');
    const note = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitnotes',
      payload: { workUnitId: mine.workUnitId, detail: 'A technician is on the way.', isExternalNote: true },
    });
    expect(note.statusCode).toBe(200);
    await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitnotes',
      payload: { workUnitId: mine.workUnitId, detail: 'Internal only.', isExternalNote: false },
    });
    const notes = await portal.as(requester.userName, {
      method: 'GET',
      url: `/v1/workunits/rc/${mine.workUnitId}/externalNotes`,
    });
    expect(notes.statusCode).toBe(200);
    const details = notes.json<{ value: { detail: string }[] }>().value.map((n) => n.detail);
    expect(details).toContain('A technician is on the way.');
    expect(details).not.toContain('Internal only.');
    expect(
      (
        await portal.as(requester.userName, {
          method: 'GET',
          url: `/v1/workunits/rc/${theirs.workUnitId}/externalNotes`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await portal.as('operator2', { method: 'GET', url: `/v1/workunits/rc/${mine.workUnitId}/externalNotes` }))
        .statusCode,
    ).toBe(404);
    const callMe = await portal.as(requester.userName, {
      method: 'POST',
      url: `/v1/workunitnotes/callme/${mine.workUnitId}`,
    });
    expect(callMe.statusCode).toBe(200);
    expect(callMe.json<{ detail: string }>().detail).toBe(
      `${requester.displayName} asked to be called back at +1 425 555 0100.`,
    );
    expect(
      (await portal.as(requester.userName, { method: 'POST', url: `/v1/workunitnotes/callme/${theirs.workUnitId}` }))
        .statusCode,
    ).toBe(404);
  });

  it('keeps the staff work unit routes closed to an end user', async () => {
    const mine = await file('enduser');
    expect((await portal.as('enduser', { method: 'GET', url: '/v1/workunits' })).statusCode).toBe(403);
    expect((await portal.as('enduser', { method: 'GET', url: `/v1/workunits/${mine.workUnitId}` })).statusCode).toBe(
      403,
    );
    expect(
      (
        await portal.as('enduser', {
          method: 'PUT',
          url: '/api/v1/workunits',
          payload: { workUnitId: -1, title: 'x', severityId: 0, stateId: 1, tenantId: DEMO.contoso, workUnitTypeId: 1 },
        })
      ).statusCode,
    ).toBe(403);
  });

  describe('emails to the requester', () => {
    const jobsOf = (workUnitId: number) =>
      portal.db
        .selectFrom('job')
        .select(['key', 'payload'])
        .where('task', '=', 'actions.run')
        .where('key', 'like', `resolutioncenter:%:${workUnitId}`)
        .orderBy('job_id')
        .execute();
    /** Runs a job as the worker would: the real action runner and the Send Email built-in. */
    async function runJob(job: { key: string; payload: unknown }) {
      await runAction(
        portal.db,
        actionRunSchema.parse(typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload),
        job.key,
      );
    }
    const outboxOf = (workUnitId: number) =>
      scoped(portal.db, ALL_TENANTS)
        .selectFrom('email_outbox')
        .select(['template', 'to_addresses', 'subject'])
        .where('work_unit_id', '=', workUnitId)
        .orderBy('email_id')
        .execute();
    const patchState = (workUnitId: number, stateId: number) =>
      portal.as('operator', {
        method: 'PATCH',
        url: `/v1/workunits/${workUnitId}`,
        payload: [{ op: 'replace', path: '/stateId', value: stateId }],
      });

    it('sends ResolutionCenterCreated when a request is filed and ResolutionCenterResolved once when it is resolved', async () => {
      const unit = await file('enduser', { title: 'Email me about it' });
      const created = await jobsOf(unit.workUnitId);
      expect(created.map((job) => job.key)).toEqual([`resolutioncenter:ResolutionCenterCreated:${unit.workUnitId}`]);
      await runJob(created[0]!);
      expect(await outboxOf(unit.workUnitId)).toEqual([
        {
          template: 'ResolutionCenterCreated',
          to_addresses: 'enduser@cfs.example',
          subject: 'We received your request: Email me about it',
        },
      ]);

      // Staff work on it: only reaching Resolved tells the requester, and only the first time.
      for (const state of [WORK_UNIT_STATES.Acknowledged, WORK_UNIT_STATES.InProgress])
        expect((await patchState(unit.workUnitId, state)).statusCode).toBe(200);
      expect(await jobsOf(unit.workUnitId)).toHaveLength(1);
      const resolved = await patchState(unit.workUnitId, WORK_UNIT_STATES.Resolved);
      expect(resolved.statusCode, resolved.body).toBe(200);
      const jobs = await jobsOf(unit.workUnitId);
      expect(jobs.map((job) => job.key)).toEqual([
        `resolutioncenter:ResolutionCenterCreated:${unit.workUnitId}`,
        `resolutioncenter:ResolutionCenterResolved:${unit.workUnitId}`,
      ]);
      await runJob(jobs[1]!);
      await runJob(jobs[1]!); // a worker that died after sending runs the job again: nothing more is sent
      expect(
        (await outboxOf(unit.workUnitId)).map((email) => [email.template, email.to_addresses, email.subject]),
      ).toEqual([
        ['ResolutionCenterCreated', 'enduser@cfs.example', 'We received your request: Email me about it'],
        ['ResolutionCenterResolved', 'enduser@cfs.example', 'Your request has been resolved: Email me about it'],
      ]);
      // Reopened and resolved again: no second email.
      expect((await patchState(unit.workUnitId, WORK_UNIT_STATES.InProgress)).statusCode).toBe(200);
      expect((await patchState(unit.workUnitId, WORK_UNIT_STATES.Resolved)).statusCode).toBe(200);
      expect(await jobsOf(unit.workUnitId)).toHaveLength(2);
    });

    it('sends nothing for a request that was refused, nor for a staff incident resolved', async () => {
      const before = await portal.db
        .selectFrom('job')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('key', 'like', 'resolutioncenter:%')
        .executeTakeFirstOrThrow();
      expect(
        (await portal.as('enduser', { method: 'PUT', url: '/api/v1/rc/workunits', payload: request({ title: '' }) }))
          .statusCode,
      ).toBe(400);
      const staff = await fileStaffIncident({ stakeHolderEmailAddress: 'enduser@cfs.example' });
      const staffId = staff.json<WorkUnit>().workUnitId;
      for (const state of [WORK_UNIT_STATES.Acknowledged, WORK_UNIT_STATES.InProgress, WORK_UNIT_STATES.Resolved])
        expect((await patchState(staffId, state)).statusCode).toBe(200);
      const after = await portal.db
        .selectFrom('job')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('key', 'like', 'resolutioncenter:%')
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });
  });
});
