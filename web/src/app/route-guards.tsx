import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { RequireSignIn } from '../auth/require-sign-in';
import { useCurrentUser, usePermissions } from '../auth/session-data';
import { ACCESS_DENIED_PATH } from '../auth/sign-in-paths';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import Alert from '@mui/material/Alert';
import { isGuid } from '../lib/ids';
import { belongsInResolutionCenter, canOpen, requirementsForPath } from './menu';
import { namesTenantArea, tenantAreaRedirect } from './tenant-path';

const NotFoundPage = lazy(() => import('./not-found-page'));

/**
 * `/`: the user's tenant home, or the Resolution Center for a user who holds only
 * WorkUnits:view:mine (spec 000 §2, §6).
 */
export function RootRedirect() {
  const permissions = usePermissions();
  const { tenantId } = useCurrentUser();
  if (belongsInResolutionCenter(permissions)) return <Navigate to="/resolutioncenter" replace />;
  // A user without a tenant has nowhere to work.
  return <Navigate to={tenantId ? `/${tenantId}` : ACCESS_DENIED_PATH} replace />;
}

/** `/{tenantId}` home, except for Resolution Center users (spec 000 §6). */
export function UnlessResolutionCenterUser() {
  const permissions = usePermissions();
  return belongsInResolutionCenter(permissions) ? <Navigate to="/resolutioncenter" replace /> : <Outlet />;
}

/**
 * An area's page for those its menu rule lets in (spec 000 §6). A Resolution Center user goes
 * there; anyone else without the permission reads the access notice instead of a broken page.
 */
export function RequireArea({ path }: { path: string }) {
  const permissions = usePermissions();
  if (belongsInResolutionCenter(permissions)) return <Navigate to="/resolutioncenter" replace />;
  if (!canOpen({ requires: requirementsForPath(path) }, permissions)) {
    return (
      <Alert severity="warning" sx={{ m: 3 }} data-testid="area-access-denied">
        {SHELL_MESSAGES.accessDenied}
      </Alert>
    );
  }
  return <Outlet />;
}

/**
 * `/:tenantId/*`: a GUID is a tenant (sign-in required); an area name without a tenant
 * (/tenants, /tokens…) goes to the same area under the user's tenant; anything else is 404.
 */
export function TenantScope() {
  const { tenantId } = useParams();
  const { pathname } = useLocation();
  if (isGuid(tenantId)) return <RequireSignIn />;
  if (namesTenantArea(pathname)) {
    return (
      <RequireSignIn>
        <AreaRedirect />
      </RequireSignIn>
    );
  }
  return (
    <Suspense fallback={null}>
      <NotFoundPage />
    </Suspense>
  );
}

function AreaRedirect() {
  const { tenantId } = useCurrentUser();
  const { pathname, search, hash } = useLocation();
  const target = tenantId ? tenantAreaRedirect(pathname, search, hash, tenantId) : ACCESS_DENIED_PATH;
  return <Navigate to={target ?? '/'} replace />;
}
