import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import {
  hasAnswers,
  intakeSteps,
  intakeWorkUnit,
  parseIntakeSchema,
  stepAnswers,
  withStepAnswers,
} from './intake-wizard-model';
import { jsonSchemaValidator, schemaErrors } from '../../lib/json-schema-validator';

const starter: RJSFSchema = {
  title: 'New starter request',
  type: 'object',
  required: ['person'],
  definitions: { system: { type: 'string', enum: ['Email', 'ERP'] } },
  properties: {
    person: {
      type: 'object',
      title: 'Person',
      required: ['fullName', 'email'],
      properties: { fullName: { type: 'string', title: 'Full name' }, email: { type: 'string', format: 'email' } },
    },
    access: {
      type: 'object',
      properties: { systems: { type: 'array', items: { $ref: '#/definitions/system' }, minItems: 1 } },
    },
  },
};
const tenant = { tenantId: '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b', name: 'Contoso' };

describe('the intake wizard steps', () => {
  it('makes one step per section, titled by the section or its humanized name, with the root definitions', () => {
    const steps = intakeSteps(starter);
    expect(steps.map((step) => [step.key, step.title])).toEqual([
      ['person', 'Person'],
      ['access', 'Access'],
    ]);
    expect(steps[1]?.schema.definitions).toEqual(starter.definitions);
    expect(steps[0]?.schema.required).toEqual(['fullName', 'email']);
  });

  it('makes a schema without sections one step, and gathers top-level fields beside sections into a first step', () => {
    const flat: RJSFSchema = { title: 'Mailbox', type: 'object', properties: { name: { type: 'string' } } };
    expect(intakeSteps(flat)).toEqual([{ key: null, title: 'Mailbox', schema: flat }]);
    const mixed: RJSFSchema = {
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string' }, person: starter.properties?.person ?? {} },
    };
    const steps = intakeSteps(mixed);
    expect(steps.map((step) => [step.key, step.title])).toEqual([
      [null, 'Intake'],
      ['person', 'Person'],
    ]);
    expect(steps[0]?.schema).toMatchObject({ properties: { title: { type: 'string' } }, required: ['title'] });
    const answers = withStepAnswers(steps[1]!, withStepAnswers(steps[0]!, {}, { title: 'Laptop for Jane' }), {
      fullName: 'Jane',
    });
    expect(answers).toEqual({ title: 'Laptop for Jane', person: { fullName: 'Jane' } });
    expect(stepAnswers(steps[0]!, answers)).toEqual({ title: 'Laptop for Jane' });
  });

  it('reads a stored schema only when it is a JSON object', () => {
    expect(parseIntakeSchema('')).toBeNull();
    expect(parseIntakeSchema('[1]')).toBeNull();
    expect(parseIntakeSchema('{"type":')).toBeNull();
    expect(parseIntakeSchema('{"type":"object"}')).toEqual({ type: 'object' });
  });

  it('knows an untouched wizard from one with answers', () => {
    expect(hasAnswers({ person: {}, access: { systems: [] } })).toBe(false);
    expect(hasAnswers({ person: { fullName: 'J' } })).toBe(true);
  });
});

describe('the Intake work unit', () => {
  it('is titled "{schema title}: {tenant}", New, Sev3, of type Intake, with the answers as JSON properties and a readable description', () => {
    const answers = {
      person: { fullName: 'Jane Doe', email: 'jane@contoso.example' },
      access: { systems: ['Email', 'ERP'] },
    };
    const unit = intakeWorkUnit(starter, answers, tenant);
    expect(unit).toMatchObject({
      title: 'New starter request: Contoso',
      severityId: 3,
      stateId: WORK_UNIT_STATES.New,
      workUnitTypeId: WORK_UNIT_TYPES.Intake,
      tenantId: tenant.tenantId,
    });
    expect(JSON.parse(unit.properties ?? '')).toEqual(answers);
    expect(unit.description).toBe(
      'Person\nFull name: Jane Doe\nEmail: jane@contoso.example\n\nAccess\nSystems: Email, ERP',
    );
  });

  it('takes its title from a "title" answer when the schema asks for one', () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: { request: { type: 'object', properties: { title: { type: 'string' } } } },
    };
    expect(intakeWorkUnit(schema, { request: { title: '  Shared mailbox for audit ' } }, tenant).title).toBe(
      'Shared mailbox for audit',
    );
    expect(intakeWorkUnit(schema, { request: {} }, tenant).title).toBe('Intake: Contoso');
  });
});

describe('the intake validator (JSON Schema without code evaluation)', () => {
  it('names a missing required field by its title, as Ajv and react-jsonschema-form word it', () => {
    const person = intakeSteps(starter)[0]!.schema;
    const { errors } = jsonSchemaValidator.validateFormData({ email: 'jane@contoso.example' }, person);
    expect(errors.map((error) => [error.property, error.message])).toEqual([
      ['fullName', "must have required property 'Full name'"],
    ]);
  });

  it('checks types, formats, enums through $ref, lengths, limits and items', () => {
    expect(schemaErrors({ type: 'string', format: 'email' }, 'not-mail').map((error) => error.message)).toEqual([
      'must match format "email"',
    ]);
    expect(schemaErrors({ type: 'string', format: 'date' }, '2027-02-30')).toHaveLength(1);
    expect(schemaErrors({ type: 'string', format: 'date' }, '2027-02-28')).toEqual([]);
    expect(
      schemaErrors(starter, { person: { fullName: 'J', email: 'j@x.example' }, access: { systems: ['CRM'] } }).map(
        (error) => [error.instancePath, error.message],
      ),
    ).toEqual([['/access/systems/0', 'must be equal to one of the allowed values']]);
    expect(schemaErrors({ type: 'array', minItems: 1, uniqueItems: true }, []).map((error) => error.message)).toEqual([
      'must NOT have fewer than 1 items',
    ]);
    expect(schemaErrors({ type: 'integer', minimum: 0, maximum: 3 }, 4).map((error) => error.message)).toEqual([
      'must be <= 3',
    ]);
    expect(schemaErrors({ type: 'string', minLength: 10 }, 'short').map((error) => error.message)).toEqual([
      'must NOT have fewer than 10 characters',
    ]);
    expect(schemaErrors({ type: 'integer' }, 1.5).map((error) => error.message)).toEqual(['must be integer']);
  });

  it('answers isValid for the choices of oneOf, anyOf and if/then', () => {
    const choice: RJSFSchema = { oneOf: [{ type: 'string' }, { type: 'number' }] };
    expect(jsonSchemaValidator.isValid(choice, 'a', choice)).toBe(true);
    expect(jsonSchemaValidator.isValid(choice, true, choice)).toBe(false);
    const conditional: RJSFSchema = {
      type: 'object',
      if: { properties: { remote: { const: true } } },
      then: { required: ['vpn'] },
    };
    expect(schemaErrors(conditional, { remote: true }).map((error) => error.message)).toEqual([
      "must have required property 'vpn'",
      'must match "then" schema',
    ]);
    expect(schemaErrors(conditional, { remote: false })).toEqual([]);
    expect(schemaErrors({ anyOf: [{ minimum: 5 }, { maximum: 1 }] }, 3).at(-1)?.message).toBe(
      'must match a schema in anyOf',
    );
  });
});
