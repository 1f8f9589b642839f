import { BLOCK_COLORS } from '@cfs/contracts/monitoring';

const HEX = /^[0-9A-F]{6}$/i;

/** The relative luminance of a hex colour (WCAG 2), 0 for black to 1 for white. */
export function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/**
 * A tile's colours from its entity's colour (spec 002 §9 block colours, hex without '#'): the
 * background, and black or white text, whichever contrasts more with it. Null for no colour
 * (or one that is not hex): the tile keeps the theme's.
 */
export function tileColors(
  color: string | null | undefined,
): { background: string; text: string; name: string } | null {
  if (!color || !HEX.test(color)) return null;
  const hex = color.toUpperCase();
  const light = luminance(hex);
  // Contrast against black is (L + 0.05) / 0.05, against white 1.05 / (L + 0.05): black wins above L ≈ 0.179.
  const text = (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) ? '#000000' : '#FFFFFF';
  const name = Object.entries(BLOCK_COLORS).find(([, value]) => value === hex)?.[0] ?? `#${hex}`;
  return { background: `#${hex}`, text, name };
}
