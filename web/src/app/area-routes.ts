import type { RouteObject } from '../lib/router';
import type { AreaPage } from '../lib/area-manifest';

/** An area page's route: at its path, or the parent's own address (`index`); its module loads on first visit. */
export function areaRouteObject(page: AreaPage, options: { index?: boolean } = {}): RouteObject {
  return options.index ? { index: true, load: page.load } : { path: page.path, load: page.load };
}
