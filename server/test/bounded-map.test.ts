import { describe, expect, it } from 'vitest';
import { keepBounded } from '../src/bounded-map.js';

describe('a bounded in-memory cache', () => {
  it('keeps at most its bound, forgetting the oldest first, and answers the value kept', () => {
    const map = new Map<string, number>();
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) expect(keepBounded(map, key, index, 3)).toBe(index);
    expect([...map.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('replaces a kept key in place without forgetting another', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    keepBounded(map, 'a', 10, 2);
    expect([...map.entries()]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });
});
