import { describe, expect, test } from 'vitest';
import {
  actionFormValues,
  canAddTestPair,
  durationText,
  headerLines,
  isReadOnlyAction,
  testBody,
} from './action-definition-values';

describe('action definition form values', () => {
  test('a new action is POST with no type chosen and the route tenant', () => {
    const values = actionFormValues(undefined, '2f1c1d0e-1111-4aaa-8bbb-000000000001');
    expect(values.httpMethod).toBe('POST');
    expect(values.actionDefinitionTypeId).toBeUndefined();
    expect(values.tenantId).toBe('2f1c1d0e-1111-4aaa-8bbb-000000000001');
  });

  test('built-in types 1, 5 and 6 are read-only, user types are not', () => {
    for (const type of [1, 5, 6]) expect(isReadOnlyAction({ actionDefinitionTypeId: type })).toBe(true);
    for (const type of [2, 3, 4]) expect(isReadOnlyAction({ actionDefinitionTypeId: type })).toBe(false);
    expect(isReadOnlyAction(undefined)).toBe(false);
  });
});

describe('test body', () => {
  test('sends every named parameter, blank ones empty, and only extra pairs that name a parameter', () => {
    const body = testBody(
      'Host, Port',
      { Host: 'db1' },
      [
        { param: ' Region ', value: 'eu' },
        { param: '', value: 'ignored' },
      ],
      null,
    );
    expect(body).toEqual({ parameters: { Host: 'db1', Port: '' }, extra: [{ param: 'Region', value: 'eu' }] });
  });

  test('carries the tenant when the action has one', () => {
    expect(testBody(null, {}, [], 'tenant-1').tenantId).toBe('tenant-1');
  });

  test('offers at most seven extra pairs', () => {
    const pairs = Array.from({ length: 7 }, (_, index) => ({ param: `P${index}`, value: '' }));
    expect(canAddTestPair(pairs.slice(0, 6))).toBe(true);
    expect(canAddTestPair(pairs)).toBe(false);
    expect(testBody(null, {}, [...pairs, { param: 'P7', value: '' }], null).extra).toHaveLength(7);
  });
});

describe('run details', () => {
  test('headers as Name: Value lines and durations in ms or s', () => {
    expect(headerLines({ 'Content-Type': 'application/json', 'X-Id': '7' })).toBe(
      'Content-Type: application/json\nX-Id: 7',
    );
    expect(headerLines(null)).toBe('');
    expect(durationText(840)).toBe('840 ms');
    expect(durationText(2400)).toBe('2.4 s');
    expect(durationText(null)).toBe('—');
  });
});
