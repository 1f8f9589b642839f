import { lazy, Suspense, useState } from 'react';
import { RouterProvider } from '../lib/router';
import { FullPageStatus } from '../lib/full-page-status';
import { QueryClientProvider } from '@tanstack/react-query';
import { AuthGate } from '../auth/auth-gate';
import { createQueryClient } from '../lib/query-client';
import { useToastHostWanted } from '../lib/toast';
import { RouteError } from './route-error';
import { createAppRouter } from './router';
import { ThemeModeProvider } from './theme-mode';

/** Draws the toasts; loaded with the first one (lib/toast.ts). */
const ToastHost = lazy(() => import('./toast-host'));

/** Providers in dependency order: theme, server state, sign-in, then the routes; the toasts' host beside them once wanted. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  const toastHostWanted = useToastHostWanted();
  return (
    <ThemeModeProvider>
      {toastHostWanted && (
        <Suspense fallback={null}>
          <ToastHost />
        </Suspense>
      )}
      <QueryClientProvider client={queryClient}>
        <AuthGate>
          <RouterProvider
            router={router}
            fallback={<FullPageStatus message="Loading..." />}
            errorElement={(error) => <RouteError error={error} />}
          />
        </AuthGate>
      </QueryClientProvider>
    </ThemeModeProvider>
  );
}
