import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A JSON Schema (2020-12, as OpenAPI 3.1 writes it), read loosely: only what an example needs. */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  [key: string]: unknown;
}

const BY_FORMAT: Readonly<Record<string, string>> = {
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  'date-time': '2026-11-25T09:30:00.000Z',
  date: '2026-11-25',
  time: '09:30:00',
  email: 'operator@contoso.example',
  uri: 'https://status.contoso.example/incidents',
  url: 'https://status.contoso.example/incidents',
  hostname: 'status.contoso.example',
  ipv4: '192.0.2.10',
};

/** Texts tried, in order, for a pattern with no format: the first the pattern accepts is the example. */
const PATTERN_CANDIDATES = ['01:00:00', '1/1', 'example', '+1 555 0100', '3fa85f64-5717-4562-b3fc-2c963f66afa6'];

function stringExample(schema: JsonSchema, name: string): string {
  if (schema.format && BY_FORMAT[schema.format]) return BY_FORMAT[schema.format] ?? '';
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    const fit = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate));
    if (fit) return fit;
  }
  let text = name ? `Example ${name}` : 'Example';
  if (schema.minLength !== undefined) text = text.padEnd(schema.minLength, '.');
  return schema.maxLength !== undefined ? text.slice(0, Math.max(schema.maxLength, schema.minLength ?? 0)) : text;
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const low =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.5) : 1);
  return schema.maximum !== undefined ? Math.min(low, schema.maximum) : low;
}

function firstType(schema: JsonSchema): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types.find((type) => type !== 'null') ?? types[0];
}

function sample(schema: JsonSchema, name: string, depth: number): unknown {
  if (depth > 8) return undefined;
  if (schema.examples?.length) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) {
    const chosen = options.find((option) => firstType(option) !== 'null') ?? options[0];
    return chosen ? sample(chosen, name, depth + 1) : null;
  }
  if (schema.allOf?.[0]) return sample(schema.allOf[0], name, depth + 1);
  switch (firstType(schema)) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        const example = sample(property, key, depth + 1);
        if (example !== undefined) value[key] = example;
      }
      return value;
    }
    case 'array': {
      const item = schema.items ? sample(schema.items, name, depth + 1) : undefined;
      return item === undefined ? [] : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'string':
      return stringExample(schema, name);
    case 'integer':
      return numberExample(schema, true);
    case 'number':
      return numberExample(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // Any value: a text says so, except for a whole body, which is left to its description.
      return depth === 0 ? undefined : `Example ${name || 'value'}`;
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats.default(ajv);

/**
 * An example value for a request body's schema: every property, each with a value its schema
 * accepts (formats, patterns, lengths, ranges, enums). Only an example the schema accepts as a
 * whole is returned; a schema no simple value satisfies (a refinement across fields) gets none.
 *
 * @example
 *   exampleOf({ type: 'object', properties: { name: { type: 'string', minLength: 1 } } }) // { name: 'Example name' }
 */
export function exampleOf(schema: JsonSchema): unknown {
  const example = sample(schema, '', 0);
  if (example === undefined) return undefined;
  try {
    return ajv.validate(schema, example) ? example : undefined;
  } catch {
    return undefined;
  }
}
