import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireSignIn } from '../auth/require-sign-in';
import { ACCESS_DENIED_PATH, CALLBACK_PATH, LOGIN_PATH } from '../auth/sign-in-paths';
import { FullPageStatus } from '../lib/full-page-status';
import { AREA_ROUTES, RESOLUTION_CENTER_ROUTE, WORK_UNITS_ROUTE, areaRouteObject, lazyPage } from './area-routes';
import { RequireArea, RootRedirect, TenantScope, UnlessResolutionCenterUser } from './route-guards';
import { RouteError } from './route-error';

const shellLayout = lazyPage(() => import('./shell-layout'));
const resolutionCenterLayout = lazyPage(() => import('./resolution-center-layout'));
const loginPage = lazyPage(() => import('./login-page'));
const notFoundPage = lazyPage(() => import('./not-found-page'));

/** The Resolution Center under its standalone layout, at /resolutioncenter and /{tenantId}/resolutioncenter. */
function resolutionCenter(path: string): RouteObject {
  return { path, lazy: resolutionCenterLayout, children: [areaRouteObject(RESOLUTION_CENTER_ROUTE, { index: true, headerInLayout: true })] };
}

/**
 * Every route of spec 000 §2. Pages and layouts load on first visit (their own chunks), so
 * the login page downloads none of the portal's screens.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageStatus message="Loading..." />,
    children: [
      { path: CALLBACK_PATH, lazy: lazyPage(() => import('../auth/callback-page')) },
      { path: LOGIN_PATH, lazy: loginPage },
      { path: `/:tenantId${LOGIN_PATH}`, lazy: loginPage },
      // A published communication report: read by customers without signing in.
      { path: '/status/:token', lazy: lazyPage(() => import('../features/workunitcommunications/public-status-page')) },
      { path: ACCESS_DENIED_PATH, lazy: async () => ({ Component: (await import('./login-page')).AccessDeniedPage }) },
      {
        element: <RequireSignIn />,
        children: [
          { index: true, element: <RootRedirect /> },
          resolutionCenter('/resolutioncenter'),
          {
            path: `/${WORK_UNITS_ROUTE.path}`,
            lazy: shellLayout,
            children: [{ element: <RequireArea path={WORK_UNITS_ROUTE.path} />, children: [areaRouteObject(WORK_UNITS_ROUTE, { index: true })] }],
          },
        ],
      },
      {
        path: '/:tenantId',
        element: <TenantScope />,
        children: [
          resolutionCenter('resolutioncenter'),
          {
            lazy: shellLayout,
            children: [
              { element: <UnlessResolutionCenterUser />, children: [{ index: true, lazy: lazyPage(() => import('./home-page')) }] },
              ...AREA_ROUTES.map((area): RouteObject => ({ element: <RequireArea path={area.path} />, children: [areaRouteObject(area)] })),
            ],
          },
          { path: '*', lazy: notFoundPage },
        ],
      },
      { path: '*', lazy: notFoundPage },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
