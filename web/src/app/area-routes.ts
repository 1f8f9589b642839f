import type { RouteObject } from 'react-router';
import type { AreaPage, PageModule } from '../lib/area-manifest';

/** What an area route declares in its `handle`: the page header, and whether its layout shows it already. */
interface AreaRouteHandle {
  header: string;
  headerInLayout?: boolean;
}

/** A route `lazy` loader for a module whose default export is the page: each page is its own chunk. */
export function lazyPage(load: () => Promise<PageModule>): NonNullable<RouteObject['lazy']> {
  return async () => ({ Component: (await load()).default });
}

export function areaRouteObject(
  page: AreaPage,
  options: { index?: boolean; headerInLayout?: boolean } = {},
): RouteObject {
  const handle: AreaRouteHandle = { header: page.header, ...(options.headerInLayout ? { headerInLayout: true } : {}) };
  return options.index
    ? { index: true, handle, lazy: lazyPage(page.load) }
    : { path: page.path, handle, lazy: lazyPage(page.load) };
}
