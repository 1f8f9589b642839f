import { useEffect } from 'react';
import GlobalStyles from '@mui/material/GlobalStyles';
import { styled } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { closeSnackbar, enqueueSnackbar, MaterialDesignContent, SnackbarProvider } from 'notistack';
import { BREAKPOINTS } from '@cfs/contracts/constants';
import { attachToastHost, showOncePerText, type ToastLevel } from '../lib/toast';
import { useReducedMotion } from './theme-mode';

/*
 * Where toasts are drawn: notistack's provider, loaded with the first toast (lib/toast.ts), so the
 * first screen paints without it.
 */

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
const TOAST_COMPONENTS = Object.fromEntries(LEVELS.map((level) => [level, ThemedToast]));

/**
 * On a narrow screen a toast would span the header row: it leaves the row's end buttons free
 * (the menu button, a full-width drawer's close button).
 */
const NARROW = `(max-width: ${BREAKPOINTS.sm - 0.05}px)`;

const narrowToasts = {
  [`@media ${NARROW}`]: {
    // Below the header and the drawers' title bar (56 px), which a toast at the very top covered.
    'body .notistack-SnackbarContainer': { maxWidth: 'calc(100% - 128px)', top: 64 },
    'body .notistack-SnackbarContainer .notistack-Snackbar': { minWidth: 0 },
  },
};

export default function ToastHost() {
  // Toasts appear and go at once for a person whose system asks for less motion.
  const reducedMotion = useReducedMotion();
  const narrow = useMediaQuery(NARROW, { noSsr: true });
  useEffect(
    () =>
      attachToastHost(
        showOncePerText({
          draw: (key, variant, message, { appeared, leaving }) =>
            enqueueSnackbar(message, {
              key,
              variant,
              // notistack's own timer stops while the pointer rests on a toast, and a toast that
              // appears under the pointer (which has just clicked Save) then never goes: the toast
              // keeps the spec's time from when it appears instead.
              autoHideDuration: null,
              onEnter: appeared,
              onClose: leaving,
            }),
          close: closeSnackbar,
        }),
      ),
    [],
  );
  return (
    <>
      <GlobalStyles styles={narrowToasts} />
      {/* Bottom left: clear of the drawers (anchored right, their titles at the top and Save at the
          bottom) and of the grids' pagers (low and to the right). A phone's drawer is the whole
          width: there the toast sits under its title bar. Each toast times its own hiding. */}
      <SnackbarProvider
        maxSnack={4}
        Components={TOAST_COMPONENTS}
        autoHideDuration={null}
        anchorOrigin={narrow ? { vertical: 'top', horizontal: 'center' } : { vertical: 'bottom', horizontal: 'left' }}
        {...(reducedMotion ? { transitionDuration: 0 } : {})}
      />
    </>
  );
}
