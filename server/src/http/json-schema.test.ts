import { describe, expect, it } from 'vitest';
import cases from '../../../contracts/fixtures/json-schema-cases.json' with { type: 'json' };
import { answerProblems, schemaProblems } from './json-schema.js';

// The intake wizard's validator (web/src/lib/json-schema-validator.ts) reads the same cases: what
// the browser lets through is what the server files.
describe('the JSON Schema check agrees with the intake wizard on the shared cases', () => {
  for (const { title, schema, valid, invalid } of cases) {
    it(`${title}: accepts what the wizard accepts and refuses what it refuses`, () => {
      expect(schemaProblems(schema)).toEqual([]);
      const text = JSON.stringify(schema);
      for (const value of valid) expect(answerProblems(text, value), JSON.stringify(value)).toEqual([]);
      for (const value of invalid) expect(answerProblems(text, value), JSON.stringify(value)).not.toEqual([]);
    });
  }
});
