import { createTheme, type PaletteMode, type Theme } from '@mui/material/styles';
import { BREAKPOINTS } from '@cfs/contracts/constants';

/** A person whose system asks for less motion (WCAG 2.2 §2.3.3, Animation from Interactions). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * Without motion: drawers, dialogs, menus and tooltips appear and go at once, colours change
 * without a transition, and buttons show no ripple. Progress indicators keep turning: they say
 * that something is still under way.
 */
const withoutMotion = {
  transitions: {
    create: () => 'none',
    getAutoHeightDuration: () => 0,
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  },
  components: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
};

/**
 * The portal's MUI theme in light or dark mode, with the spec's breakpoints (spec 000 §9), and
 * without motion when the person's system asks for less (`REDUCED_MOTION_QUERY`).
 */
export function createAppTheme(mode: PaletteMode, { reducedMotion = false }: { reducedMotion?: boolean } = {}): Theme {
  const theme = createTheme({
    breakpoints: { values: { ...BREAKPOINTS } },
    palette: {
      mode,
      primary: { main: mode === 'light' ? '#1f5fa8' : '#7fb2ee' },
      background: mode === 'light' ? { default: '#f5f7fa', paper: '#ffffff' } : { default: '#121417', paper: '#1b1e23' },
    },
    shape: { borderRadius: 6 },
    components: {
      // Labels read as the spec writes them ("Login", "Export Page"), not upper-cased.
      MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } },
    },
  });
  return reducedMotion ? createTheme(theme, withoutMotion) : theme;
}
