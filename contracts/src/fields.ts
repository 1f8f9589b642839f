import { z } from 'zod';
import { ID_PARAM_MESSAGE, INVALID_DATE_MESSAGE } from './values/fields.js';
/** The fields' values (patterns, messages) live beside, free of the schema library. */
export * from './values/fields.js';

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
export const dbIdParam = z.coerce
  .number({ error: ID_PARAM_MESSAGE })
  .int(ID_PARAM_MESSAGE)
  .positive(ID_PARAM_MESSAGE)
  .max(MAX_DB_INTEGER, ID_PARAM_MESSAGE);

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

/**
 * An optional text field that, when filled, must match a pattern; empty text counts as not given.
 *
 * @example optionalMatching(EMAIL_PATTERN, 'Please enter a valid email address.', 320)
 */
export function optionalMatching(pattern: RegExp, message: string, max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => value.trim() === '' || pattern.test(value.trim()), message)
    .nullable()
    .optional();
}

/**
 * An instant as the wire writes it, ISO 8601 with seconds and an offset or `Z`
 * (`2026-11-29T12:00:00Z`), read as a Date: no number, no year of more than four digits, no date
 * the server's own time zone would complete, each of which `new Date()` takes. One that is not
 * stops the checks of the object that holds it (a comparison with another time says nothing then).
 */
export const instant = (message: string = INVALID_DATE_MESSAGE) =>
  z.iso.datetime({ offset: true, error: message, abort: true }).transform((text) => new Date(text));

/** Time zones the runtime knows (IANA, from its own tables). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Required text of at most `max` characters, trimmed: missing or blank answers `message`, and
 * longer text says how long it may be (not that it is missing).
 */
export const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters.`);

/** Optional text of at most `max` characters, trimmed; left out or empty, it is null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((value) => (value === undefined || value === '' ? null : value));
