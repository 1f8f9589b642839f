import { describe, expect, it } from 'vitest';
import { namesTenantArea, replaceTenantInPath, tenantAreaRedirect, unusableTenantRedirect } from './tenant-path';

const OLD = '11111111-2222-4333-8444-555555555555';
const NEW = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

describe('tenant paths', () => {
  it('sends an area name without a tenant to the same area under the user tenant', () => {
    expect(tenantAreaRedirect('/tenants', '', '', NEW)).toBe(`/${NEW}/tenants`);
    expect(tenantAreaRedirect('/locations', '?search=x', '', NEW)).toBe(`/${NEW}/locations?search=x`);
    expect(tenantAreaRedirect('/Tokens/', '', '#top', NEW)).toBe(`/${NEW}/tokens#top`);
    expect(tenantAreaRedirect('/packets/42', '', '', NEW)).toBe(`/${NEW}/packets/42`);
    expect(tenantAreaRedirect('/workunits/index', '', '', NEW)).toBe(`/${NEW}/workunits/index`);
  });

  it('does not redirect a path that names no area', () => {
    expect(tenantAreaRedirect('/nothing-here', '', '', NEW)).toBeUndefined();
    expect(tenantAreaRedirect('/', '', '', NEW)).toBeUndefined();
    expect(namesTenantArea('/nothing-here')).toBe(false);
    expect(namesTenantArea('/versionreport')).toBe(true);
  });

  it('knows every area page by its first segment, except those answered without a tenant', () => {
    const areas = ['workunitcommunications', 'devices', 'blocks', 'rules', 'compliance', 'tenants', 'locations'];
    const administration = ['packages', 'protocols', 'actioncatalog', 'pendingdevices', 'tokens', 'workunitsettings'];
    for (const segment of [...areas, ...administration, 'versionreport', 'outbox', 'packets', 'workunits'])
      expect(namesTenantArea(`/${segment}`), segment).toBe(true);
    expect(namesTenantArea('/workunitsv2')).toBe(false);
    expect(namesTenantArea('/resolutioncenter')).toBe(false);
  });

  it('replaces the tenant id in the path and keeps the rest of the address', () => {
    expect(replaceTenantInPath(`/${OLD}/devices`, '?deviceId=3', '', NEW)).toBe(`/${NEW}/devices?deviceId=3`);
    expect(replaceTenantInPath(`/${OLD}`, '', '', NEW)).toBe(`/${NEW}`);
  });

  it('keeps a path without a tenant segment', () => {
    expect(replaceTenantInPath('/workunitsv2', '?workUnitId=9', '', NEW)).toBe('/workunitsv2?workUnitId=9');
  });

  it("sends an address naming a tenant the user may not use to the same page under the user's own tenant", () => {
    const location = { pathname: `/${OLD.toUpperCase()}/workunitsv2`, search: '?workUnitId=new', hash: '#x' };
    expect(unusableTenantRedirect(location, [NEW], NEW)).toBe(`/${NEW}/workunitsv2?workUnitId=new#x`);
    expect(unusableTenantRedirect(location, [], null)).toBeNull();
  });

  it("keeps an address naming a tenant of the lookup, or the user's own even when the lookup leaves it out (disabled)", () => {
    const location = { pathname: `/${OLD}/tokens`, search: '', hash: '' };
    expect(unusableTenantRedirect(location, [NEW, OLD.toUpperCase()], NEW)).toBeUndefined();
    expect(unusableTenantRedirect(location, [NEW], OLD)).toBeUndefined();
    expect(unusableTenantRedirect({ ...location, pathname: '/workunitsv2' }, [], NEW)).toBeUndefined();
  });
});
