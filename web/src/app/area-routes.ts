import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { AreaRouteHandle } from '../features/placeholders/area-placeholder-page';

export interface PageModule {
  default: ComponentType;
}

/** A route `lazy` loader for a module whose default export is the page: each page is its own chunk. */
export function lazyPage(load: () => Promise<PageModule>): NonNullable<RouteObject['lazy']> {
  return async () => ({ Component: (await load()).default });
}


export interface AreaRoute {
  /** Path under /{tenantId} (spec 000 §2). */
  path: string;
  /** The page header; the placeholder shows it, a real page renders its own <PageHeader>. */
  header: string;
  load: () => Promise<PageModule>;
}

/** Work Units also answers without a tenant, at /workunitsv2 (spec 000 §2). */
export const WORK_UNITS_ROUTE: AreaRoute = { path: 'workunitsv2', header: 'Work Units', load: () => import('../features/workunits/work-units-page') };

/**
 * Every area page of spec 000 §2. An area that is built replaces its `load` with its page
 * module, e.g. `load: () => import('../features/tenants/tenants-page')`.
 */
export const AREA_ROUTES: readonly AreaRoute[] = [
  WORK_UNITS_ROUTE,
  { path: 'workunitcommunications', header: 'Work Unit Communications', load: () => import('../features/workunitcommunications/communications-page') },
  { path: 'devices', header: 'Devices', load: () => import('../features/devices/devices-page') },
  { path: 'blocks', header: 'Blocks', load: () => import('../features/blocks/blocks-page') },
  { path: 'rules', header: 'Rules', load: () => import('../features/rules/rules-page') },
  { path: 'compliance', header: 'Compliance', load: () => import('../features/compliance/compliance-page') },
  { path: 'tenants', header: 'Tenants', load: () => import('../features/tenants/tenants-page') },
  { path: 'locations', header: 'Locations', load: () => import('../features/locations/locations-page') },
  { path: 'packages', header: 'Package Catalog', load: () => import('../features/packages/packages-page') },
  { path: 'protocols', header: 'Work Unit Protocols', load: () => import('../features/protocols/protocols-page') },
  { path: 'actioncatalog', header: 'Action Catalog', load: () => import('../features/actiondefinitions/action-catalog-page') },
  { path: 'pendingdevices', header: 'Pending Devices', load: () => import('../features/pendingdevices/pending-devices-page') },
  { path: 'tokens', header: 'Tenant Tokens', load: () => import('../features/tokens/tokens-page') },
  { path: 'workunitsettings', header: 'Work Unit Settings', load: () => import('../features/workunitsettings/work-unit-settings-page') },
  { path: 'versionreport', header: 'Version Report', load: () => import('../features/versionreport/version-report-page') },
  { path: 'outbox', header: 'Outbox', load: () => import('../features/outbox/outbox-page') },
  { path: 'packets/:id', header: 'Packet', load: () => import('../features/packets/packet-page') },
  { path: 'workunits/index', header: 'Work Units (old experience)', load: () => import('../features/workunits/classic-work-units-page') },
];

/** The Resolution Center's page, inside its own layout (spec 000 §2). */
export const RESOLUTION_CENTER_ROUTE: AreaRoute = { path: 'resolutioncenter', header: 'Resolution Center', load: () => import('../features/resolutioncenter/resolution-center-page') };

export function areaRouteObject(area: AreaRoute, options: { index?: boolean; headerInLayout?: boolean } = {}): RouteObject {
  const handle: AreaRouteHandle = { header: area.header, ...(options.headerInLayout ? { headerInLayout: true } : {}) };
  return options.index ? { index: true, handle, lazy: lazyPage(area.load) } : { path: area.path, handle, lazy: lazyPage(area.load) };
}
