import type {
  CustomValidator,
  ErrorTransformer,
  RJSFSchema,
  UiSchema,
  ValidationData,
  ValidatorType,
} from '@rjsf/utils';
import type { CompiledValidateFunction } from '@rjsf/validator-ajv8';
import processRawValidationErrors from '@rjsf/validator-ajv8/lib/processRawValidationErrors.js';

/**
 * A JSON Schema validator for @rjsf forms (the intake wizard's tenant form): the schema checked in
 * the browser, with Ajv's error shapes and messages ("must have required property 'Full name'")
 * turned into the form's errors by @rjsf/validator-ajv8's own processing. The server checks the
 * same answers with Ajv (server/src/http/json-schema.ts); both tests read the cases of
 * contracts/fixtures/json-schema-cases.json, so the two agree on them.
 *
 * Why not Ajv itself: Ajv compiles each schema into a function with `new Function`, and the
 * portal's Content-Security-Policy (`script-src 'self'`) forbids evaluating code, rightly so. Its
 * way around (validators compiled at build time) cannot serve a schema a tenant uploads at run
 * time, and no interpreting JSON Schema validator is among our packages. So the keywords a form
 * uses are interpreted here: types, required, enum/const, string lengths, patterns and common
 * formats, numeric limits, items, object property rules, allOf/anyOf/oneOf/not, if/then/else,
 * dependencies and local `$ref`s (draft-07, as the tenant form's server check accepts).
 */

export type SchemaError = NonNullable<CompiledValidateFunction['errors']>[number];
type Definition = RJSFSchema | boolean;

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:z|[+-]\d\d(?::?\d\d)?)?$/i;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The formats a form commonly declares; one we do not know passes, as Ajv's unknown formats would be ignored. */
const FORMATS: Record<string, (text: string) => boolean> = {
  email: (text) => EMAIL.test(text),
  date: isDate,
  time: (text) => TIME.test(text),
  'date-time': (text) => {
    const [date, time] = text.split(/t|\s/i);
    return date !== undefined && time !== undefined && isDate(date) && TIME.test(time);
  },
  uri: (text) => {
    try {
      return new URL(text).protocol.length > 1;
    } catch {
      return false;
    }
  },
  uuid: (text) => UUID.test(text),
  ipv4: (text) => IPV4.test(text),
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => equal(item, b[index]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && equal(a[key], b[key]));
  }
  return false;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}

const pointerPart = (key: string | number) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** `#/definitions/person` in the root schema; undefined when it names nothing there. */
function resolveRef(root: RJSFSchema, ref: string): Definition | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'boolean' || isObject(node) ? (node as Definition) : undefined;
}

interface Place {
  instancePath: string;
  schemaPath: string;
}

/** The errors of `data` against `schema`, in Ajv's shape: empty when it is valid. */
export function schemaErrors(
  schema: Definition,
  data: unknown,
  root: RJSFSchema = isObject(schema) ? schema : {},
): SchemaError[] {
  const errors: SchemaError[] = [];
  check(schema, data, { instancePath: '', schemaPath: '#' }, root, errors, 0);
  return errors;
}

function check(
  schema: Definition,
  data: unknown,
  at: Place,
  root: RJSFSchema,
  errors: SchemaError[],
  depth: number,
): void {
  // A $ref cycle in a tenant's schema must not hang the page.
  if (depth > 64) return;
  const fail = (keyword: string, params: Record<string, unknown>, message: string, place: Place = at) =>
    errors.push({
      instancePath: place.instancePath,
      schemaPath: `${place.schemaPath}/${keyword}`,
      keyword,
      params,
      message,
      ...(isObject(schema) ? { parentSchema: schema } : {}),
    });
  if (schema === true) return;
  if (schema === false) {
    errors.push({
      instancePath: at.instancePath,
      schemaPath: at.schemaPath,
      keyword: 'false schema',
      params: {},
      message: 'boolean schema is false',
    });
    return;
  }
  const sub = (definition: Definition, value: unknown, place: Place, into = errors) =>
    check(definition, value, place, root, into, depth + 1);
  const valid = (definition: Definition, value: unknown, schemaPath: string) => {
    const found: SchemaError[] = [];
    sub(definition, value, { instancePath: at.instancePath, schemaPath }, found);
    return found;
  };

  if (typeof schema.$ref === 'string') {
    const target = resolveRef(root, schema.$ref);
    if (target !== undefined) sub(target, data, { instancePath: at.instancePath, schemaPath: schema.$ref });
  }

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => typeMatches(type, data))) {
      fail('type', { type: types.join(',') }, `must be ${types.join(',')}`);
      return;
    }
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => equal(option, data))) {
    fail('enum', { allowedValues: schema.enum }, 'must be equal to one of the allowed values');
  }
  if (schema.const !== undefined && !equal(schema.const, data))
    fail('const', { allowedValue: schema.const }, 'must be equal to constant');

  if (typeof data === 'string') checkString(schema, data, fail);
  if (typeof data === 'number') checkNumber(schema, data, fail);
  if (Array.isArray(data)) {
    const items = schema.items;
    if (Array.isArray(items))
      items.forEach(
        (item, index) =>
          index < data.length &&
          sub(item, data[index], {
            instancePath: at.instancePath + pointerPart(index),
            schemaPath: `${at.schemaPath}/items/${index}`,
          }),
      );
    else if (items !== undefined)
      data.forEach((item, index) =>
        sub(items, item, { instancePath: at.instancePath + pointerPart(index), schemaPath: `${at.schemaPath}/items` }),
      );
    if (schema.minItems !== undefined && data.length < schema.minItems)
      fail('minItems', { limit: schema.minItems }, `must NOT have fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && data.length > schema.maxItems)
      fail('maxItems', { limit: schema.maxItems }, `must NOT have more than ${schema.maxItems} items`);
    if (schema.uniqueItems) {
      outer: for (let i = data.length - 1; i > 0; i--) {
        for (let j = i - 1; j >= 0; j--) {
          if (equal(data[i], data[j])) {
            fail('uniqueItems', { i, j }, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
            break outer;
          }
        }
      }
    }
    const contains = schema.contains;
    if (
      contains !== undefined &&
      !data.some((item) => valid(contains, item, `${at.schemaPath}/contains`).length === 0)
    ) {
      fail('contains', { minContains: 1 }, 'must contain at least 1 valid item(s)');
    }
  }
  if (isObject(data)) checkObject(schema, data, at, fail, sub);

  if (schema.allOf)
    schema.allOf.forEach((part, index) =>
      sub(part, data, { instancePath: at.instancePath, schemaPath: `${at.schemaPath}/allOf/${index}` }),
    );
  if (schema.anyOf) {
    const results = schema.anyOf.map((part, index) => valid(part, data, `${at.schemaPath}/anyOf/${index}`));
    if (!results.some((found) => found.length === 0)) {
      errors.push(...results.flat());
      fail('anyOf', {}, 'must match a schema in anyOf');
    }
  }
  if (schema.oneOf) {
    const results = schema.oneOf.map((part, index) => valid(part, data, `${at.schemaPath}/oneOf/${index}`));
    const passing = results.flatMap((found, index) => (found.length === 0 ? [index] : []));
    if (passing.length === 0) {
      errors.push(...results.flat());
      fail('oneOf', { passingSchemas: null }, 'must match exactly one schema in oneOf');
    } else if (passing.length > 1)
      fail('oneOf', { passingSchemas: passing.slice(0, 2) }, 'must match exactly one schema in oneOf');
  }
  if (schema.not !== undefined && valid(schema.not, data, `${at.schemaPath}/not`).length === 0)
    fail('not', {}, 'must NOT be valid');
  if (schema.if !== undefined) {
    const branch = valid(schema.if, data, `${at.schemaPath}/if`).length === 0 ? 'then' : 'else';
    const definition = schema[branch];
    if (definition !== undefined) {
      const found = valid(definition, data, `${at.schemaPath}/${branch}`);
      if (found.length) {
        errors.push(...found);
        fail('if', { failingKeyword: branch }, `must match "${branch}" schema`);
      }
    }
  }
}

type Fail = (keyword: string, params: Record<string, unknown>, message: string, place?: Place) => void;

function checkString(schema: RJSFSchema, text: string, fail: Fail): void {
  // Lengths count characters as people see them, not UTF-16 units (Ajv's unicode default).
  const length = [...text].length;
  if (schema.minLength !== undefined && length < schema.minLength)
    fail('minLength', { limit: schema.minLength }, `must NOT have fewer than ${schema.minLength} characters`);
  if (schema.maxLength !== undefined && length > schema.maxLength)
    fail('maxLength', { limit: schema.maxLength }, `must NOT have more than ${schema.maxLength} characters`);
  if (schema.pattern !== undefined) {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      pattern = undefined;
    }
    if (pattern && !pattern.test(text))
      fail('pattern', { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`);
  }
  const format = schema.format === undefined ? undefined : FORMATS[schema.format];
  if (format && !format(text)) fail('format', { format: schema.format }, `must match format "${schema.format}"`);
}

function checkNumber(schema: RJSFSchema, value: number, fail: Fail): void {
  const limits: [keyof RJSFSchema, string, (limit: number) => boolean][] = [
    ['minimum', '>=', (limit) => value >= limit],
    ['maximum', '<=', (limit) => value <= limit],
    ['exclusiveMinimum', '>', (limit) => value > limit],
    ['exclusiveMaximum', '<', (limit) => value < limit],
  ];
  for (const [keyword, comparison, ok] of limits) {
    const limit = schema[keyword];
    if (typeof limit === 'number' && !ok(limit)) fail(keyword, { comparison, limit }, `must be ${comparison} ${limit}`);
  }
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0) {
    const quotient = value / schema.multipleOf;
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9)
      fail('multipleOf', { multipleOf: schema.multipleOf }, `must be multiple of ${schema.multipleOf}`);
  }
}

function checkObject(
  schema: RJSFSchema,
  data: Record<string, unknown>,
  at: Place,
  fail: Fail,
  sub: (definition: Definition, value: unknown, place: Place) => void,
): void {
  for (const name of schema.required ?? []) {
    if (data[name] === undefined) fail('required', { missingProperty: name }, `must have required property '${name}'`);
  }
  const keys = Object.keys(data);
  if (schema.minProperties !== undefined && keys.length < schema.minProperties)
    fail(
      'minProperties',
      { limit: schema.minProperties },
      `must NOT have fewer than ${schema.minProperties} properties`,
    );
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
    fail(
      'maxProperties',
      { limit: schema.maxProperties },
      `must NOT have more than ${schema.maxProperties} properties`,
    );
  const properties = schema.properties ?? {};
  const patterns = Object.entries(schema.patternProperties ?? {}).flatMap(([source, definition]) => {
    try {
      return [{ source, pattern: new RegExp(source, 'u'), definition }];
    } catch {
      return [];
    }
  });
  for (const key of keys) {
    const value = data[key];
    const instancePath = at.instancePath + pointerPart(key);
    let known = false;
    const property = properties[key];
    if (property !== undefined) {
      known = true;
      if (value !== undefined)
        sub(property, value, { instancePath, schemaPath: `${at.schemaPath}/properties${pointerPart(key)}` });
    }
    for (const { source, pattern, definition } of patterns) {
      if (!pattern.test(key)) continue;
      known = true;
      sub(definition, value, { instancePath, schemaPath: `${at.schemaPath}/patternProperties${pointerPart(source)}` });
    }
    if (known || schema.additionalProperties === undefined || schema.additionalProperties === true) continue;
    if (schema.additionalProperties === false)
      fail('additionalProperties', { additionalProperty: key }, 'must NOT have additional properties');
    else sub(schema.additionalProperties, value, { instancePath, schemaPath: `${at.schemaPath}/additionalProperties` });
  }
  for (const [name, dependency] of Object.entries(schema.dependencies ?? {})) {
    if (data[name] === undefined) continue;
    if (Array.isArray(dependency)) {
      const missing = dependency.filter((other) => data[other] === undefined);
      for (const other of missing) {
        fail(
          'dependencies',
          { property: name, missingProperty: other, depsCount: dependency.length, deps: dependency.join(', ') },
          `must have property ${dependency.join(', ')} when property ${name} is present`,
        );
      }
    } else if (typeof dependency === 'boolean' || isObject(dependency)) {
      sub(dependency, data, {
        instancePath: at.instancePath,
        schemaPath: `${at.schemaPath}/dependencies${pointerPart(name)}`,
      });
    }
  }
}

/**
 * @rjsf's validator contract over `schemaErrors`.
 *
 * @example
 *   <Form schema={schema} validator={jsonSchemaValidator} />
 */
class JsonSchemaValidator implements ValidatorType<unknown, RJSFSchema> {
  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    customValidate?: CustomValidator<unknown, RJSFSchema>,
    transformErrors?: ErrorTransformer<unknown, RJSFSchema>,
    uiSchema?: UiSchema<unknown, RJSFSchema>,
  ): ValidationData<unknown> {
    return processRawValidationErrors(
      this,
      { errors: schemaErrors(schema, formData) },
      formData,
      schema,
      customValidate,
      transformErrors,
      uiSchema,
    );
  }

  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    return schemaErrors(schema, formData, rootSchema).length === 0;
  }

  rawValidation<Result = SchemaError>(
    schema: RJSFSchema,
    formData?: unknown,
  ): { errors?: Result[]; validationError?: Error } {
    const errors = schemaErrors(schema, formData);
    return errors.length ? { errors: errors as Result[] } : {};
  }
}

export const jsonSchemaValidator: ValidatorType<unknown, RJSFSchema> = new JsonSchemaValidator();
