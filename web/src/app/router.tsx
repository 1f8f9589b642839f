import { Router, type RouteObject } from '../lib/router';
import { RequireSignIn } from '../auth/require-sign-in';
import { ACCESS_DENIED_PATH, CALLBACK_PATH, LOGIN_PATH } from '../auth/sign-in-paths';
import { resolutionCenterPage } from '../features/resolutioncenter/area';
import { areaRouteObject } from './area-routes';
import { AREA_PAGES } from './areas';
import { RequireArea, RootRedirect, TenantScope, UnlessResolutionCenterUser } from './route-guards';

const shellLayout = () => import('./shell-layout');
const resolutionCenterLayout = () => import('./resolution-center-layout');
const loginPage = () => import('./login-page');
const notFoundPage = () => import('./not-found-page');

/** The Resolution Center under its standalone layout, at /resolutioncenter and /{tenantId}/resolutioncenter. */
function resolutionCenter(path: string): RouteObject {
  return {
    path,
    load: resolutionCenterLayout,
    children: [areaRouteObject(resolutionCenterPage, { index: true })],
  };
}

/**
 * Every route of spec 000 §2. Pages and layouts load on first visit (their own chunks), so
 * the login page downloads none of the portal's screens.
 */
export const routes: RouteObject[] = [
  {
    children: [
      { path: CALLBACK_PATH, load: () => import('../auth/callback-page') },
      { path: LOGIN_PATH, load: loginPage },
      { path: `/:tenantId${LOGIN_PATH}`, load: loginPage },
      // A published communication report: read by customers without signing in.
      { path: '/status/:token', load: () => import('../features/workunitcommunications/public-status-page') },
      { path: ACCESS_DENIED_PATH, load: async () => ({ default: (await import('./login-page')).AccessDeniedPage }) },
      {
        element: <RequireSignIn />,
        children: [
          { index: true, element: <RootRedirect /> },
          resolutionCenter('/resolutioncenter'),
          // Pages also answered without a tenant (/workunitsv2).
          ...AREA_PAGES.filter((page) => page.withoutTenant).map((page): RouteObject => ({
            path: `/${page.path}`,
            load: shellLayout,
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
            load: shellLayout,
            children: [
              {
                element: <UnlessResolutionCenterUser />,
                children: [{ index: true, load: () => import('./home-page') }],
              },
              ...AREA_PAGES.map((page): RouteObject => ({
                element: <RequireArea path={page.path} />,
                children: [areaRouteObject(page)],
              })),
            ],
          },
          { path: '*', load: notFoundPage },
        ],
      },
      { path: '*', load: notFoundPage },
    ],
  },
];

export function createAppRouter() {
  return new Router(routes);
}
