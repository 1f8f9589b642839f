import type { CustomField } from '../tenants.js';

/** Tenants, their subscriptions and secrets (spec 001 §3 Tenant, Subscription; §5; §7; §8). */
export const TENANT_MESSAGES = {
  saveFailed: 'Unable to save tenant, please try again.',
  /** Not in the spec, which names the failure only. */
  saved: (name: string) => `Tenant ${name} saved.`,
  subscriptionSaveFailed: 'A problem occured saving the tenant subscription. Please try again.',
  nameRequired: 'Please enter a name.',
  duplicateCustomFields: 'Can not have duplicate custom fields.',
  customFieldColumnRequired: 'Please choose a column.',
  customFieldNameRequired: 'Please enter a field name.',
  customFieldOptionsRequired: 'Please enter the options of the dropdown, separated by commas.',
  intakeSchemaNotJson: 'The intake wizard form must be JSON.',
  invalidEmail: 'Please enter a valid email address.',
} as const;

export const CUSTOM_FIELD_COUNT = 15;
export const CUSTOM_FIELD_TYPES = { Textbox: 1, Dropdown: 2 } as const;
export const customFieldColumns = [
  'workUnitField1',
  'workUnitField2',
  'workUnitField3',
  'workUnitField4',
  'workUnitField5',
  'workUnitField6',
  'workUnitField7',
  'workUnitField8',
  'workUnitField9',
  'workUnitField10',
  'workUnitField11',
  'workUnitField12',
  'workUnitField13',
  'workUnitField14',
  'workUnitField15',
] as const;
export type CustomFieldColumn = (typeof customFieldColumns)[number];

/** The options of a dropdown custom field, trimmed and without blanks. */
export function customFieldOptions(field: Pick<CustomField, 'Options'>): string[] {
  return (field.Options ?? '')
    .split(',')
    .map((option) => option.trim())
    .filter(Boolean);
}

/** Not in the spec: what a disabled tenant answers to new work (work units, tokens, later device credentials and packets). */
export const TENANT_DISABLED_MESSAGE =
  'The tenant is disabled; it takes no new work. An administrator can enable it again.';

/** Not in the spec: the tenant's version policy (devices run the Latest within N days of its release). */
export const VERSION_POLICY_MAX_DAYS = 3650;
export const VERSION_POLICY_DAYS_MESSAGE = `Please enter a whole number of days from 0 to ${VERSION_POLICY_MAX_DAYS}, or leave it empty for no policy.`;
