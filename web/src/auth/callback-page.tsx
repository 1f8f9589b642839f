import { Navigate } from 'react-router';
import { useAuth } from 'react-oidc-context';
import { FullPageStatus } from '../lib/full-page-status';
import { LOGIN_PATH, readSignInState } from './sign-in-paths';

/**
 * /user/callback: the provider (react-oidc-context) exchanges the code on load; this page then
 * returns to the requestUrl carried in the sign-in state, or home. A failure goes to the login
 * page, which shows the error.
 */
export default function CallbackPage() {
  const auth = useAuth();
  if (auth.isLoading) return <FullPageStatus message="Signing you in..." />;
  if (auth.user && !auth.error) return <Navigate to={readSignInState(auth.user.state)?.requestUrl ?? '/'} replace />;
  return <Navigate to={LOGIN_PATH} replace />;
}
