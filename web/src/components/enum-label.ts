import { SHELL_MESSAGES } from '@cfs/contracts/messages';

/**
 * An enum as the contracts declare it: names to values (`{ Sev0: 0, Sev1: 1 }`, `{ Active: 'active' }`),
 * or a TypeScript enum (its numeric reverse entries are ignored).
 */
export type EnumType = Readonly<Record<string, string | number>>;
/** Display texts for names that are not shown as they are (`{ Request: 'User Request' }`). */
export type EnumLabels = Readonly<Partial<Record<string, string>>>;

export class EnumTypeRequiredError extends Error {
  constructor() {
    super(SHELL_MESSAGES.enumTypeRequired);
    this.name = 'EnumTypeRequiredError';
  }
}

const REVERSE_KEY = /^\d+$/;

function entriesOf(enumType: EnumType): [string, string | number][] {
  return Object.entries(enumType).filter(([name]) => !REVERSE_KEY.test(name));
}

/**
 * The text shown for an enum value (spec 000 §5, §8): the name whose value it is, or the name
 * itself when a text field holds names; "unknown" for a value the enum does not have; '' for no
 * value. Without an enum type it is a fault: throws "Enum type required for text type enum."
 *
 * @example
 *   enumLabel(Severity, 0)                          // 'Sev0'
 *   enumLabel(WorkUnitType, 2, { Request: 'User Request' })
 *   enumLabel(Severity, 42)                         // 'unknown'
 */
export function enumLabel(
  enumType: EnumType | undefined,
  value: string | number | null | undefined,
  labels: EnumLabels = {},
): string {
  if (!enumType) throw new EnumTypeRequiredError();
  if (value === null || value === undefined || value === '') return '';
  const entries = entriesOf(enumType);
  const byValue = entries.find(([, candidate]) => candidate === value);
  const name =
    byValue?.[0] ??
    (typeof value === 'string' && entries.some(([candidate]) => candidate === value) ? value : undefined);
  if (name === undefined) return SHELL_MESSAGES.unknownEnum;
  return labels[name] ?? name;
}

/** The options of a select or a grid singleSelect column, in declaration order. */
export function enumOptions(enumType: EnumType, labels: EnumLabels = {}): { value: string | number; label: string }[] {
  return entriesOf(enumType).map(([name, value]) => ({ value, label: labels[name] ?? name }));
}
