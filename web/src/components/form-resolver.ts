import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import {
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';

/**
 * The react-hook-form resolver for a contracts zod schema: each field shows the first message the
 * schema gives for it, word for word. `zodResolver` from @hookform/resolvers differs on unions: it
 * shows the message of the closest union member ("Invalid input: expected 0") instead of the
 * union's own, which is where the contracts put the spec's text (e.g. the token lifetime's
 * "Please choose a lifetime.").
 *
 * Forms take it through `useSchemaForm`.
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

/**
 * A react-hook-form form over a contracts schema: its values are the schema's input, what Save
 * hands on is the schema's output, and its messages come through `schemaResolver`.
 *
 * @example
 *   const form = useSchemaForm(locationInputSchema, valuesOf(location, tenantId));
 */
export function useSchemaForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  defaultValues: NoInfer<DefaultValues<Input>> | undefined,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver' | 'defaultValues'> = {},
): UseFormReturn<Input, unknown, Output> {
  return useForm<Input, unknown, Output>({ ...options, resolver: schemaResolver(schema), defaultValues });
}
