import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireSignIn } from '../auth/require-sign-in';
import { ACCESS_DENIED_PATH, CALLBACK_PATH, LOGIN_PATH } from '../auth/sign-in-paths';
import { FullPageStatus } from '../lib/full-page-status';
import { resolutionCenterPage } from '../features/resolutioncenter/area';
import { areaRouteObject, lazyPage } from './area-routes';
import { AREA_PAGES } from './areas';
import { RequireArea, RootRedirect, TenantScope, UnlessResolutionCenterUser } from './route-guards';
import { RouteError } from './route-error';

const shellLayout = lazyPage(() => import('./shell-layout'));
const resolutionCenterLayout = lazyPage(() => import('./resolution-center-layout'));
const loginPage = lazyPage(() => import('./login-page'));
const notFoundPage = lazyPage(() => import('./not-found-page'));

/** The Resolution Center under its standalone layout, at /resolutioncenter and /{tenantId}/resolutioncenter. */
function resolutionCenter(path: string): RouteObject {
  return {
    path,
    lazy: resolutionCenterLayout,
    children: [areaRouteObject(resolutionCenterPage, { index: true, headerInLayout: true })],
  };
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
          // Pages also answered without a tenant (/workunitsv2).
          ...AREA_PAGES.filter((page) => page.withoutTenant).map((page): RouteObject => ({
            path: `/${page.path}`,
            lazy: shellLayout,
            children: [
              { element: <RequireArea path={page.path} />, children: [areaRouteObject(page, { index: true })] },
            ],
          })),
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
              {
                element: <UnlessResolutionCenterUser />,
                children: [{ index: true, lazy: lazyPage(() => import('./home-page')) }],
              },
              ...AREA_PAGES.map((page): RouteObject => ({
                element: <RequireArea path={page.path} />,
                children: [areaRouteObject(page)],
              })),
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
