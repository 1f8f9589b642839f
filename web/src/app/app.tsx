import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { QueryClientProvider } from '@tanstack/react-query';
import GlobalStyles from '@mui/material/GlobalStyles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { SnackbarProvider } from 'notistack';
import { BREAKPOINTS } from '@cfs/contracts/constants';
import { AuthGate } from '../auth/auth-gate';
import { createQueryClient } from '../lib/query-client';
import { TOAST_COMPONENTS } from '../lib/toast-content';
import { createAppRouter } from './router';
import { ThemeModeProvider, useReducedMotion } from './theme-mode';

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

/** Providers in dependency order: theme, toasts, server state, sign-in, then the routes. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  // Toasts appear and go at once for a person whose system asks for less motion.
  const reducedMotion = useReducedMotion();
  const narrow = useMediaQuery(NARROW, { noSsr: true });
  return (
    <ThemeModeProvider>
      <GlobalStyles styles={narrowToasts} />
      {/* Bottom left: clear of the drawers (anchored right, their titles at the top and Save at the
          bottom) and of the grids' pagers (low and to the right). A phone's drawer is the whole
          width: there the toast sits under its title bar. Each toast times its own hiding (lib/toast.ts). */}
      <SnackbarProvider
        maxSnack={4}
        Components={TOAST_COMPONENTS}
        autoHideDuration={null}
        anchorOrigin={narrow ? { vertical: 'top', horizontal: 'center' } : { vertical: 'bottom', horizontal: 'left' }}
        {...(reducedMotion ? { transitionDuration: 0 } : {})}
      >
        <QueryClientProvider client={queryClient}>
          <AuthGate>
            <RouterProvider router={router} />
          </AuthGate>
        </QueryClientProvider>
      </SnackbarProvider>
    </ThemeModeProvider>
  );
}
