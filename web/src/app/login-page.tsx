import { lazy, Suspense, useState } from 'react';
import { useParams, useSearchParams } from '../lib/router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PRODUCT_SHORT_NAME } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { useLogin, useRequestAccessEnabled } from '../auth/use-login';
import { useDocumentTitle } from '../lib/document-title';
import { isGuid } from '@cfs/contracts/values/odata';

// Spec 001 §2: the "Request Access or Reset Account" button opens an account request drawer.
const AccessRequestDrawer = lazy(() => import('../features/access-request/access-request-drawer'));

export interface LoginPageProps {
  /** /user/accessDenied: the same page with the no-access notice (spec 000 §2). */
  accessDenied?: boolean;
}

/** /user/login, /{tenantId}/user/login and /user/accessDenied. */
export default function LoginPage({ accessDenied = false }: LoginPageProps) {
  useDocumentTitle('Login');
  const [searchParams] = useSearchParams();
  const { tenantId } = useParams();
  const { login, redirecting, error } = useLogin({
    requestUrl: searchParams.get('requestUrl'),
    fallbackUrl: isGuid(tenantId) ? `/${tenantId}` : '/',
    forceCredentials: accessDenied,
  });
  const requestAccessEnabled = useRequestAccessEnabled();
  const [requestingAccess, setRequestingAccess] = useState(false);

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Paper
        variant="outlined"
        sx={{
          width: '100%',
          maxWidth: 400,
          p: 4,
          display: 'flex',
          flexDirection: 'column',
          gap: 2.5,
          alignItems: 'stretch',
        }}
      >
        <Typography variant="h3" component="h1" align="center" sx={{ fontWeight: 700, letterSpacing: 2 }}>
          {PRODUCT_SHORT_NAME}
        </Typography>
        {accessDenied ? <Alert severity="warning">{SHELL_MESSAGES.accessDenied}</Alert> : null}
        {error && !accessDenied ? <Alert severity="error">{error}</Alert> : null}
        {redirecting ? (
          <Box
            role="status"
            sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1.5, minHeight: 42 }}
          >
            <CircularProgress size={20} />
            <Typography>{SHELL_MESSAGES.redirecting}</Typography>
          </Box>
        ) : (
          <Button variant="contained" size="large" onClick={login}>
            Login
          </Button>
        )}
        {requestAccessEnabled ? (
          <Button variant="outlined" onClick={() => setRequestingAccess(true)}>
            Request Access or Reset Account
          </Button>
        ) : null}
      </Paper>
      {requestingAccess ? (
        <Suspense fallback={null}>
          <AccessRequestDrawer open onClose={() => setRequestingAccess(false)} />
        </Suspense>
      ) : null}
    </Box>
  );
}

export function AccessDeniedPage() {
  return <LoginPage accessDenied />;
}
