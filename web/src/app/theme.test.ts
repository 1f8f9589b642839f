import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { createAppTheme } from './theme';

describe('createAppTheme', () => {
  it('moves as MUI does by default: timed transitions and button ripples', () => {
    const theme = createAppTheme('light');
    expect(theme.transitions.create('opacity')).toContain('opacity');
    expect(theme.transitions.duration.enteringScreen).toBeGreaterThan(0);
    expect(theme.transitions.getAutoHeightDuration(400)).toBeGreaterThan(0);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });

  it('without motion, every transition ends at once and buttons make no ripple, in either mode', () => {
    for (const mode of ['light', 'dark'] as const) {
      const theme = createAppTheme(mode, { reducedMotion: true });
      expect(theme.palette.mode).toBe(mode);
      expect(theme.transitions.create(['background-color', 'box-shadow'])).toBe('none');
      expect(Object.values(theme.transitions.duration)).toEqual(Object.values(theme.transitions.duration).map(() => 0));
      expect(theme.transitions.getAutoHeightDuration(400)).toBe(0);
      expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
      // The rest of the theme is the portal's own.
      expect(theme.components?.MuiButton?.defaultProps?.disableElevation).toBe(true);
      expect(theme.breakpoints.values).toEqual(createAppTheme(mode).breakpoints.values);
    }
  });

  it('in either mode, text on each palette colour (buttons, filled chips, toasts) reads at 4.5:1 or more (WCAG AA)', () => {
    for (const mode of ['light', 'dark'] as const) {
      const { palette } = createAppTheme(mode);
      for (const level of ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const) {
        expect({
          mode,
          level,
          ratio: getContrastRatio(palette[level].contrastText, palette[level].main) >= 4.5,
        }).toEqual({ mode, level, ratio: true });
      }
    }
  });
});
