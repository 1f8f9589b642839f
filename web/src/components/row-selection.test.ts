import { describe, expect, it } from 'vitest';
import { selectedIds, toSelectionModel } from './row-selection';

describe('the rows a bulk action works on', () => {
  it('takes the checked ids as they are', () => {
    expect(selectedIds(toSelectionModel([3, 1]), [1, 2, 3], [])).toEqual([3, 1]);
  });

  it('reads "all but these" from the header checkbox as the rows on screen, keeping those of other pages', () => {
    expect(selectedIds({ type: 'exclude', ids: new Set([2]) }, [1, 2, 3], [9, 1])).toEqual([9, 1, 3]);
  });
});
