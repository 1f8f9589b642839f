import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { TenantOutOfScopeError } from '../db/scoped.js';
import { ListQueryError } from '../odata/list-query-error.js';
import { HttpError } from './errors.js';

export const VALIDATION_MESSAGE = 'One or more validation errors occurred.';

/** The SQLSTATE of an error from PostgreSQL (pg exposes it as `code`). */
function databaseErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error) || !('severity' in error)) return undefined;
  const { code } = error as { code: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * The errors of a body's unknown members, one field each:
 * `{ "form.nickname": ['Unknown field "form.nickname".'] }`.
 */
export function unknownFieldErrors(path: readonly PropertyKey[], keys: readonly string[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const key of keys) {
    const field = [...path, key].map(String).join('.');
    errors[field] = [`Unknown field "${field}".`];
  }
  return errors;
}

/** One problem of a request's input, as zod reports it: where, what, and for unknown members their names. */
interface InputIssue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  keys?: unknown;
}

/**
 * Problems by field (`form.email`, `0.path`), or by the part of the request (`body`,
 * `querystring`) when they concern it whole.
 */
function fieldErrors(issues: readonly InputIssue[], part: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  // A field's message once, however many of the checks that failed it say the same.
  const add = (field: string, message: string) => {
    const messages = (errors[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
      for (const [field, messages] of Object.entries(unknownFieldErrors(issue.path, issue.keys.map(String))))
        for (const message of messages) add(field, message);
      continue;
    }
    add(issue.path.map(String).join('.') || part, issue.message);
  }
  return errors;
}

/**
 * One shape for every 4xx: `{ message, errors? }` (DESIGN: validation errors). Bad input never
 * becomes a 500: schema failures, list-query failures and malformed bodies are all 400s. A body's
 * unknown member is named as its own field: `{ "Who": ['Unknown field "Who".'] }`.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: issue.instancePath.split('/').filter((segment) => segment !== ''),
        code: issue.keyword,
        message: issue.message ?? 'Invalid value.',
        keys: issue.params.keys,
      }));
      return reply.code(400).send({
        message: VALIDATION_MESSAGE,
        errors: fieldErrors(issues, String(error.validationContext ?? 'request')),
      });
    }
    // A schema a handler applies itself (beyond the route's declared ones) fails the same way.
    const thrown: unknown = error;
    if (thrown instanceof ZodError) {
      return reply.code(400).send({ message: VALIDATION_MESSAGE, errors: fieldErrors(thrown.issues, 'request') });
    }
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    if (error instanceof ListQueryError) return reply.code(400).send({ message: error.message });
    if (thrown instanceof TenantOutOfScopeError) return reply.code(404).send({ message: thrown.message });
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.code(500).send({ message: 'The server could not answer this request.' });
    }
    // A value the database refuses (out of range, a NUL in text, a duplicate key) is the caller's
    // input, not the server's fault; the transaction has rolled back, so nothing was written.
    const sqlState = databaseErrorCode(thrown);
    // The statement timeout (DB_STATEMENT_TIMEOUT_MS) stopped the query: the server is not broken, the request was too costly.
    if (sqlState === '57014')
      return reply
        .code(503)
        .send({ message: 'The request took too long and was stopped. Narrow the filter or try again later.' });
    if (sqlState?.startsWith('22')) return reply.code(400).send({ message: 'A value is out of range or not allowed.' });
    if (sqlState === '23505') return reply.code(409).send({ message: 'An item with the same key already exists.' });
    if (sqlState === '23503') return reply.code(400).send({ message: 'A referenced item does not exist.' });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework-level client errors: malformed JSON, unsupported media type, body too large, rate limit.
      return reply.code(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'The server could not answer this request.' });
  });
}
