import type { AreaPage } from '../../lib/area-manifest';

/**
 * The Resolution Center's page, inside its own layout at /resolutioncenter and
 * /{tenantId}/resolutioncenter (spec 000 §2): not one of the shell's pages, so not in the app's
 * area list. Its layout sends those who may not use it away.
 */
export const resolutionCenterPage: AreaPage = {
  path: 'resolutioncenter',
  header: 'Resolution Center',
  load: () => import('./resolution-center-page'),
  requires: [],
};
