import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { notFoundError, pathId, positiveIntId } from './ids';
import { isGuid } from '@cfs/contracts/values/odata';

const GUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

describe('ids from the address', () => {
  it('takes a GUID in either case and nothing around it', () => {
    expect(isGuid(GUID)).toBe(true);
    expect(isGuid(GUID.toUpperCase())).toBe(true);
    expect(isGuid(` ${GUID}`)).toBe(false);
    expect(isGuid(`${GUID}/../../v1/tokens`)).toBe(false);
    expect(isGuid(null)).toBe(false);
    expect(isGuid(undefined)).toBe(false);
  });

  it('takes a positive whole number, and refuses 0, signs, decimals, paths and huge numbers', () => {
    expect(positiveIntId('42')).toBe(42);
    for (const text of [
      '0',
      '-1',
      '+1',
      '1.5',
      '1e3',
      '042',
      '',
      '42/../1',
      '1234567890123456',
      'new',
      null,
      undefined,
    ]) {
      expect(positiveIntId(text)).toBeNull();
    }
  });
});

describe('ids in request paths', () => {
  it('encodes what could leave the segment', () => {
    expect(pathId(42)).toBe('42');
    expect(pathId(GUID)).toBe(GUID);
    expect(pathId('../../v1/tokens')).toBe('..%2F..%2Fv1%2Ftokens');
    expect(pathId('a?b#c')).toBe('a%3Fb%23c');
  });

  it('refuses a segment the browser would resolve (".", "..") as not found', () => {
    for (const text of ['.', '..', '']) {
      expect(() => pathId(text)).toThrow(ApiError);
    }
    expect(notFoundError().status).toBe(404);
  });
});
