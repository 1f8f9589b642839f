import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { QueryClientProvider } from '@tanstack/react-query';
import GlobalStyles from '@mui/material/GlobalStyles';
import { SnackbarProvider } from 'notistack';
import { BREAKPOINTS } from '@cfs/contracts/constants';
import { AuthGate } from '../auth/auth-gate';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { ThemeModeProvider, useReducedMotion } from './theme-mode';

/**
 * On a narrow screen a toast would span the header row: it leaves the row's end buttons free
 * (the menu button, a full-width drawer's close button).
 */
const narrowToasts = {
  [`@media (max-width: ${BREAKPOINTS.sm - 0.05}px)`]: {
    'body .notistack-SnackbarContainer': { maxWidth: 'calc(100% - 128px)' },
    'body .notistack-SnackbarContainer .notistack-Snackbar': { minWidth: 0 },
  },
};

/** Providers in dependency order: theme, toasts, server state, sign-in, then the routes. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  // Toasts appear and go at once for a person whose system asks for less motion.
  const reducedMotion = useReducedMotion();
  return (
    <ThemeModeProvider>
      <GlobalStyles styles={narrowToasts} />
      {/* Top centre: clear of the drawers' Save buttons and of the grids' pagers, which sit low and
          to the right. Each toast times its own hiding (lib/toast.ts). */}
      <SnackbarProvider
        maxSnack={4}
        autoHideDuration={null}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
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
