import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from '../lib/router';
import { RequireSignIn } from '../auth/require-sign-in';
import { useCurrentUser, usePermissions } from '../auth/session-data';
import { ACCESS_DENIED_PATH } from '../auth/sign-in-paths';
import { FORBIDDEN_TOAST_MS } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import Alert from '@mui/material/Alert';
import { FullPageStatus } from '../lib/full-page-status';
import { isGuid } from '@cfs/contracts/values/odata';
import { useTenantsLookup } from '../lib/lookups';
import { showToast } from '../lib/toast';
import { belongsInResolutionCenter, canOpen, requirementsForPath } from './menu';
import { namesTenantArea, tenantAreaRedirect, unusableTenantRedirect } from './tenant-path';

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
 * `/:tenantId/*`: a GUID is a tenant (sign-in required) that the user may use; an area name
 * without a tenant (/tenants, /tokens…) goes to the same area under the user's tenant; anything
 * else is 404.
 */
export function TenantScope() {
  const { tenantId } = useParams();
  const { pathname } = useLocation();
  if (isGuid(tenantId)) {
    return (
      <RequireSignIn>
        <UsableTenant />
      </RequireSignIn>
    );
  }
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

/**
 * A link into a tenant the user may not use would show one tenant in the header and
 * fill another into every form, whose saves the server then refuses: the user goes to the same
 * page of their own tenant instead, told by the access toast (spec 000 §8) why the address changed.
 */
function UsableTenant() {
  const location = useLocation();
  const { tenantId } = useCurrentUser();
  const tenants = useTenantsLookup();
  const target = tenants.data
    ? unusableTenantRedirect(
        location,
        tenants.data.map((tenant) => tenant.tenantId),
        tenantId,
      )
    : undefined;
  const redirected = target !== undefined;
  useEffect(() => {
    if (redirected) showToast('error', SHELL_MESSAGES.forbiddenToast, { autoHideMs: FORBIDDEN_TOAST_MS });
  }, [redirected]);
  // Without the lookup the page opens all the same: the server keeps every call to the user's tenants.
  if (tenants.isPending) return <FullPageStatus message="Loading..." />;
  if (target === undefined) return <Outlet />;
  return <Navigate to={target ?? ACCESS_DENIED_PATH} replace />;
}
