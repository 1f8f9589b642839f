import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { keepBounded } from '../bounded-map.js';

/**
 * JSON Schema checks of stored forms (the tenant's intake wizard form) and of the answers sent
 * against them. One validator for the server: the form is checked as a JSON Schema when it is
 * saved, and the answers of an intake are checked against the tenant's form when the unit is filed,
 * whatever the browser checked before.
 */
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true });
// The formats forms use (email, date, uri…) are checked as the wizard's own checker reads them.
ajvFormats.default(ajv);

/** Compiled forms by their text; a tenant's form changes rarely, and the cache is bounded. */
const compiled = new Map<string, ValidateFunction>();
const COMPILED_MAX = 200;

const describe = (errors: readonly { instancePath: string; message?: string }[] | null | undefined): string[] =>
  (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim()).slice(0, 5);

/** What makes `schema` not a JSON Schema; empty when it is one. */
export function schemaProblems(schema: object): string[] {
  return ajv.validateSchema(schema) ? [] : describe(ajv.errors);
}

/** What in `value` the form `schemaText` (a stored, already checked JSON Schema) does not accept; empty when it accepts it. */
export function answerProblems(schemaText: string, value: unknown): string[] {
  const validate =
    compiled.get(schemaText) ??
    keepBounded(compiled, schemaText, ajv.compile(JSON.parse(schemaText) as object), COMPILED_MAX);
  return validate(value) ? [] : describe(validate.errors);
}
