import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Ada Lovelace King')).toBe('AL');
    expect(initials('  grace   hopper ')).toBe('GH');
  });

  it('takes one letter from a single word and none from nothing', () => {
    expect(initials('admin')).toBe('A');
    expect(initials('')).toBe('');
  });
});
