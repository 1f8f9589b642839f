import { describe, expect, it } from 'vitest';
import { PermissionSet } from '@cfs/contracts/permissions';
import {
  MENU_ITEMS,
  activeMenuItem,
  belongsInResolutionCenter,
  canOpen,
  requirementsForPath,
  showsAdministrationGroup,
  showsMenuGroup,
  showsTenantPicker,
  visibleMenu,
} from './menu';
import { SPEC_ADMINISTRATION_ORDER, SPEC_MENU_ORDER } from './menu-order';

const perms = (...names: string[]) => new PermissionSet(names.map((name) => `CFS.${name}`));
const labels = (permissions: PermissionSet) =>
  Object.fromEntries(visibleMenu(permissions).map((group) => [group.label, group.items.map((item) => item.label)]));

describe('group Menu', () => {
  it.each([
    ['WorkUnits:view', 'Work Units'],
    ['WorkUnitCommunications:view', 'Work Unit Communications'],
    ['Devices:view', 'Devices'],
    ['Blocks:view', 'Blocks'],
    ['Rules:view', 'Rules'],
    ['Compliance:view', 'Compliance'],
    ['ServiceLevels:view', 'Service Level Report'],
  ])('shows with %s alone, offering only %s', (permission, label) => {
    const permissions = perms(permission);
    expect(showsMenuGroup(permissions)).toBe(true);
    // Devices view also reads the software across the fleet, the devices' inventories' other side.
    expect(labels(permissions).Menu).toEqual(label === 'Devices' ? ['Devices', 'Software'] : [label]);
  });

  it('is hidden without any of the seven view permissions', () => {
    const permissions = perms('WorkUnits:edit', 'Tenants:view', 'WorkUnits:view:mine');
    expect(showsMenuGroup(permissions)).toBe(false);
    expect(labels(permissions).Menu).toBeUndefined();
  });

  it('lists its items in the spec order', () => {
    const all = perms(
      'WorkUnits:view',
      'WorkUnitCommunications:view',
      'Devices:view',
      'Blocks:view',
      'Rules:view',
      'Compliance:view',
      'ServiceLevels:view',
    );
    expect(labels(all).Menu).toEqual(SPEC_MENU_ORDER);
  });
});

describe('group Administration', () => {
  it.each([
    ['Tenants', 'Tenants'],
    ['Locations', 'Locations'],
    ['Packages', 'Package Catalog'],
    ['WorkUnits.Protocols', 'Work Unit Protocols'],
    ['ActionDefinitions', 'Action Catalog'],
    ['Tokens', 'Tokens'],
  ])('offers the %s item with its edit and view permissions', (area, label) => {
    expect(labels(perms(`${area}:edit`, `${area}:view`)).Administration).toEqual([label]);
  });

  it.each(['Tenants', 'Locations', 'Packages', 'WorkUnits.Protocols', 'ActionDefinitions', 'Tokens'])(
    'does not offer the %s item with view alone or edit alone',
    (area) => {
      expect(labels(perms(`${area}:view`)).Administration).toBeUndefined();
      expect(labels(perms(`${area}:edit`)).Administration).toEqual([]);
    },
  );

  it('shows if any of the edit permissions is held', () => {
    for (const area of [
      'Tenants',
      'Locations',
      'Packages',
      'WorkUnits.Protocols',
      'ActionDefinitions',
      'Tokens',
      'Devices',
      'PendingDevices',
      'WorkUnits.Categories',
      'WorkUnits.Subcategories',
    ]) {
      expect(showsAdministrationGroup(perms(`${area}:edit`)), area).toBe(true);
    }
  });

  it('is hidden with view permissions only, even those that open an item', () => {
    const permissions = perms('Tenants:view', 'Devices:view', 'Locations:view', 'WorkUnits.Categories:view');
    expect(showsAdministrationGroup(permissions)).toBe(false);
    expect(labels(permissions).Administration).toBeUndefined();
  });

  it('offers Pending Devices only with Devices and PendingDevices edit and view', () => {
    const all = ['Devices:edit', 'Devices:view', 'PendingDevices:edit', 'PendingDevices:view'];
    expect(labels(perms(...all)).Administration).toContain('Pending Devices');
    for (const missing of all) {
      const permissions = perms(...all.filter((name) => name !== missing));
      expect(labels(permissions).Administration ?? [], `without ${missing}`).not.toContain('Pending Devices');
    }
  });

  it('offers Work Unit Settings only with Categories and Subcategories edit and view', () => {
    const all = [
      'WorkUnits.Categories:edit',
      'WorkUnits.Categories:view',
      'WorkUnits.Subcategories:edit',
      'WorkUnits.Subcategories:view',
    ];
    expect(labels(perms(...all)).Administration).toEqual(['Work Unit Settings']);
    for (const missing of all) {
      const permissions = perms(...all.filter((name) => name !== missing));
      expect(labels(permissions).Administration ?? [], `without ${missing}`).not.toContain('Work Unit Settings');
    }
  });

  it('offers Service Levels with ServiceLevels view once the group shows (operators read them, administrators change them)', () => {
    expect(labels(perms('ServiceLevels:view', 'Tokens:edit')).Administration).toEqual(['Service Levels']);
    expect(labels(perms('ServiceLevels:edit', 'Tokens:edit')).Administration).toEqual([]);
    expect(requirementsForPath('servicelevels')).toEqual([{ area: 'ServiceLevels', verb: 'view' }]);
  });

  it('offers Version Report with Devices view once the group shows', () => {
    expect(labels(perms('Devices:view', 'Tokens:edit')).Administration).toEqual(['Version Report']);
    expect(labels(perms('Devices:edit')).Administration).toEqual([]);
  });

  it('lists every item in the spec order for an administrator', () => {
    const everything = new PermissionSet(
      MENU_ITEMS.flatMap((item) => item.requires.map(({ area, verb }) => `CFS.${area}:${verb}`)),
    );
    expect(labels(everything).Administration).toEqual(SPEC_ADMINISTRATION_ORDER);
  });
});

describe('pages opened by address', () => {
  it('holds a typed address to the menu item’s rule', () => {
    expect(requirementsForPath('tenants')).toEqual([
      { area: 'Tenants', verb: 'edit' },
      { area: 'Tenants', verb: 'view' },
    ]);
    expect(canOpen({ requires: requirementsForPath('tenants') }, new PermissionSet(['CFS.Tenants:view']))).toBe(false);
  });

  it('asks Packets view for a packet and WorkUnits view for the old work units page', () => {
    expect(requirementsForPath('packets/:id')).toEqual([{ area: 'Packets', verb: 'view' }]);
    expect(requirementsForPath('workunits/index')).toEqual([{ area: 'WorkUnits', verb: 'view' }]);
  });
});

describe('tenant/subscription picker', () => {
  it.each(['Blocks:view', 'Devices:view', 'PendingDevices:edit', 'Tokens:edit'])('shows with %s', (permission) => {
    expect(showsTenantPicker(perms(permission))).toBe(true);
  });

  it('is hidden otherwise', () => {
    expect(
      showsTenantPicker(
        perms('Blocks:edit', 'Devices:edit', 'PendingDevices:view', 'Tokens:view', 'Tenants:edit', 'WorkUnits:view'),
      ),
    ).toBe(false);
  });
});

describe('Resolution Center landing', () => {
  it('sends a user with WorkUnits:view:mine but not WorkUnits view to the Resolution Center', () => {
    expect(belongsInResolutionCenter(perms('WorkUnits:view:mine'))).toBe(true);
    expect(belongsInResolutionCenter(perms('WorkUnits:view:mine', 'Devices:view'))).toBe(true);
  });

  it('keeps a user with WorkUnits view, or without view-mine, in the portal', () => {
    expect(belongsInResolutionCenter(perms('WorkUnits:view:mine', 'WorkUnits:view'))).toBe(false);
    expect(belongsInResolutionCenter(perms('Devices:view'))).toBe(false);
  });
});

describe('current menu item', () => {
  const tenant = '11111111-2222-4333-8444-555555555555';
  it('is the item of the path segment after the tenant', () => {
    expect(activeMenuItem(`/${tenant}/devices`)?.label).toBe('Devices');
    expect(activeMenuItem(`/${tenant}/pendingdevices`)?.label).toBe('Pending Devices');
    expect(activeMenuItem(`/${tenant}/workunitsv2`)?.label).toBe('Work Units');
  });

  it('is the item with the longest path the page starts with', () => {
    expect(activeMenuItem(`/${tenant}/servicelevels`)?.label).toBe('Service Levels');
    expect(activeMenuItem(`/${tenant}/servicelevels/report`)?.label).toBe('Service Level Report');
    expect(activeMenuItem(`/${tenant}/ServiceLevels/Report`)?.label).toBe('Service Level Report');
  });

  it('reads paths without a tenant too', () => {
    expect(activeMenuItem('/workunitsv2')?.label).toBe('Work Units');
  });

  it('is none on the home page or a page outside the menu', () => {
    expect(activeMenuItem(`/${tenant}`)).toBeUndefined();
    expect(activeMenuItem(`/${tenant}/packets/4`)).toBeUndefined();
  });
});
