import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import cases from '../../../contracts/fixtures/json-schema-cases.json';
import { schemaErrors } from './json-schema-validator';

// The server's check (server/src/http/json-schema.ts, Ajv) reads the same cases: a form the wizard
// accepts is one the server files, and one it refuses is one the server would refuse.
describe('the JSON Schema validator agrees with the server on the shared cases', () => {
  for (const { title, schema, valid, invalid } of cases) {
    it(`${title}: accepts what the server accepts and refuses what it refuses`, () => {
      const form = schema as RJSFSchema;
      for (const value of valid) expect(schemaErrors(form, value), JSON.stringify(value)).toEqual([]);
      for (const value of invalid) expect(schemaErrors(form, value), JSON.stringify(value)).not.toEqual([]);
    });
  }
});
