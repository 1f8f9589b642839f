import { Navigate } from '../lib/router';
import { useSignIn } from './sign-in';
import { FullPageStatus } from '../lib/full-page-status';
import { LOGIN_PATH, readSignInState } from './sign-in-paths';

/**
 * /user/callback: the sign-in library exchanges the code on load (oidc-bridge.tsx); this page then
 * returns to the requestUrl carried in the sign-in state, or home. A failure goes to the login
 * page, which shows the error.
 */
export default function CallbackPage() {
  const auth = useSignIn();
  if (auth.isLoading) return <FullPageStatus message="Signing you in..." />;
  if (auth.user && !auth.error) return <Navigate to={readSignInState(auth.user.state)?.requestUrl ?? '/'} replace />;
  return <Navigate to={LOGIN_PATH} replace />;
}
