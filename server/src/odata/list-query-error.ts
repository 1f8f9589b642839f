/**
 * A list request the caller got wrong: unknown field, malformed $filter, type mismatch, bad $top…
 * The message names the problem and is safe to show. `statusCode` lets Fastify's default error
 * handler answer 400 even where no handler maps it to `{ message }` explicitly.
 */
export class ListQueryError extends Error {
  override readonly name = 'ListQueryError';
  readonly statusCode = 400;
}
