import { describe, expect, it } from 'vitest';
import { TENANT_MESSAGES } from '@cfs/contracts/values/tenants';
import {
  customFieldColumnsFromRows,
  customFieldRowsFromTenant,
  emptyCustomFieldRow,
  joinAssignmentGroups,
  splitAssignmentGroups,
  tenantFormSchema,
  tenantFormValues,
  tenantServerErrorPath,
  toTenantInput,
  type CustomFieldRow,
  type TenantFormValues,
} from './tenant-form-values';

const region: CustomFieldRow = { column: 'workUnitField1', Name: 'Region', Type: 1, Options: '' };
const priority: CustomFieldRow = { column: 'workUnitField3', Name: 'Priority', Type: 2, Options: 'Low, High' };

function formValues(overrides: Partial<TenantFormValues> = {}): TenantFormValues {
  return { ...tenantFormValues(undefined), name: 'Northwind', ...overrides };
}

/** The messages of each failing path, e.g. `{ 'customFields.1.column': [...] }`. */
function messages(values: TenantFormValues): Record<string, string[]> {
  const result = tenantFormSchema.safeParse(values);
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (byPath[issue.path.join('.')] ??= []).push(issue.message);
  return byPath;
}

describe('custom field rows ↔ workUnitField1..15 JSON (spec 001 §3 Tenant)', () => {
  it('reads the stored columns as rows in column order, skipping empty columns', () => {
    const rows = customFieldRowsFromTenant({
      workUnitField3: '{"Name":"Priority","Type":2,"Options":"Low,High"}',
      workUnitField1: '{"Name":"Region","Type":1,"Options":""}',
      workUnitField2: null,
    });
    expect(rows).toEqual([
      { column: 'workUnitField1', Name: 'Region', Type: 1, Options: '' },
      { column: 'workUnitField3', Name: 'Priority', Type: 2, Options: 'Low,High' },
    ]);
  });

  it('keeps a column whose text is not a definition as a row without a name, so the slot shows as taken', () => {
    expect(customFieldRowsFromTenant({ workUnitField5: 'not json' })).toEqual([
      { column: 'workUnitField5', Name: '', Type: 1, Options: '' },
    ]);
    expect(customFieldRowsFromTenant({ workUnitField6: '{"Name":"Size"}' })).toEqual([
      { column: 'workUnitField6', Name: 'Size', Type: 1, Options: '' },
    ]);
  });

  it('writes every column: a definition where a row is, null elsewhere; dropdown options trimmed, a text box without options', () => {
    const columns = customFieldColumnsFromRows([
      region,
      priority,
      { column: 'workUnitField15', Name: ' Notes ', Type: 1, Options: 'ignored' },
    ]);
    expect(Object.keys(columns)).toHaveLength(15);
    expect(JSON.parse(columns.workUnitField1 ?? '')).toEqual({ Name: 'Region', Type: 1, Options: '' });
    expect(JSON.parse(columns.workUnitField3 ?? '')).toEqual({ Name: 'Priority', Type: 2, Options: 'Low,High' });
    expect(JSON.parse(columns.workUnitField15 ?? '')).toEqual({ Name: 'Notes', Type: 1, Options: '' });
    expect(columns.workUnitField2).toBeNull();
    expect(columns.workUnitField14).toBeNull();
  });

  it('reads back what it writes', () => {
    const rows = [region, { ...priority, Options: 'Low,High' }];
    expect(customFieldRowsFromTenant(customFieldColumnsFromRows(rows))).toEqual(rows);
  });
});

describe('tenant form validation (spec 001 §5 Tenant)', () => {
  it('accepts a tenant with a name, no custom fields and no intake schema', () => {
    expect(messages(formValues())).toEqual({});
  });

  it('rejects an empty name with "Please enter a name."', () => {
    expect(messages(formValues({ name: '  ' }))).toEqual({ name: [TENANT_MESSAGES.nameRequired] });
  });

  it('rejects two rows on the same column with "Can not have duplicate custom fields." on both', () => {
    expect(messages(formValues({ customFields: [region, { ...priority, column: 'workUnitField1' }] }))).toEqual({
      'customFields.0.column': [TENANT_MESSAGES.duplicateCustomFields],
      'customFields.1.column': [TENANT_MESSAGES.duplicateCustomFields],
    });
  });

  it('rejects two rows with the same name, whatever the case, as the server does', () => {
    expect(messages(formValues({ customFields: [region, { ...priority, Name: ' region ' }] }))).toEqual({
      'customFields.0.Name': [TENANT_MESSAGES.duplicateCustomFields],
      'customFields.1.Name': [TENANT_MESSAGES.duplicateCustomFields],
    });
  });

  it('asks for a column, a name, and the options of a dropdown', () => {
    expect(messages(formValues({ customFields: [{ ...emptyCustomFieldRow, Type: 2 }] }))).toEqual({
      'customFields.0.column': [TENANT_MESSAGES.customFieldColumnRequired],
      'customFields.0.Name': [TENANT_MESSAGES.customFieldNameRequired],
      'customFields.0.Options': [TENANT_MESSAGES.customFieldOptionsRequired],
    });
    expect(messages(formValues({ customFields: [{ ...priority, Options: ' , ' }] }))).toEqual({
      'customFields.0.Options': [TENANT_MESSAGES.customFieldOptionsRequired],
    });
  });

  it('allows at most 15 custom fields', () => {
    const sixteen = Array.from({ length: 16 }, (_, i) => ({ ...region, column: null, Name: `Field ${i}` }));
    expect(Object.keys(messages(formValues({ customFields: sixteen })))).toContain('customFields');
  });

  it('rejects an intake wizard form that is not JSON with "The intake wizard form must be JSON."; empty is allowed', () => {
    expect(messages(formValues({ intakeWizardSchema: '{ "type": ' }))).toEqual({
      intakeWizardSchema: [TENANT_MESSAGES.intakeSchemaNotJson],
    });
    expect(messages(formValues({ intakeWizardSchema: '  ' }))).toEqual({});
    expect(messages(formValues({ intakeWizardSchema: '{"type":"object"}' }))).toEqual({});
  });

  it('rejects an email address that is not one, and accepts none', () => {
    expect(messages(formValues({ internalNotificationEmailAddress: 'noc' }))).toEqual({
      internalNotificationEmailAddress: [TENANT_MESSAGES.invalidEmail],
    });
    expect(messages(formValues({ internalNotificationEmailAddress: '' }))).toEqual({});
  });
});

describe('the tenant sent to PUT/POST v1/tenants', () => {
  it('trims, sends null for no email and no intake schema, joins the assignment groups and writes all 15 columns', () => {
    const input = toTenantInput(
      formValues({
        name: ' Northwind ',
        internalNotificationEmailAddress: ' ',
        assignmentGroups: ['Tier 1', ' Tier 2 '],
        customFields: [region],
        intakeWizardSchema: ' ',
      }),
    );
    expect(input).toMatchObject({
      name: 'Northwind',
      internalNotificationEmailAddress: null,
      enabled: true,
      assignmentGroups: 'Tier 1,Tier 2',
      intakeWizardSchema: null,
    });
    expect(JSON.parse(input.workUnitField1 ?? '')).toEqual({ Name: 'Region', Type: 1, Options: '' });
    expect(input.workUnitField2).toBeNull();
  });

  it('starts a form from a tenant: chips from the comma text, rows from the columns', () => {
    const values = tenantFormValues({
      name: 'Contoso',
      internalNotificationEmailAddress: null,
      enabled: false,
      assignmentGroups: 'Service Desk, Network,,Service Desk',
      intakeWizardSchema: null,
      versionPolicyDays: 14,
      workUnitField2: '{"Name":"Region","Type":1,"Options":""}',
    });
    expect(values).toEqual({
      name: 'Contoso',
      internalNotificationEmailAddress: '',
      enabled: false,
      assignmentGroups: ['Service Desk', 'Network'],
      customFields: [{ column: 'workUnitField2', Name: 'Region', Type: 1, Options: '' }],
      intakeWizardSchema: '',
      versionPolicyDays: '14',
    });
  });

  it('splits and joins assignment groups without blanks or repeats', () => {
    expect(splitAssignmentGroups(' a, b ,,a ')).toEqual(['a', 'b']);
    expect(splitAssignmentGroups(null)).toEqual([]);
    expect(joinAssignmentGroups([' a ', '', 'b'])).toBe('a,b');
  });
});

describe('server field texts on the tenant form', () => {
  const rows = [region, priority];

  it('puts a workUnitFieldN text on the name of the row stored in column N', () => {
    expect(tenantServerErrorPath(rows, 'workUnitField3')).toBe('customFields.1.Name');
    expect(tenantServerErrorPath(rows, 'workUnitField1')).toBe('customFields.0.Name');
  });

  it('puts a column no row uses on the Additional Fields list, form fields on themselves, anything else nowhere', () => {
    expect(tenantServerErrorPath(rows, 'workUnitField9')).toBe('customFields');
    expect(tenantServerErrorPath(rows, 'intakeWizardSchema')).toBe('intakeWizardSchema');
    expect(tenantServerErrorPath(rows, 'name')).toBe('name');
    expect(tenantServerErrorPath(rows, 'tenantId')).toBeUndefined();
    expect(tenantServerErrorPath(rows, 'constructor')).toBeUndefined();
  });
});
