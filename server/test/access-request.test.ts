import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_REQUEST_MESSAGES as M, ACCESS_REQUEST_RATE_LIMIT } from '@cfs/contracts/access-request';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
let off: TestPortal;
let address = 0;

beforeAll(async () => {
  portal = await createTestPortal({ FEATURES: 'I3ERequestForm' });
  off = await createTestPortal();
});

afterAll(async () => {
  await portal.close();
  await off.close();
});

const newAccount = {
  requestType: 'NewAccount',
  firstName: 'Dana',
  middleInitial: 'Q',
  lastName: 'Visitor',
  suffix: 'Jr.',
  email: 'dana.visitor@example.mil',
  phone: '+1 (555) 010-2030',
  environment: 'Commercial',
  citizenship: 'United States',
  designation: 'Contractor',
  companyName: 'Acme Federal',
  organization: 'Logistics',
  acknowledgePolicy: true,
  acknowledgeAccuracy: true,
};

const reset = {
  requestType: 'PasswordReset',
  firstName: 'Dana',
  lastName: 'Visitor',
  email: 'dana.visitor@example.mil',
  phone: '5550102030',
  targetAccountName: 'dana.visitor@example.mil',
  acknowledgePolicy: true,
  acknowledgeAccuracy: true,
};

const started = (msAgo = 10_000) => new Date(Date.now() - msAgo).toISOString();

/** Each call comes from an address of its own, so the per-address limit is met only where a test means it. */
function send(target: TestPortal, payload: Record<string, unknown>, remoteAddress = `10.0.0.${++address}`) {
  return target.app.inject({ method: 'POST', url: '/api/v1/accessrequest', payload, remoteAddress });
}

async function accessRequestUnits(target: TestPortal) {
  return target.db
    .selectFrom('work_unit')
    .selectAll()
    .where('source', '=', 'Access Request')
    .orderBy('work_unit_id')
    .execute();
}

describe('POST /api/v1/accessrequest', () => {
  it('answers 404 while the I3ERequestForm feature is off, and creates nothing', async () => {
    const response = await send(off, { form: newAccount, startedAt: started() });
    expect(response.statusCode).toBe(404);
    expect(await accessRequestUnits(off)).toEqual([]);
  });

  it('creates exactly one Sev3 work unit for a new account request, without signing in', async () => {
    const before = Date.now();
    const response = await send(portal, { form: newAccount, startedAt: started(), website: '' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: M.success });
    const units = await accessRequestUnits(portal);
    expect(units).toHaveLength(1);
    const [unit] = units;
    expect(unit?.title).toBe('Commercial Account Request');
    expect(unit?.severity_id).toBe(3);
    expect(unit?.stakeholder_full_name).toBe('Dana Q Visitor Jr.');
    expect(unit?.stakeholder_email_address).toBe('dana.visitor@example.mil');
    expect(unit?.stakeholder_phone_number).toBe('+1 (555) 010-2030');
    expect(unit?.description).toContain('Company name: Acme Federal');
    const start = new Date(String(unit?.planned_start_time)).getTime();
    const finish = new Date(String(unit?.planned_finish_time)).getTime();
    expect(start).toBeGreaterThanOrEqual(before - 1000);
    expect(finish - start).toBe(2 * 24 * 3600 * 1000);
    // The installation's first tenant receives it (no ACCESS_REQUEST_TENANT_ID configured).
    const first = await portal.db
      .selectFrom('tenant')
      .select('tenant_id')
      .orderBy('created')
      .orderBy('tenant_id')
      .executeTakeFirstOrThrow();
    expect(unit?.tenant_id).toBe(first.tenant_id);
  });

  it('defaults the environment to IL4 (CUI) and answers a password reset alike, whether or not the account exists', async () => {
    const count = (await accessRequestUnits(portal)).length;
    const known = await send(portal, { form: reset, startedAt: started() });
    const unknown = await send(portal, {
      form: { ...reset, targetAccountName: 'nobody.at.all@example.mil' },
      startedAt: started(),
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    const units = (await accessRequestUnits(portal)).slice(count);
    expect(units.map((unit) => unit.title)).toEqual(['IL4 (CUI) Account Request', 'IL4 (CUI) Account Request']);
  });

  it("takes the spec's form (the form's fields at the top level) and sets the unit's own fields itself", async () => {
    const count = (await accessRequestUnits(portal)).length;
    const response = await send(portal, {
      ...newAccount,
      email: 'spec.form@example.mil',
      title: 'Commercial Account Request',
      description: 'Sent by the older form',
      stakeHolderFullName: 'Someone Else',
      stakeHolderEmailAddress: 'someone.else@example.mil',
      stakeHolderPhoneNumber: '000',
      plannedStartTime: '2020-01-01T00:00:00Z',
      plannedFinishTime: '2020-01-03T00:00:00Z',
      severityId: 3,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [unit] = (await accessRequestUnits(portal)).slice(count);
    expect(unit).toMatchObject({
      title: 'Commercial Account Request',
      severity_id: 3,
      stakeholder_full_name: 'Dana Q Visitor Jr.',
      stakeholder_email_address: 'spec.form@example.mil',
    });
    expect(unit?.description).toContain('Company name: Acme Federal');
    expect(new Date(String(unit?.planned_start_time)).getFullYear()).toBeGreaterThan(2020);
  });

  it('refuses an unknown field in either form with a 400 that names it, and creates nothing', async () => {
    const count = (await accessRequestUnits(portal)).length;
    const refusals: [Record<string, unknown>, string][] = [
      [{ form: newAccount, startedAt: started(), nickname: 'D' }, 'nickname'],
      [{ form: { ...newAccount, nickname: 'D' }, startedAt: started() }, 'form.nickname'],
      [{ ...newAccount, nickname: 'D' }, 'nickname'],
    ];
    for (const [payload, field] of refusals) {
      const response = await send(portal, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errors: { [field]: [`Unknown field "${field}".`] } });
    }
    expect(await accessRequestUnits(portal)).toHaveLength(count);
  });

  it('refuses a bot: a filled honeypot field or a form sent too soon creates nothing', async () => {
    const count = (await accessRequestUnits(portal)).length;
    const honeypot = await send(portal, {
      form: { ...newAccount, email: 'bot1@example.com' },
      startedAt: started(),
      website: 'http://spam.example',
    });
    const tooSoon = await send(portal, { form: { ...newAccount, email: 'bot2@example.com' }, startedAt: started(200) });
    const future = await send(portal, {
      form: { ...newAccount, email: 'bot3@example.com' },
      startedAt: new Date(Date.now() + 60_000).toISOString(),
    });
    for (const response of [honeypot, tooSoon, future]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(M.failure);
    }
    expect(await accessRequestUnits(portal)).toHaveLength(count);
  });

  it.each([
    ['request type', { requestType: undefined }, M.requestTypeRequired],
    ['first name', { firstName: ' ' }, M.firstNameRequired],
    ['last name', { lastName: '' }, M.lastNameRequired],
    ['middle initial', { middleInitial: 'QR' }, M.middleInitial],
    ['email', { email: '' }, M.emailRequired],
    ['email pattern', { email: 'dana@nowhere' }, M.emailInvalid],
    ['phone', { phone: '' }, M.phoneRequired],
    ['phone pattern', { phone: 'call me' }, M.phoneInvalid],
    ['citizenship', { citizenship: '' }, M.citizenshipRequired],
    ['designation', { designation: '' }, M.designationRequired],
    ['organization', { organization: '' }, M.organizationRequired],
    ['company name for a contractor', { companyName: '' }, M.companyRequired],
    ['grade for the military', { designation: 'Military', grade: '' }, M.gradeRequired],
    ['the first acknowledgement', { acknowledgePolicy: false }, M.acknowledgementRequired],
    ['the second acknowledgement', { acknowledgeAccuracy: false }, M.acknowledgementRequired],
  ])('refuses a new account request without a valid %s', async (_name, change, message) => {
    const response = await send(portal, { form: { ...newAccount, ...change }, startedAt: started() });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
  });

  it.each([
    ['missing', { targetAccountName: '' }, M.targetAccountRequired],
    ['not an email', { targetAccountName: 'dana' }, M.targetAccountInvalid],
  ])('refuses a password reset whose target account is %s', async (_name, change, message) => {
    const response = await send(portal, { form: { ...reset, ...change }, startedAt: started() });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
  });

  it(`limits one address to ${ACCESS_REQUEST_RATE_LIMIT} requests an hour`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= ACCESS_REQUEST_RATE_LIMIT; i++)
      statuses.push(
        (await send(portal, { form: { ...reset, email: `person${i}@example.com` }, startedAt: started() }, '10.9.9.9'))
          .statusCode,
      );
    expect(statuses).toEqual([...Array<number>(ACCESS_REQUEST_RATE_LIMIT).fill(200), 429]);
  });

  it(`limits one email address to ${ACCESS_REQUEST_RATE_LIMIT} requests an hour, from any addresses, whatever its case`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= ACCESS_REQUEST_RATE_LIMIT; i++)
      statuses.push(
        (
          await send(portal, {
            form: { ...reset, email: i % 2 ? 'Same.Person@example.com' : 'same.person@example.com' },
            startedAt: started(),
          })
        ).statusCode,
      );
    expect(statuses).toEqual([...Array<number>(ACCESS_REQUEST_RATE_LIMIT).fill(200), 429]);
    const refused = await send(portal, { form: { ...reset, email: 'same.person@example.com' }, startedAt: started() });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await send(portal, { form: { ...reset, email: 'another.person@example.com' }, startedAt: started() }))
        .statusCode,
    ).toBe(200);
  });
});
