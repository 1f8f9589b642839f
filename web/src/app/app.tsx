import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { TOAST_AUTO_HIDE_MS } from '@cfs/contracts/constants';
import { AuthGate } from '../auth/auth-gate';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { ThemeModeProvider } from './theme-mode';

/** Providers in dependency order: theme, toasts, server state, sign-in, then the routes. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <ThemeModeProvider>
      <SnackbarProvider maxSnack={4} autoHideDuration={TOAST_AUTO_HIDE_MS} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
        <QueryClientProvider client={queryClient}>
          <AuthGate>
            <RouterProvider router={router} />
          </AuthGate>
        </QueryClientProvider>
      </SnackbarProvider>
    </ThemeModeProvider>
  );
}
