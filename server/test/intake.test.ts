import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_MESSAGES } from '@cfs/contracts/tenants';
import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { DEMO } from '../src/db/demo-ids.js';
import { DEMO_INTAKE_SCHEMA } from '../src/db/seed.js';
import { createTenantAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

/** What the intake wizard (spec 001 §2 "Intake drawer", §7) reads and writes through the API. */
let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

/** A tenant's intake form of two sections, as an administrator would upload it. */
const FORM = {
  title: 'New starter',
  type: 'object',
  required: ['person', 'access'],
  properties: {
    person: {
      type: 'object',
      title: 'Person',
      required: ['fullName', 'email'],
      properties: {
        fullName: { type: 'string', title: 'Full name', minLength: 3 },
        email: { type: 'string', title: 'Email', format: 'email' },
      },
    },
    access: {
      type: 'object',
      title: 'Access',
      required: ['systems'],
      properties: { systems: { type: 'array', minItems: 1, items: { type: 'string', enum: ['Email', 'VPN'] } } },
    },
  },
};
const tenantWithForm = () => createTenantAs(portal, 'admin', { intakeWizardSchema: JSON.stringify(FORM) });

/** A new starter request of the tenant with `answers` in its properties, as the wizard submits it. */
const submitIntake = (tenantId: string, answers: unknown) =>
  portal.as('admin', {
    method: 'PUT',
    url: '/api/v1/workunits',
    payload: {
      workUnitId: -1,
      title: 'New starter request',
      severityId: 3,
      stateId: 1,
      workUnitTypeId: WORK_UNIT_TYPES.Intake,
      tenantId,
      source: 'Intake',
      properties: JSON.stringify(answers),
    },
  });

describe('the intake wizard API', () => {
  it('serves the demo Contoso new starter schema, three sections, as JSON', async () => {
    const served = await portal.as('operator', {
      method: 'GET',
      url: `/v1/tenants/${DEMO.contoso}/intakewizardschema`,
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toContain('application/json');
    const schema = served.json<typeof DEMO_INTAKE_SCHEMA>();
    expect(schema).toEqual(DEMO_INTAKE_SCHEMA);
    expect(Object.values(schema.properties).map((section) => section.title)).toEqual(['Person', 'Equipment', 'Access']);
  });

  it('round-trips an uploaded schema, refuses one that is not JSON or not a JSON Schema with their messages, and keeps the stored one', async () => {
    const tenant = await createTenantAs(portal, 'admin', { name: 'Intake round trip' });
    const empty = await portal.as('admin', { method: 'GET', url: `/v1/tenants/${tenant.tenantId}/intakewizardschema` });
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-type']).toContain('application/json');
    expect(empty.json()).toBeNull();

    const schema = {
      title: 'Shared mailbox',
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string' } },
    };
    const saved = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenant.tenantId}`,
      payload: { name: tenant.name, intakeWizardSchema: JSON.stringify(schema) },
    });
    expect(saved.statusCode).toBe(200);

    const notJson = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenant.tenantId}`,
      payload: { name: tenant.name, intakeWizardSchema: 'title: not json' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().errors.intakeWizardSchema[0]).toMatch(
      new RegExp(`^${TENANT_MESSAGES.intakeSchemaNotJson.replace('.', '\\.')}`),
    );
    const notSchema = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenant.tenantId}`,
      payload: { name: tenant.name, intakeWizardSchema: '{"type": 12}' },
    });
    expect(notSchema.statusCode).toBe(400);
    expect(notSchema.json().errors.intakeWizardSchema[0]).toMatch(/^The intake wizard form is not a valid JSON Schema/);

    const served = await portal.as('admin', {
      method: 'GET',
      url: `/v1/tenants/${tenant.tenantId}/intakewizardschema`,
    });
    expect(JSON.parse(served.body)).toEqual(schema);
  });

  it('answers 404 for a tenant the caller cannot see', async () => {
    const fabrikam = await portal.as('operator', {
      method: 'GET',
      url: `/v1/tenants/${DEMO.fabrikam}/intakewizardschema`,
    });
    expect(fabrikam.statusCode).toBe(404);
  });

  it('creates the Intake work unit with the answers in its properties', async () => {
    const tenant = await tenantWithForm();
    const answers = {
      person: { fullName: 'Jane Doe', email: 'jane.doe@contoso.example' },
      access: { systems: ['Email', 'VPN'] },
    };
    const created = await submitIntake(tenant.tenantId, answers);
    expect(created.statusCode).toBe(200);
    const unit = (
      await portal.as('admin', {
        method: 'GET',
        url: `/v1/workunits(${created.json<{ workUnitId: number }>().workUnitId})`,
      })
    ).json<{ workUnitTypeId: number; properties: string; workUnitType: { name: string } }>();
    expect(unit.workUnitTypeId).toBe(WORK_UNIT_TYPES.Intake);
    expect(unit.workUnitType.name).toBe('Intake');
    expect(JSON.parse(unit.properties)).toEqual(answers);
  });

  it("refuses an intake whose answers its tenant's form does not accept, and writes nothing", async () => {
    const before = await portal.db
      .selectFrom('work_unit')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    const tenant = await tenantWithForm();
    const answers = {
      person: { fullName: 'No Email', email: 'not an address' },
      access: { systems: ['Email'] },
    };
    const refused = await submitIntake(tenant.tenantId, answers);
    expect(refused.statusCode).toBe(400);
    const problems = refused.json<{ errors: { properties: string[] } }>().errors.properties;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^The answers do not match the tenant’s intake form: .*\/person\/email/);
    const after = await portal.db
      .selectFrom('work_unit')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(after.count).toBe(before.count);
  });
});
