import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unknownFieldErrors, VALIDATION_MESSAGE } from './error-handler.js';
import { BadRequestError } from './errors.js';

type Schema = z.core.$ZodType;

const strictCopies = new WeakMap<Schema, Schema>();
const NEVER = z.never();

/** A copy of `schema` with `def`, or `schema` itself when nothing in `def` changed. */
function withDef<D extends z.core.$ZodTypeDef>(schema: Schema, def: D, changed: boolean): Schema {
  return changed ? z.core.util.clone(schema, def) : schema;
}

/**
 * `schema` as a request body is read: every object that would drop a member it does not declare
 * (zod's default) refuses it instead, at any depth, with an `unrecognized_keys` issue that names
 * it. Objects declared loose (`z.looseObject`, a catchall) keep their extra members as before, and
 * records are maps whose keys are data. The checks, refinements, defaults and error texts stay as
 * declared; only the input side is walked (a pipe's `in`, or a preprocess's `out`). Intersections
 * are left as they are (each side would refuse the other's members); no body uses one. Copies are
 * made once per schema.
 *
 * @example
 *   strictInput(z.object({ name: z.string() })).parse({ name: 'a', Name: 'b' }); // throws: Unrecognized key "Name"
 */
export function strictInput<T extends Schema>(schema: T): T {
  let strict = strictCopies.get(schema);
  if (!strict) {
    strict = makeStrict(schema);
    strictCopies.set(schema, strict);
  }
  return strict as T;
}

function makeStrict(schema: Schema): Schema {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def.shape).map(([key, field]) => [key, strictInput(field)]));
      const changed =
        def.catchall === undefined || Object.entries(shape).some(([key, field]) => field !== def.shape[key]);
      return withDef(schema, { ...def, shape, catchall: def.catchall ?? NEVER }, changed);
    }
    case 'array': {
      const element = strictInput(def.element);
      return withDef(schema, { ...def, element }, element !== def.element);
    }
    case 'union': {
      const options = def.options.map((option) => strictInput(option));
      return withDef(
        schema,
        { ...def, options },
        options.some((option, at) => option !== def.options[at]),
      );
    }
    case 'record': {
      const valueType = strictInput(def.valueType);
      return withDef(schema, { ...def, valueType }, valueType !== def.valueType);
    }
    case 'tuple': {
      const items = def.items.map((item) => strictInput(item));
      const rest = def.rest && strictInput(def.rest);
      return withDef(
        schema,
        { ...def, items, rest },
        rest !== def.rest || items.some((item, at) => item !== def.items[at]),
      );
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch': {
      const innerType = strictInput(def.innerType);
      return withDef(schema, { ...def, innerType }, innerType !== def.innerType);
    }
    case 'pipe': {
      // A preprocess (a transform, then the schema) checks its input with `out`; any other pipe with `in`.
      if (def.in._zod.def.type === 'transform') {
        const out = strictInput(def.out);
        return withDef(schema, { ...def, out }, out !== def.out);
      }
      const input = strictInput(def.in);
      return withDef(schema, { ...def, in: input }, input !== def.in);
    }
    case 'lazy': {
      const { getter } = def;
      return withDef(schema, { ...def, getter: () => strictInput(getter()) }, true);
    }
    default:
      return schema;
  }
}

/** The route schemas' validator, with every body schema read by `strictInput`. */
const strictBodyValidatorCompiler: FastifySchemaCompiler<Schema> = (route) =>
  validatorCompiler(route.httpPart === 'body' ? { ...route, schema: strictInput(route.schema) } : route);

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const NUL_MESSAGE = 'Text may not hold the NUL character (\\u0000).';

/** The path of the first text in `value` (a member's name or a string) that holds a NUL character, if any. */
function nulPath(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, member] of Object.entries(value)) {
    const found = key.includes('\0') ? [...path, key] : nulPath(member, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * The JSON bodies' parser (plain JSON and JSON Patch): the default one, and a body whose text holds
 * a NUL character (only ever written `\\u0000`) refused naming the field, as the database would
 * refuse it without saying where. Only a body whose text holds that escape is walked.
 */
export function registerJsonParser(
  app: FastifyInstance,
  contentType: 'application/json' | 'application/json-patch+json',
): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  if (app.hasContentTypeParser(contentType)) app.removeContentTypeParser(contentType);
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    parse(request, text, (error, value: unknown) => {
      if (error) return done(error);
      // A route that reads its body itself (`documentedBody`) refuses a NUL in its own words
      // (packets: by item), and keeps its hot path to itself.
      const readsItself = request.routeOptions.config.documentedBody !== undefined;
      const path = !readsItself && text.includes('\\u0000') ? nulPath(value) : undefined;
      if (path) {
        const field = path.join('.') || 'request';
        return done(new BadRequestError(VALIDATION_MESSAGE, { [field]: [NUL_MESSAGE] }));
      }
      done(null, value);
    });
  });
}
const NO_BODY_MESSAGE = 'This request takes no body.';

/**
 * Request bodies are strict, on every route without the route asking: a declared body's unknown
 * member is a 400 naming it (the error handler words it `Unknown field "…"`), and a write route of
 * the API that declares no body takes none (no body or `{}`; members are refused by name, anything
 * else as no body). Routes kept out of the API document (the identity provider's, which follow
 * OAuth's rules) are left alone; a multipart upload is read by its handler and has no parsed body
 * here.
 */
export function registerStrictBodies(app: FastifyInstance): void {
  app.setValidatorCompiler(strictBodyValidatorCompiler);
  registerJsonParser(app, 'application/json');
  app.addHook('preValidation', async (request) => {
    const { schema } = request.routeOptions;
    if (READS.has(request.method) || schema?.body !== undefined || schema?.hide === true) return;
    const body: unknown = request.body;
    if (body === undefined || body === null) return;
    if (typeof body !== 'object' || Array.isArray(body))
      throw new BadRequestError(NO_BODY_MESSAGE, { request: [NO_BODY_MESSAGE] });
    const errors = unknownFieldErrors([], Object.keys(body));
    if (Object.keys(errors).length > 0) throw new BadRequestError(VALIDATION_MESSAGE, errors);
  });
}
