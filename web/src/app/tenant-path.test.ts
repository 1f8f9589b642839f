import { describe, expect, it } from 'vitest';
import { namesTenantArea, replaceTenantInPath, tenantAreaRedirect } from './tenant-path';

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

  it('replaces the tenant id in the path and keeps the rest of the address', () => {
    expect(replaceTenantInPath(`/${OLD}/devices`, '?deviceId=3', '', NEW)).toBe(`/${NEW}/devices?deviceId=3`);
    expect(replaceTenantInPath(`/${OLD}`, '', '', NEW)).toBe(`/${NEW}`);
  });

  it('keeps a path without a tenant segment', () => {
    expect(replaceTenantInPath('/workunitsv2', '?workUnitId=9', '', NEW)).toBe('/workunitsv2?workUnitId=9');
  });
});
