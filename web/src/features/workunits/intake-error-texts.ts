import type { RJSFValidationError } from '@rjsf/utils';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const numberOf = (value: unknown) => (typeof value === 'number' ? value : Number(value));

const FORMAT_TEXTS: Readonly<Record<string, string>> = {
  email: 'Please enter a valid email address.',
  date: 'Please enter a valid date.',
  'date-time': 'Please enter a valid date and time.',
  time: 'Please enter a valid time.',
  uri: 'Please enter a valid web address.',
  uuid: 'Please enter a valid GUID.',
  ipv4: 'Please enter a valid IP address.',
};

/** The field's title as the validator message names it ("… property 'Full name'"), else its name. */
function requiredTitle(error: RJSFValidationError): string {
  const named = /'([^']+)'\s*$/.exec(error.message ?? '')?.[1];
  const { missingProperty } = (error.params ?? {}) as { missingProperty?: string };
  return named ?? missingProperty ?? 'This field';
}

/** One validator error in the words of a form, or null when another error of the field says it better. */
function textOf(error: RJSFValidationError): string | null {
  const params = (error.params ?? {}) as Record<string, unknown>;
  switch (error.name) {
    case 'required':
      return `${requiredTitle(error)} is required.`;
    case 'format':
      return FORMAT_TEXTS[String(params.format)] ?? 'Please enter a value in the expected format.';
    case 'pattern':
      return 'Please enter a value in the expected format.';
    case 'type':
      return params.type === 'number' || params.type === 'integer'
        ? 'Please enter a number.'
        : 'Please enter a valid value.';
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf':
      return 'Please choose one of the offered answers.';
    case 'minLength':
      return `Please enter at least ${plural(numberOf(params.limit), 'character')}.`;
    case 'maxLength':
      return `Please enter at most ${plural(numberOf(params.limit), 'character')}.`;
    case 'minimum':
      return `Please enter ${String(params.limit)} or more.`;
    case 'maximum':
      return `Please enter ${String(params.limit)} or less.`;
    case 'exclusiveMinimum':
      return `Please enter more than ${String(params.limit)}.`;
    case 'exclusiveMaximum':
      return `Please enter less than ${String(params.limit)}.`;
    case 'multipleOf':
      return `Please enter a multiple of ${String(params.multipleOf)}.`;
    case 'minItems':
      return `Please add at least ${plural(numberOf(params.limit), 'item')}.`;
    case 'maxItems':
      return `Please add at most ${plural(numberOf(params.limit), 'item')}.`;
    case 'uniqueItems':
      return 'Each item must be different.';
    case 'dependencies':
      return `Please also fill in ${String(params.deps ?? params.missingProperty ?? '')}.`;
    // "must match "then" schema" and the like repeat the error of the field that made them fail.
    case 'if':
    case 'not':
    case 'false schema':
      return null;
    default:
      return 'Please check this answer.';
  }
}

/**
 * The intake wizard's errors in the words of a form ("Full name is required.", "Please enter a
 * valid email address.") instead of the validator's ("must have required property 'Full name'").
 * For react-jsonschema-form's `transformErrors`.
 */
export function intakeErrorTexts(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.flatMap((error) => {
    const text = textOf(error);
    return text === null ? [] : [{ ...error, message: text, stack: `${error.property ?? ''} ${text}`.trim() }];
  });
}
