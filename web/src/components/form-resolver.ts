import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * The react-hook-form resolver for a contracts zod schema: each field shows the first message the
 * schema gives for it, word for word. `zodResolver` from @hookform/resolvers differs on unions: it
 * shows the message of the closest union member ("Invalid input: expected 0") instead of the
 * union's own, which is where the contracts put the spec's text (e.g. the token lifetime's
 * "Please choose a lifetime.").
 *
 * @example
 *   const form = useForm<z.input<typeof tokenCreateSchema>, unknown, z.output<typeof tokenCreateSchema>>({
 *     resolver: schemaResolver(tokenCreateSchema),
 *     defaultValues,
 *   });
 */
export function schemaResolver<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
): Resolver<Input, unknown, Output> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) {
      if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
      return { values: result.data, errors: {} };
    }
    return { values: {}, errors: toNestErrors(schemaFieldErrors(result.error.issues), options) as FieldErrors<Input> };
  };
}

/** The first issue per field path (`customFields.1.Name`); a whole-form issue goes to `root`. */
export function schemaFieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.') || 'root';
    errors[path] ??= { type: issue.code, message: issue.message };
  }
  return errors;
}
