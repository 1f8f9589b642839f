import { isGuid } from '@cfs/contracts/values/odata';
import { AREA_PAGES } from './areas';

/**
 * The areas that live under /{tenantId} and are also reached by their bare name, e.g. /tenants
 * (spec 000 §2 lists several without the tenant); the bare form redirects to the tenant form. A
 * page answered without a tenant (/workunitsv2) is its own route instead.
 */
const TENANT_AREA_SEGMENTS = new Set(
  AREA_PAGES.filter((page) => !page.withoutTenant).map((page) => page.path.split('/')[0]!),
);

/** True when the path's first segment is an area name (and so no tenant id). */
export function namesTenantArea(pathname: string): boolean {
  const first = pathname.split('/').find(Boolean) ?? '';
  return TENANT_AREA_SEGMENTS.has(first.toLowerCase());
}

/**
 * Where a path whose first segment is an area name goes: the same path under the user's
 * tenant, query and hash kept. Undefined when the first segment names no area.
 */
export function tenantAreaRedirect(
  pathname: string,
  search: string,
  hash: string,
  tenantId: string,
): string | undefined {
  if (!namesTenantArea(pathname)) return undefined;
  const [first = '', ...rest] = pathname.split('/').filter(Boolean);
  return `/${tenantId}/${[first.toLowerCase(), ...rest].join('/')}${search}${hash}`;
}

/**
 * The current address with the tenant id in the path replaced by another tenant, for the
 * reload after the tenant/subscription context changes (spec 000 §4). A path without a
 * tenant segment (/workunitsv2) is kept as it is.
 */
export function replaceTenantInPath(pathname: string, search: string, hash: string, tenantId: string): string {
  const segments = pathname.split('/');
  if (isGuid(segments[1])) segments[1] = tenantId;
  return `${segments.join('/')}${search}${hash}`;
}

/**
 * Where an address naming a tenant the user may not use goes: the same page under the
 * user's own tenant, query and hash kept; null when the user has no tenant to go to. Undefined
 * when the tenant in the path is one of `usableTenantIds` (the tenant lookup) or the user's own.
 */
export function unusableTenantRedirect(
  location: { pathname: string; search: string; hash: string },
  usableTenantIds: readonly string[],
  ownTenantId: string | null,
): string | null | undefined {
  const inPath = location.pathname.split('/')[1]?.toLowerCase() ?? '';
  const usable = (id: string | null) => id !== null && id.toLowerCase() === inPath;
  if (!isGuid(inPath) || usable(ownTenantId) || usableTenantIds.some(usable)) return undefined;
  return ownTenantId ? replaceTenantInPath(location.pathname, location.search, location.hash, ownTenantId) : null;
}
