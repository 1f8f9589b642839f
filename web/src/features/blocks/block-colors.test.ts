import { describe, expect, it } from 'vitest';
import { BLOCK_COLORS } from '@cfs/contracts/monitoring';
import { tileColors } from './block-colors';

describe('tile colours', () => {
  it.each([
    ['Black', '#FFFFFF'],
    ['Blue', '#FFFFFF'],
    ['Green', '#000000'],
    ['Grey', '#000000'],
    ['Orange', '#000000'],
    ['Red', '#000000'],
    ['White', '#000000'],
    ['Yellow', '#000000'],
  ] as const)('writes on %s in the colour that contrasts more (%s)', (name, text) => {
    expect(tileColors(BLOCK_COLORS[name])).toEqual({ background: `#${BLOCK_COLORS[name]}`, text, name });
  });

  it('keeps the theme for no colour or one that is not hex', () => {
    expect(tileColors(null)).toBeNull();
    expect(tileColors('red')).toBeNull();
    expect(tileColors('#FF0000')).toBeNull();
  });

  it('names a colour outside the palette by its hex', () => {
    expect(tileColors('123456')?.name).toBe('#123456');
  });
});
