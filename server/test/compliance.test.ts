import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTROL_STATUS_MESSAGES,
  complianceWeek,
  weekStart,
  type ControlSet,
  type ControlStatus,
} from '@cfs/contracts/compliance';
import { WORK_UNIT_STATES } from '@cfs/contracts/work-units';
import { poamTask } from '../src/areas/compliance/poam.js';
import { DEMO } from '../src/db/demo-ids.js';
import { createStaffedTenant, unique } from './factories.js';
import { auditTrail, createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
let low: ControlSet;
let moderate: ControlSet;
beforeAll(async () => {
  portal = await createTestPortal();
  const sets = (await portal.as('operator', { method: 'GET', url: '/v1/controlsets' })).json<{ value: ControlSet[] }>()
    .value;
  low = sets.find((set) => set.name === 'NIST SP 800-53 Rev. 5 Low baseline')!;
  moderate = sets.find((set) => set.name === 'NIST SP 800-53 Rev. 5 Moderate baseline')!;
});
afterAll(async () => {
  await portal?.close();
});

const control = (set: ControlSet, name: string) => {
  const found = set.controls.find((c) => c.name === name);
  if (!found) throw new Error(`no control ${name}`);
  return found.id;
};
const create = (user: string, payload: Record<string, unknown>) =>
  portal.as(user, { method: 'POST', url: '/v1/controlstatuses', payload });
const patch = (user: string, id: string, payload: unknown[]) =>
  portal.as(user, {
    method: 'PATCH',
    url: `/v1/controlstatuses/${id}`,
    payload,
    headers: { 'content-type': 'application/json-patch+json' },
  });
const remove = (user: string, id: string) => portal.as(user, { method: 'DELETE', url: `/v1/controlstatuses/${id}` });
const week = async (user: string, tenantId: string, checkDate: string, controlSetId = moderate.id) => {
  const response = await portal.as(user, {
    method: 'GET',
    url: `/v1/controlsets?tenantId=${tenantId}&checkDate=${encodeURIComponent(checkDate)}&controlSetId=${controlSetId}`,
  });
  expect(response.statusCode).toBe(200);
  const [set] = response.json<{ value: ControlSet[] }>().value;
  return new Map(set!.controls.filter((c) => c.controlStatuses.length > 0).map((c) => [c.name, c.controlStatuses[0]!]));
};

/** Runs the POA&M checks the writes so far enqueued, as the worker would (twice each: a worker may die after the work). */
async function runPoamJobs(): Promise<void> {
  const jobs = await portal.db
    .selectFrom('job')
    .select(['job_id', 'payload', 'key'])
    .where('task', '=', poamTask.name)
    .where('state', '=', 'pending')
    .orderBy('job_id')
    .execute();
  for (const job of jobs) {
    const payload = poamTask.payload.parse(job.payload);
    for (let attempt = 1; attempt <= 2; attempt++)
      await poamTask.perform(payload, { db: portal.db, jobId: Number(job.job_id), key: job.key, attempt });
    await portal.db.updateTable('job').set({ state: 'done' }).where('job_id', '=', job.job_id).execute();
  }
}

describe('control sets', () => {
  it('ships the NIST SP 800-53 Rev. 5 Low and Moderate baselines to every installation, with their source, controls in catalogue order', () => {
    expect(low.controls).toHaveLength(149);
    expect(moderate.controls).toHaveLength(287);
    expect(low.tenantId).toBeNull();
    expect(moderate.source).toContain('NIST Special Publication 800-53 Revision 5.1.1');
    expect(moderate.controls.slice(0, 3).map((c) => c.name)).toEqual(['AC-1', 'AC-2', 'AC-2(1)']);
    expect(moderate.controls[0]).toMatchObject({
      family: 'Access Control',
      title: 'Policy and Procedures',
      sortOrder: 1,
      controlStatuses: [],
    });
    expect(moderate.controls[0]!.description).toMatch(/^a\. Develop, document, and disseminate/);
  });

  it('seeds the baselines once however often the portal starts', async () => {
    const { seed } = await import('../src/db/seed.js');
    await seed(portal.db, { demo: false, localUsers: false });
    const sets = await portal.db
      .selectFrom('control_set')
      .select('name')
      .where('tenant_id', 'is', null)
      .where('name', 'like', 'NIST SP 800-53%')
      .execute();
    expect(sets).toHaveLength(2);
    const controls = await portal.db
      .selectFrom('control')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('control_set_id', '=', moderate.id)
      .executeTakeFirstOrThrow();
    expect(Number(controls.n)).toBe(287);
  });
});

describe('the compliance week', () => {
  it('is a calendar week from Sunday to Saturday, the same across a daylight-saving change', () => {
    expect(weekStart('2026-03-08')).toBe('2026-03-08');
    expect(weekStart('2026-03-14')).toBe('2026-03-08');
    expect(weekStart('2026-03-15')).toBe('2026-03-15');
    expect(complianceWeek('2026-11-04')).toEqual({ start: '2026-11-01', end: '2026-11-07' });
    expect(complianceWeek('2026-10-31')).toEqual({ start: '2026-10-25', end: '2026-10-31' });
    // The date as the user's calendar shows it, whatever the offset it was written with.
    expect(weekStart('2026-03-08T00:00:00-05:00')).toBe('2026-03-08');
    expect(weekStart('2026-03-08T00:00:00+14:00')).toBe('2026-03-08');
    expect(weekStart('2026-11-07T23:30:00-04:00')).toBe('2026-11-01');
  });

  it('stores a record under its week’s first day and finds it from any day of that week, not from the next (US DST start, 2026-03-08)', async () => {
    const id = control(moderate, 'AC-3');
    const created = await create('operator', {
      checkDate: '2026-03-11',
      status: 'Compliant',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json<ControlStatus>()).toMatchObject({ checkDate: '2026-03-08', status: 'Compliant', notes: '' });
    expect((await week('operator', DEMO.contoso, '2026-03-08')).get('AC-3')?.status).toBe('Compliant');
    expect((await week('operator', DEMO.contoso, '2026-03-14T23:59:00-04:00')).get('AC-3')?.status).toBe('Compliant');
    expect((await week('operator', DEMO.contoso, '2026-03-15')).has('AC-3')).toBe(false);
    expect((await week('operator', DEMO.contoso, '2026-03-07')).has('AC-3')).toBe(false);
  });

  it('US DST end (2026-11-01): Saturday 2026-11-07 is still the week of 2026-11-01', async () => {
    const id = control(moderate, 'AC-4');
    const created = await create('operator', {
      checkDate: '2026-11-07',
      status: 'Exempt',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    expect(created.json<ControlStatus>().checkDate).toBe('2026-11-01');
    expect((await week('operator', DEMO.contoso, '2026-11-01')).get('AC-4')?.status).toBe('Exempt');
    expect((await week('operator', DEMO.contoso, '2026-10-31')).has('AC-4')).toBe(false);
  });

  it('refuses a date that is not one with a 400, never a 500', async () => {
    for (const checkDate of ['2026-02-30', 'next week', '', '2026-13-01']) {
      const response = await create('operator', {
        checkDate,
        status: 'Compliant',
        tenantId: DEMO.contoso,
        controlId: control(moderate, 'AC-5'),
      });
      expect(response.statusCode, checkDate).toBe(400);
      expect(response.json().errors.checkDate).toEqual(['Please enter a valid date (YYYY-MM-DD).']);
    }
    const read = await portal.as('operator', {
      method: 'GET',
      url: `/v1/controlsets?tenantId=${DEMO.contoso}&checkDate=2026-02-31`,
    });
    expect(read.statusCode).toBe(400);
  });
});

describe('control status transitions (spec 002 §4)', () => {
  it('choosing a status creates a record with empty notes; choosing another updates it; deselecting deletes it', async () => {
    const id = control(moderate, 'AC-6');
    const created = await create('operator', {
      checkDate: '2026-01-04',
      status: 'NonCompliant',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    expect(created.statusCode).toBe(200);
    const status = created.json<ControlStatus>();
    expect(status).toMatchObject({
      status: 'NonCompliant',
      notes: '',
      tenantId: DEMO.contoso,
      controlId: id,
      createdBy: 'operator',
    });

    const updated = await patch('operator', status.id, [
      { op: 'test', path: '/status', value: 'NonCompliant' },
      { op: 'replace', path: '/status', value: 'Poam' },
    ]);
    expect(updated.statusCode).toBe(200);
    expect(updated.json<ControlStatus>().status).toBe('Poam');

    const noted = await patch('operator', status.id, [
      { op: 'replace', path: '/notes', value: 'Plan filed with the ISSO.' },
    ]);
    expect(noted.json<ControlStatus>()).toMatchObject({ status: 'Poam', notes: 'Plan filed with the ISSO.' });
    expect((await week('operator', DEMO.contoso, '2026-01-04')).get('AC-6')).toMatchObject({
      id: status.id,
      status: 'Poam',
      notes: 'Plan filed with the ISSO.',
    });

    const deleted = await remove('operator', status.id);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Control Status successfully deleted.' });
    expect((await week('operator', DEMO.contoso, '2026-01-04')).has('AC-6')).toBe(false);
    const audit = await auditTrail(portal.db, 'controlStatus', status.id);
    expect(audit.map((row) => row.action)).toEqual(['create', 'update', 'update', 'delete']);
  });

  it('a note where no record exists creates one with status Notset; changing it updates the note', async () => {
    const id = control(moderate, 'AC-7');
    const created = await create('operator', {
      checkDate: '2026-01-04',
      notes: 'Lockout after 3 tries, checked.',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json<ControlStatus>()).toMatchObject({ status: 'Notset', notes: 'Lockout after 3 tries, checked.' });
    const updated = await patch('operator', created.json<ControlStatus>().id, [
      { op: 'replace', path: '/notes', value: 'Lockout after 5 tries.' },
    ]);
    expect(updated.json<ControlStatus>()).toMatchObject({ status: 'Notset', notes: 'Lockout after 5 tries.' });
  });

  it('the spec’s messages are the contract’s, verbatim (typos kept)', () => {
    expect(Object.values(CONTROL_STATUS_MESSAGES)).toEqual([
      'Control status creation failed.',
      'Control status sucessfully created.',
      'Control status updated failed.',
      'Control status sucessfully updated.',
      'Control note creation failed.',
      'Control note successfully created.',
      'Control note update failed.',
      'Control note successfully updated.',
      'Control Status successfully deleted.',
      'Control Status deletion failed.',
      'Are you sure you want to delete this Control Status?',
    ]);
  });

  it('answers a failed create with "Control status creation failed." (a second record for the week) or "Control note creation failed." (a note), writing nothing', async () => {
    const id = control(moderate, 'AC-8');
    expect(
      (
        await create('operator', {
          checkDate: '2026-01-11',
          status: 'Compliant',
          tenantId: DEMO.contoso,
          controlId: id,
        })
      ).statusCode,
    ).toBe(200);
    const again = await create('operator', {
      checkDate: '2026-01-13',
      status: 'Exempt',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'Control status creation failed.',
      errors: { controlId: ['This control has a status for this week already.'] },
    });
    const note = await create('operator', {
      checkDate: '2026-01-11',
      notes: 'again',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    expect(note.statusCode).toBe(409);
    expect(note.json().message).toBe('Control note creation failed.');
    expect((await week('operator', DEMO.contoso, '2026-01-11')).get('AC-8')).toMatchObject({
      status: 'Compliant',
      notes: '',
    });
    const unknown = await create('operator', {
      checkDate: '2026-01-11',
      status: 'Compliant',
      tenantId: DEMO.contoso,
      controlId: crypto.randomUUID(),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      message: 'Control status creation failed.',
      errors: { controlId: ['The control was not found in the control sets of this tenant.'] },
    });
  });

  it('answers a failed update with "Control status updated failed." or "Control note update failed.", and a stale test with 409', async () => {
    const id = control(moderate, 'AC-11');
    const status = (
      await create('operator', { checkDate: '2026-01-11', status: 'Compliant', tenantId: DEMO.contoso, controlId: id })
    ).json<ControlStatus>();
    const badStatus = await patch('operator', status.id, [{ op: 'replace', path: '/status', value: 'Green' }]);
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json()).toMatchObject({
      message: 'Control status updated failed.',
      errors: { status: ['Status must be one of Compliant, NonCompliant, Poam, Exempt, Notset.'] },
    });
    const longNote = await patch('operator', status.id, [{ op: 'replace', path: '/notes', value: 'x'.repeat(4001) }]);
    expect(longNote.statusCode).toBe(400);
    expect(longNote.json()).toMatchObject({
      message: 'Control note update failed.',
      errors: { notes: ['Notes are at most 4000 characters.'] },
    });
    const moved = await patch('operator', status.id, [{ op: 'replace', path: '/checkDate', value: '2026-01-18' }]);
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({
      message: 'Control status updated failed.',
      errors: { checkDate: ["'/checkDate' cannot be changed."] },
    });
    const stale = await patch('operator', status.id, [
      { op: 'test', path: '/status', value: 'NonCompliant' },
      { op: 'replace', path: '/status', value: 'Exempt' },
    ]);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('The value at "/status" is not equal to the test value');
    const notPatch = await portal.as('operator', {
      method: 'PATCH',
      url: `/v1/controlstatuses/${status.id}`,
      payload: { status: 'Exempt' },
    });
    expect(notPatch.statusCode).toBe(400);
    expect((await week('operator', DEMO.contoso, '2026-01-11')).get('AC-11')?.status).toBe('Compliant');
  });

  it('answers a failed delete with "Control Status deletion failed."', async () => {
    const missing = await remove('operator', crypto.randomUUID());
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Control Status deletion failed.');
    expect((await remove('operator', 'not-a-guid')).statusCode).toBe(400);
  });

  it('refuses bad input with 400s naming the field', async () => {
    const response = await create('operator', {
      checkDate: '2026-01-11',
      status: 'Done',
      tenantId: 'contoso',
      controlId: 7,
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors).sort()).toEqual(['controlId', 'status', 'tenantId']);
    expect((await create('operator', {})).statusCode).toBe(400);
  });
});

describe('tenant isolation and permissions', () => {
  it('another tenant’s status is not there: 404 to read through its tenant, patch or delete; each tenant sees only its own', async () => {
    const id = control(moderate, 'AC-12');
    const contoso = (
      await create('operator', {
        checkDate: '2026-02-01',
        status: 'NonCompliant',
        notes: 'contoso only',
        tenantId: DEMO.contoso,
        controlId: id,
      })
    ).json<ControlStatus>();
    const fabrikam = (
      await create('operator2', { checkDate: '2026-02-01', status: 'Exempt', tenantId: DEMO.fabrikam, controlId: id })
    ).json<ControlStatus>();
    expect(
      (await patch('operator2', contoso.id, [{ op: 'replace', path: '/status', value: 'Compliant' }])).statusCode,
    ).toBe(404);
    expect((await remove('operator2', contoso.id)).statusCode).toBe(404);
    expect(
      (
        await portal.as('operator2', {
          method: 'GET',
          url: `/v1/controlsets?tenantId=${DEMO.contoso}&checkDate=2026-02-01`,
        })
      ).statusCode,
    ).toBe(404);
    const written = await create('operator2', {
      checkDate: '2026-02-08',
      status: 'Compliant',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    expect(written.statusCode).toBe(404);
    expect(written.json().message).toBe('Control status creation failed.');
    expect((await week('operator', DEMO.contoso, '2026-02-01')).get('AC-12')).toMatchObject({
      id: contoso.id,
      status: 'NonCompliant',
    });
    expect((await week('operator2', DEMO.fabrikam, '2026-02-01')).get('AC-12')).toMatchObject({
      id: fabrikam.id,
      status: 'Exempt',
    });
    const exported = await portal.as('operator2', {
      method: 'POST',
      url: '/v1/controlsets/Export()',
      payload: { startDate: '2026-02-01', tenantId: DEMO.contoso },
    });
    expect(exported.statusCode).toBe(404);
    expect(exported.body).not.toContain('contoso only');
  });

  it('answers 403 to a user without the Compliance permission for each route', async () => {
    const id = control(moderate, 'AC-14');
    const calls = [
      { method: 'GET', url: '/v1/controlsets' },
      {
        method: 'POST',
        url: '/v1/controlstatuses',
        payload: { checkDate: '2026-02-01', status: 'Compliant', tenantId: DEMO.contoso, controlId: id },
      },
      { method: 'PATCH', url: `/v1/controlstatuses/${crypto.randomUUID()}`, payload: [] },
      { method: 'DELETE', url: `/v1/controlstatuses/${crypto.randomUUID()}` },
      { method: 'POST', url: '/v1/controlsets/Export()', payload: { startDate: '2026-02-01', tenantId: DEMO.contoso } },
      {
        method: 'POST',
        url: '/v1/controlstatuses/copyLastWeek',
        payload: { controlSetId: moderate.id, tenantId: DEMO.contoso, checkDate: '2026-02-01' },
      },
      { method: 'PUT', url: '/v1/controlsets', payload: { name: 'x', controls: [] } },
    ] as const;
    for (const call of calls)
      expect((await portal.as('enduser', call)).statusCode, `${call.method} ${call.url}`).toBe(403);
  });
});

describe('export', () => {
  it('answers the week as CSV named by its first day, every control of the set with its status and notes, formulas made text', async () => {
    const ids = ['AC-17', 'AC-18', 'AC-19', 'AC-20', 'AC-22'].map((name) => control(low, name));
    const notes = ['=HYPERLINK("http://evil.example")', '+1+1', '-2', '@SUM(A1)', '\tcmd'];
    for (const [index, controlId] of ids.entries()) {
      expect(
        (
          await create('operator', {
            checkDate: '2026-04-07',
            status: index === 0 ? 'Poam' : 'Compliant',
            notes: notes[index],
            tenantId: DEMO.contoso,
            controlId,
          })
        ).statusCode,
      ).toBe(200);
    }
    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/controlsets/Export()',
      payload: { startDate: '2026-04-09', tenantId: DEMO.contoso, controlSetId: low.id },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="compliance-2026-04-05.csv"');
    const lines = response.body.trim().split('\n');
    expect(lines[0]).toBe('Control Set,Family,Control,Title,Status,Notes,Week Start,Week End,Modified,Modified By');
    expect(lines).toHaveLength(150);
    expect(lines[1]).toBe(
      'NIST SP 800-53 Rev. 5 Low baseline,Access Control,AC-1,Policy and Procedures,,,2026-04-05,2026-04-11,,',
    );
    const row = (name: string) => lines.find((line) => line.includes(`,${name},`))!;
    expect(row('AC-17')).toContain(`Remote Access,Poam,"'=HYPERLINK(""http://evil.example"")",2026-04-05,2026-04-11,`);
    expect(row('AC-18')).toContain(",Compliant,'+1+1,");
    expect(row('AC-19')).toContain(",Compliant,'-2,");
    expect(row('AC-20')).toContain(",Compliant,'@SUM(A1),");
    expect(row('AC-22')).toContain(`,Compliant,'\tcmd,`);
    expect(row('AC-22')).toMatch(/,operator$/);
  });

  it('without a set, exports every set the tenant uses; a bad body is a 400', async () => {
    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/controlsets/Export',
      payload: { startDate: '2026-04-05', tenantId: DEMO.contoso },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body.trim().split('\n').length).toBeGreaterThanOrEqual(1 + 149 + 287);
    expect(
      (
        await portal.as('operator', {
          method: 'POST',
          url: '/v1/controlsets/Export()',
          payload: { startDate: 'soon', tenantId: DEMO.contoso },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('copy last week', () => {
  it('starts the week from last week’s statuses and notes, never over a record made this week, across the DST change', async () => {
    const [a, b, c] = ['AU-2', 'AU-3', 'AU-4'].map((name) => control(moderate, name)) as [string, string, string];
    await create('operator', {
      checkDate: '2026-03-01',
      status: 'Compliant',
      notes: 'log review ok',
      tenantId: DEMO.contoso,
      controlId: a,
    });
    await create('operator', {
      checkDate: '2026-03-01',
      status: 'Exempt',
      notes: 'n/a',
      tenantId: DEMO.contoso,
      controlId: b,
    });
    await create('operator', { checkDate: '2026-03-01', status: 'Poam', tenantId: DEMO.contoso, controlId: c });
    await create('operator', {
      checkDate: '2026-03-08',
      status: 'Compliant',
      notes: 'checked again',
      tenantId: DEMO.contoso,
      controlId: c,
    });
    // Another tenant's last week is not copied into Contoso's.
    await create('operator2', {
      checkDate: '2026-03-01',
      status: 'NonCompliant',
      tenantId: DEMO.fabrikam,
      controlId: control(moderate, 'AU-5'),
    });

    const copy = () =>
      portal.as('operator', {
        method: 'POST',
        url: '/v1/controlstatuses/copyLastWeek',
        payload: { controlSetId: moderate.id, tenantId: DEMO.contoso, checkDate: '2026-03-10' },
      });
    const first = await copy();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ copied: 2, message: 'Copied 2 control statuses from last week.' });
    const statuses = await week('operator', DEMO.contoso, '2026-03-08');
    expect(statuses.get('AU-2')).toMatchObject({
      status: 'Compliant',
      notes: 'log review ok',
      checkDate: '2026-03-08',
    });
    expect(statuses.get('AU-3')).toMatchObject({ status: 'Exempt', notes: 'n/a' });
    expect(statuses.get('AU-4')).toMatchObject({ status: 'Compliant', notes: 'checked again' });
    expect(statuses.has('AU-5')).toBe(false);
    expect((await copy()).json()).toEqual({
      copied: 0,
      message: 'Last week has no control statuses to copy for the controls without one this week.',
    });
    const other = await portal.as('operator2', {
      method: 'POST',
      url: '/v1/controlstatuses/copyLastWeek',
      payload: { controlSetId: moderate.id, tenantId: DEMO.contoso, checkDate: '2026-03-10' },
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('uploading a control set', () => {
  it('adds a tenant’s own set in the shipped shape, seen by that tenant only', async () => {
    const name = `Internal controls ${unique()}`;
    const file = {
      name,
      source: 'Contoso security office',
      controls: [
        { id: 'CIC-1', family: 'Backups', title: 'Nightly backup', description: 'Back up every server nightly.' },
        { id: 'CIC-2', family: 'Backups', title: 'Restore test', description: 'Test a restore every quarter.' },
      ],
    };
    const response = await portal.as('operator', {
      method: 'PUT',
      url: `/v1/controlsets?tenantId=${DEMO.contoso}`,
      payload: file,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name,
      tenantId: DEMO.contoso,
      controlCount: 2,
      source: 'Contoso security office',
    });
    const mine = (
      await portal.as('operator', { method: 'GET', url: `/v1/controlsets?tenantId=${DEMO.contoso}` })
    ).json<{ value: ControlSet[] }>().value;
    const set = mine.find((s) => s.name === name)!;
    expect(set.controls.map((c) => [c.name, c.family, c.title])).toEqual([
      ['CIC-1', 'Backups', 'Nightly backup'],
      ['CIC-2', 'Backups', 'Restore test'],
    ]);
    // Another tenant's staff see their own uploaded set, and not this one.
    const other = await createStaffedTenant(portal);
    const theirName = `Plant controls ${unique()}`;
    const uploaded = await portal.as(other.userName, {
      method: 'PUT',
      url: `/v1/controlsets?tenantId=${other.tenantId}`,
      payload: {
        name: theirName,
        source: 'Plant safety office',
        controls: [{ id: 'PSC-1', family: 'Safety', title: 'Guard check', description: 'Check the guards.' }],
      },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const theirs = (await portal.as(other.userName, { method: 'GET', url: '/v1/controlsets' })).json<{
      value: ControlSet[];
    }>().value;
    expect(theirs.map((s) => s.name)).toContain(theirName);
    expect(theirs.map((s) => s.name)).not.toContain(name);
    expect(
      (
        await create(other.userName, {
          checkDate: '2026-05-03',
          status: 'Compliant',
          tenantId: other.tenantId,
          controlId: set.controls[0]!.id,
        })
      ).statusCode,
    ).toBe(404);
    const again = await portal.as('operator', {
      method: 'PUT',
      url: `/v1/controlsets?tenantId=${DEMO.contoso}`,
      payload: file,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: 'The control set could not be uploaded.',
      errors: { name: [`A control set named "${name}" exists already.`] },
    });
  });

  it('reads an OSCAL catalog: groups are families, nested controls are enhancements, the statement is the prose', async () => {
    const catalog = {
      catalog: {
        uuid: '5b3f1a4e-0000-4000-8000-000000000001',
        metadata: { title: 'Tiny OSCAL catalog', version: '1.0', 'last-modified': '2026-01-01T00:00:00Z' },
        groups: [
          {
            id: 'ac',
            title: 'Access Control',
            controls: [
              {
                id: 'ac-2',
                title: 'Account Management',
                props: [{ name: 'label', value: 'AC-2' }],
                parts: [
                  {
                    name: 'statement',
                    parts: [{ name: 'item', props: [{ name: 'label', value: 'a.' }], prose: 'Define account types.' }],
                  },
                ],
                controls: [
                  {
                    id: 'ac-2.1',
                    title: 'Automated System Account Management',
                    parts: [{ name: 'statement', prose: 'Support account management with automation.' }],
                  },
                ],
              },
            ],
          },
        ],
      },
    };
    const response = await portal.as('admin', { method: 'PUT', url: '/v1/controlsets', payload: catalog });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Tiny OSCAL catalog',
      tenantId: null,
      controlCount: 2,
      description: 'Version 1.0',
    });
    const sets = (await portal.as('operator2', { method: 'GET', url: '/v1/controlsets' })).json<{
      value: ControlSet[];
    }>().value;
    const set = sets.find((s) => s.name === 'Tiny OSCAL catalog')!;
    expect(
      set.controls.map((c) => ({ name: c.name, family: c.family, title: c.title, description: c.description })),
    ).toEqual([
      { name: 'AC-2', family: 'Access Control', title: 'Account Management', description: 'a. Define account types.' },
      {
        name: 'AC-2(1)',
        family: 'Access Control',
        title: 'Automated System Account Management',
        description: 'Support account management with automation.',
      },
    ]);
  });

  it('refuses anything else with a clear 400 and writes nothing; a shared set needs a user of all tenants', async () => {
    const cases: [unknown, string][] = [
      [
        { hello: 'world' },
        'The file is not a control set: expected {"name": …, "controls": [{"id", "family", "title", "description"}]} or an OSCAL catalog.',
      ],
      [
        [1, 2, 3],
        'The file is not a control set: expected {"name": …, "controls": [{"id", "family", "title", "description"}]} or an OSCAL catalog.',
      ],
      [{ name: 'Empty', controls: [] }, 'The control set has no controls.'],
      [
        { name: 'Bad row', controls: [{ id: 'X-1', family: 'F', title: 'T' }, { id: 'X-2' }] },
        'Control 2: id, family and title are required.',
      ],
      [
        { name: 'Blank row', controls: [{ id: ' ', family: 'F', title: 'T' }] },
        'Control 1: id, family and title are required.',
      ],
      [
        {
          name: 'Twice',
          controls: [
            { id: 'X-1', family: 'F', title: 'T' },
            { id: 'x-1', family: 'F', title: 'U' },
          ],
        },
        'Control "x-1" appears twice.',
      ],
      [{ catalog: { metadata: { title: 'No groups' } } }, 'The control set has no controls.'],
      [
        {
          name: 'Too many',
          controls: Array.from({ length: 1001 }, (_, i) => ({ id: `X-${i}`, family: 'F', title: 'T' })),
        },
        'A control set has at most 1000 controls.',
      ],
    ];
    for (const [body, reason] of cases) {
      const response = await portal.as('operator', {
        method: 'PUT',
        url: `/v1/controlsets?tenantId=${DEMO.contoso}`,
        payload: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, reason).toBe(400);
      expect(response.json()).toEqual({
        message: 'The control set could not be uploaded.',
        errors: { file: [reason] },
      });
    }
    expect(
      (
        await portal.as('operator', {
          method: 'PUT',
          url: `/v1/controlsets?tenantId=${DEMO.contoso}`,
          payload: '{not json',
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(400);
    const names = await portal.db
      .selectFrom('control_set')
      .select('name')
      .where('name', 'in', ['Empty', 'Bad row', 'Blank row', 'Twice', 'Too many'])
      .execute();
    expect(names).toEqual([]);
    const shared = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/controlsets',
      payload: { name: 'Shared by operator', controls: [{ id: 'S-1', family: 'F', title: 'T' }] },
    });
    expect(shared.statusCode).toBe(403);
    const elsewhere = await portal.as('operator', {
      method: 'PUT',
      url: `/v1/controlsets?tenantId=${DEMO.fabrikam}`,
      payload: { name: 'Into Fabrikam', controls: [{ id: 'S-1', family: 'F', title: 'T' }] },
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});

describe('POA&M (a control NonCompliant two weeks in a row)', () => {
  const poams = (controlId: string) =>
    portal.db
      .selectFrom('work_unit')
      .innerJoin('work_unit_relation', 'work_unit_relation.work_unit_id', 'work_unit.work_unit_id')
      .select(['work_unit.work_unit_id', 'work_unit.title', 'work_unit.state_id', 'work_unit.tenant_id'])
      .where('work_unit_relation.reference_type', '=', 'ComplianceControl')
      .where('work_unit_relation.reference_id', '=', controlId)
      .orderBy('work_unit.work_unit_id')
      .execute();

  it('opens one work unit for the tenant, related to the control, once; resolves it with a note when the control becomes Compliant', async () => {
    const id = control(moderate, 'CM-2');
    await create('operator', {
      checkDate: '2026-06-07',
      status: 'NonCompliant',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    await runPoamJobs();
    expect(await poams(id)).toEqual([]);

    const second = (
      await create('operator', {
        checkDate: '2026-06-14',
        status: 'NonCompliant',
        tenantId: DEMO.contoso,
        controlId: id,
      })
    ).json<ControlStatus>();
    await runPoamJobs();
    const opened = await poams(id);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      title: 'POA&M: CM-2 Baseline Configuration',
      state_id: WORK_UNIT_STATES.New,
      tenant_id: DEMO.contoso,
    });

    // A third NonCompliant week, and the same check run again, open nothing more.
    await create('operator', {
      checkDate: '2026-06-21',
      status: 'NonCompliant',
      tenantId: DEMO.contoso,
      controlId: id,
    });
    await patch('operator', second.id, [{ op: 'replace', path: '/status', value: 'Poam' }]);
    await patch('operator', second.id, [{ op: 'replace', path: '/status', value: 'NonCompliant' }]);
    await runPoamJobs();
    expect(await poams(id)).toHaveLength(1);
    // Fabrikam's weeks are its own: Contoso's POA&M is not Fabrikam's.
    await create('operator2', {
      checkDate: '2026-06-14',
      status: 'NonCompliant',
      tenantId: DEMO.fabrikam,
      controlId: id,
    });
    await runPoamJobs();
    expect((await poams(id)).map((unit) => unit.tenant_id)).toEqual([DEMO.contoso]);

    // Compliant in a week before the one that opened it says nothing about now.
    await create('operator', { checkDate: '2026-05-31', status: 'Compliant', tenantId: DEMO.contoso, controlId: id });
    await runPoamJobs();
    expect((await poams(id))[0]?.state_id).toBe(WORK_UNIT_STATES.New);

    await create('operator', { checkDate: '2026-06-28', status: 'Compliant', tenantId: DEMO.contoso, controlId: id });
    await runPoamJobs();
    const closed = await poams(id);
    expect(closed).toHaveLength(1);
    expect(closed[0]?.state_id).toBe(WORK_UNIT_STATES.Resolved);
    const notes = await portal.db
      .selectFrom('work_unit_note')
      .select('detail')
      .where('work_unit_id', '=', closed[0]!.work_unit_id)
      .execute();
    expect(notes.map((note) => note.detail)).toContain(
      'Control CM-2 (Baseline Configuration) is Compliant in the compliance week starting 2026-06-28: the POA&M is closed.',
    );
    const link = await portal.db
      .selectFrom('control_poam')
      .select(['closed', 'work_unit_id'])
      .where('control_id', '=', id)
      .where('tenant_id', '=', DEMO.contoso)
      .execute();
    expect(link).toHaveLength(1);
    expect(link[0]?.closed).not.toBeNull();
  });

  it('opens when the earlier of the two weeks is filled in late, and copying a NonCompliant week forward opens it too', async () => {
    const late = control(moderate, 'CM-3');
    await create('operator', {
      checkDate: '2026-07-12',
      status: 'NonCompliant',
      tenantId: DEMO.contoso,
      controlId: late,
    });
    await create('operator', {
      checkDate: '2026-07-05',
      status: 'NonCompliant',
      tenantId: DEMO.contoso,
      controlId: late,
    });
    await runPoamJobs();
    expect(await poams(late)).toHaveLength(1);

    const copied = control(moderate, 'CM-4');
    await create('operator', {
      checkDate: '2026-07-05',
      status: 'NonCompliant',
      tenantId: DEMO.contoso,
      controlId: copied,
    });
    await portal.as('operator', {
      method: 'POST',
      url: '/v1/controlstatuses/copyLastWeek',
      payload: { controlSetId: moderate.id, tenantId: DEMO.contoso, checkDate: '2026-07-12' },
    });
    await runPoamJobs();
    expect(await poams(copied)).toHaveLength(1);
  });
});
