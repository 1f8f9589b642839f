import { createTheme, type PaletteMode, type Theme } from '@mui/material/styles';
import { BREAKPOINTS } from '@cfs/contracts/constants';

/** The portal's MUI theme in light or dark mode, with the spec's breakpoints (spec 000 §9). */
export function createAppTheme(mode: PaletteMode): Theme {
  return createTheme({
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
}
