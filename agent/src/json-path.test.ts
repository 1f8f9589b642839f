import { describe, expect, it } from 'vitest';
import { parseJsonPath, readJsonPath } from './json-path.js';

const document = {
  status: { healthy: true, 'odd key': 7 },
  items: [{ price: 10.5 }, { price: 12 }],
  count: 0,
  empty: null,
};

describe('readJsonPath', () => {
  it('reads members and indexes with or without the leading $', () => {
    expect(readJsonPath(document, '$.items[1].price')).toEqual({ found: true, value: 12 });
    expect(readJsonPath(document, 'items[0].price')).toEqual({ found: true, value: 10.5 });
    expect(readJsonPath(document, '$.status.healthy')).toEqual({ found: true, value: true });
  });

  it('reads quoted member names and counts negative indexes from the end', () => {
    expect(readJsonPath(document, "$.status['odd key']")).toEqual({ found: true, value: 7 });
    expect(readJsonPath(document, '$["items"][-1].price')).toEqual({ found: true, value: 12 });
  });

  it('tells a missing value from a value that is falsy', () => {
    expect(readJsonPath(document, '$.count')).toEqual({ found: true, value: 0 });
    expect(readJsonPath(document, '$.empty')).toEqual({ found: true, value: null });
    expect(readJsonPath(document, '$.missing')).toEqual({ found: false });
    expect(readJsonPath(document, '$.items[5].price')).toEqual({ found: false });
    expect(readJsonPath(document, '$.count.deeper')).toEqual({ found: false });
  });

  it('returns the whole document for $ and does not walk into inherited members', () => {
    expect(readJsonPath(document, '$')).toEqual({ found: true, value: document });
    expect(readJsonPath(document, '$.constructor')).toEqual({ found: false });
  });

  it('refuses paths it does not understand instead of guessing (filters and scripts are not run)', () => {
    expect(() => parseJsonPath('$.items[?(@.price > 10)]')).toThrow(/not valid/);
    expect(() => parseJsonPath('$..price')).toThrow(/not valid/);
  });
});
