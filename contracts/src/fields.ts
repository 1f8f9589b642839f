import { z } from 'zod';

/**
 * Field types input schemas build on, so bad input is refused with a 400 before it reaches the
 * database: ids within PostgreSQL's integer range, GUIDs compared in one case. (Text the database
 * cannot hold, such as NUL characters, is refused by the error handler's database-error mapping.)
 */
export const MAX_DB_INTEGER = 2_147_483_647;

/** A database row id (integer column). */
export function dbId(message?: string) {
  const base = message ? z.number({ error: message }) : z.number();
  return base.int(message).positive(message).max(MAX_DB_INTEGER, message);
}

/** An id in a path: digits only, within range. */
export const dbIdParam = z.coerce.number().int().positive().max(MAX_DB_INTEGER);

/**
 * A GUID, lower-cased on the way in so that comparisons and stored values never differ by case
 * alone. A codec, not a transform, so that the same schema also describes (encodes) answers.
 */
export function guid(message?: string) {
  return z.codec(message ? z.uuid({ error: message }) : z.uuid(), z.uuid(), {
    decode: (value) => value.toLowerCase(),
    encode: (value) => value,
  });
}
