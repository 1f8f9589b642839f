import { describe, expect, it } from 'vitest';
import { intakeErrorTexts } from './intake-error-texts';
import { intakeSteps } from './intake-wizard-model';
import { jsonSchemaValidator } from '../../lib/json-schema-validator';
import type { RJSFSchema } from '@rjsf/utils';

const person: RJSFSchema = {
  type: 'object',
  required: ['fullName', 'email'],
  properties: {
    fullName: { type: 'string', title: 'Full name' },
    email: { type: 'string', title: 'Email', format: 'email' },
    age: { type: 'integer', minimum: 18 },
    systems: { type: 'array', minItems: 1, items: { type: 'string' } },
  },
};

describe('the intake wizard error texts', () => {
  it('word a missing field, a bad email, a limit and too few items as a form does, not as the validator', () => {
    const schema = intakeSteps({ type: 'object', properties: { person } })[0]?.schema ?? person;
    const { errors } = jsonSchemaValidator.validateFormData(
      { email: 'not-mail', age: 16, systems: [] },
      schema,
      undefined,
      intakeErrorTexts,
    );
    expect(errors.map((error) => error.message).sort()).toEqual([
      'Full name is required.',
      'Please add at least 1 item.',
      'Please enter 18 or more.',
      'Please enter a valid email address.',
    ]);
  });

  it('leaves out the "must match then schema" that repeats the field’s own error', () => {
    const conditional: RJSFSchema = {
      type: 'object',
      properties: { vpn: { type: 'string', title: 'VPN' } },
      if: { properties: { remote: { const: true } } },
      then: { required: ['vpn'] },
    };
    const { errors } = jsonSchemaValidator.validateFormData({ remote: true }, conditional, undefined, intakeErrorTexts);
    expect(errors.map((error) => error.message)).toEqual(['VPN is required.']);
  });
});
