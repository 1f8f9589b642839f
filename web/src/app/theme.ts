import { createTheme, type PaletteMode, type Theme } from '@mui/material/styles';
import { BREAKPOINTS } from '@cfs/contracts/constants';

/** A person whose system asks for less motion (WCAG 2.2 §2.3.3, Animation from Interactions). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** The rows a multi-line text field grows to before it scrolls inside. */
export const TEXT_FIELD_MAX_ROWS = 12;

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
      // Text on a coloured fill (a contained button, a filled chip, a toast) takes the palette's
      // contrastText, chosen black or white to reach WCAG AA's 4.5:1; MUI's default of 3 left
      // white on dark mode's red (the Overdue chip) at 3.7:1.
      contrastThreshold: 4.5,
      primary: { main: mode === 'light' ? '#1f5fa8' : '#7fb2ee' },
      background:
        mode === 'light' ? { default: '#f5f7fa', paper: '#ffffff' } : { default: '#121417', paper: '#1b1e23' },
    },
    shape: { borderRadius: 6 },
    components: {
      // Labels read as the spec writes them ("Login", "Export Page"), not upper-cased.
      MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } },
      // A disabled field's helper text still explains the value shown (a read-only action
      // definition's headers, its body's type): kept readable (WCAG AA), not greyed out with the field.
      MuiFormHelperText: {
        styleOverrides: { root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }) },
      },
      // A multi-line box grows with its text up to this many rows, then scrolls inside: a 4,000
      // character note would otherwise push the panel's buttons a screen away. (Single-line
      // fields ignore it.)
      MuiTextField: { defaultProps: { maxRows: TEXT_FIELD_MAX_ROWS } },
    },
  });
  return reducedMotion ? createTheme(theme, withoutMotion) : theme;
}
