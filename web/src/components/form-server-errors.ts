import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../lib/api-client';

/**
 * The field texts of a 400 answer (`{ message, errors: { field: [text] } }`, DESIGN "Rules that
 * hold everywhere"), one entry per field with its texts joined.
 */
export function serverFieldErrors(error: unknown): { field: string; message: string }[] {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.body?.errors) return [];
  return Object.entries(error.body.errors)
    .filter(([, texts]) => texts.length > 0)
    .map(([field, texts]) => ({ field, message: texts.join(' ') }));
}

/** Where a server field's text goes in the form: a field path, or undefined for the form as a whole. */
export type ServerErrorPath<T extends FieldValues> = (serverField: string) => Path<T> | undefined;

/** `root.server`: texts of server fields that the form has no field for; `FormActions` shows them. */
export const SERVER_ROOT_ERROR = 'root.server' as const;

/**
 * Puts the server's field texts on the form's fields: by `path` when given, else on the field of
 * the same name when the form has one; the rest on `root.server`. Returns whether any was set.
 *
 * @example
 *   save.mutateAsync(values).catch((error) => applyServerErrors(form, error));
 */
export function applyServerErrors<T extends FieldValues, TOut>(
  form: UseFormReturn<T, unknown, TOut>,
  error: unknown,
  path?: ServerErrorPath<T>,
): boolean {
  const entries = serverFieldErrors(error);
  const placed = placeServerErrors(entries, path ?? sameNameIn<T>(form.getValues()));
  for (const { path: target, message } of placed.fields) form.setError(target, { type: 'server', message });
  if (placed.root) form.setError(SERVER_ROOT_ERROR, { type: 'server', message: placed.root });
  return entries.length > 0;
}

/** The default placement: the form field of the same name, when the form has one. */
function sameNameIn<T extends FieldValues>(values: Record<string, unknown>): ServerErrorPath<T> {
  return (field) => (Object.hasOwn(values, field) ? (field as Path<T>) : undefined);
}

/** Which text goes on which field, and the texts left for the form as a whole (joined). */
export function placeServerErrors<T extends FieldValues>(
  entries: readonly { field: string; message: string }[],
  path: ServerErrorPath<T>,
): { fields: { path: Path<T>; message: string }[]; root?: string } {
  const fields: { path: Path<T>; message: string }[] = [];
  const unplaced: string[] = [];
  for (const { field, message } of entries) {
    const target = path(field);
    if (target) fields.push({ path: target, message });
    else unplaced.push(message);
  }
  return unplaced.length > 0 ? { fields, root: unplaced.join(' ') } : { fields };
}
