import { describe, expect, it } from 'vitest';
import { enumLabel, enumOptions, EnumTypeRequiredError } from './enum-label';

const Severity = { Sev0: 0, Sev1: 1, Sev2: 2, Sev3: 3, Sev4: 4 } as const;
const WorkUnitType = { Incident: 1, ChangeRequest: 2, Request: 3 } as const;
const Status = { Active: 'active', Done: 'done' } as const;
enum ResultStatus {
  Unknown = 0,
  Success = 1,
  Failure = 2,
}

describe('enumLabel', () => {
  it('shows the name of a numeric value', () => {
    expect(enumLabel(Severity, 0)).toBe('Sev0');
    expect(enumLabel(Severity, 4)).toBe('Sev4');
  });

  it('shows the name of a text value, and a name held as text', () => {
    expect(enumLabel(Status, 'done')).toBe('Done');
    expect(enumLabel(Severity, 'Sev2')).toBe('Sev2');
  });

  it('uses a display text where one is given', () => {
    expect(enumLabel(WorkUnitType, 3, { Request: 'User Request' })).toBe('User Request');
    expect(enumLabel(WorkUnitType, 2, { Request: 'User Request' })).toBe('ChangeRequest');
  });

  it('shows "unknown" for a value the enum does not have', () => {
    expect(enumLabel(Severity, 42)).toBe('unknown');
    expect(enumLabel(Status, 'archived')).toBe('unknown');
    expect(enumLabel(Severity, '0')).toBe('unknown');
  });

  it('shows nothing for no value', () => {
    expect(enumLabel(Severity, null)).toBe('');
    expect(enumLabel(Severity, undefined)).toBe('');
    expect(enumLabel(Severity, '')).toBe('');
  });

  it('reads TypeScript enums without their reverse entries', () => {
    expect(enumLabel(ResultStatus, 1)).toBe('Success');
    expect(enumLabel(ResultStatus, '1')).toBe('unknown');
  });

  it('throws "Enum type required for text type enum." without an enum type', () => {
    expect(() => enumLabel(undefined, 'Sev0')).toThrow('Enum type required for text type enum.');
    expect(() => enumLabel(undefined, 1)).toThrow(EnumTypeRequiredError);
  });
});

describe('enumOptions', () => {
  it('lists the options in declaration order with their display texts', () => {
    expect(enumOptions(WorkUnitType, { Request: 'User Request' })).toEqual([
      { value: 1, label: 'Incident' },
      { value: 2, label: 'ChangeRequest' },
      { value: 3, label: 'User Request' },
    ]);
    expect(enumOptions(ResultStatus).map((option) => option.label)).toEqual(['Unknown', 'Success', 'Failure']);
  });
});
