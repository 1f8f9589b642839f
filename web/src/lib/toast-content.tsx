import { styled } from '@mui/material/styles';
import { MaterialDesignContent } from 'notistack';
import type { ToastLevel } from './toast';

const LEVELS: readonly ToastLevel[] = ['success', 'error', 'warning', 'info'];

/**
 * notistack's toast in the theme's colours: its own (white on #43a047 green, #ff9800 orange,
 * #2196f3 blue) read below WCAG AA's 4.5:1, while the theme's `main` and `contrastText` of each
 * level are held to it (theme.ts) in light and dark mode.
 */
const ThemedToast = styled(MaterialDesignContent)(({ theme }) =>
  Object.fromEntries(
    LEVELS.map((level) => [
      `&.notistack-MuiContent-${level}`,
      { backgroundColor: theme.palette[level].main, color: theme.palette[level].contrastText },
    ]),
  ),
);

/** The `Components` of the `SnackbarProvider`: every level drawn by `ThemedToast`. */
export const TOAST_COMPONENTS = Object.fromEntries(LEVELS.map((level) => [level, ThemedToast]));
