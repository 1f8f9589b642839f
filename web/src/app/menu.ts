import { isGuid } from '../lib/ids';
import type { Area, PermissionSet, Verb } from '@cfs/contracts/permissions';

/**
 * The sidebar menu and the permission rules of spec 000 §6, as plain data and functions so
 * they are tested without rendering. The Home page offers the same items as cards.
 */
export type MenuGroupKey = 'menu' | 'administration';

export interface Requirement {
  area: Area;
  verb: Verb;
}

export interface MenuItem {
  /** The path segment after /{tenantId}. */
  path: string;
  label: string;
  group: MenuGroupKey;
  /** Every requirement must be held for the item to show. */
  requires: readonly Requirement[];
}

export interface MenuGroup {
  key: MenuGroupKey;
  label: string;
  items: MenuItem[];
}

const view = (area: Area): Requirement[] => [{ area, verb: 'view' }];
const editAndView = (...areas: Area[]): Requirement[] =>
  areas.flatMap((area): Requirement[] => [
    { area, verb: 'edit' },
    { area, verb: 'view' },
  ]);

export const MENU_ITEMS: readonly MenuItem[] = [
  // Group Menu: each item needs its own area's view permission.
  { path: 'workunitsv2', label: 'Work Units', group: 'menu', requires: view('WorkUnits') },
  { path: 'workunitcommunications', label: 'Work Unit Communications', group: 'menu', requires: view('WorkUnitCommunications') },
  { path: 'devices', label: 'Devices', group: 'menu', requires: view('Devices') },
  { path: 'blocks', label: 'Blocks', group: 'menu', requires: view('Blocks') },
  { path: 'rules', label: 'Rules', group: 'menu', requires: view('Rules') },
  { path: 'compliance', label: 'Compliance', group: 'menu', requires: view('Compliance') },
  // Group Administration: edit and view of the item's area, with the three exceptions below.
  { path: 'tenants', label: 'Tenants', group: 'administration', requires: editAndView('Tenants') },
  { path: 'locations', label: 'Locations', group: 'administration', requires: editAndView('Locations') },
  { path: 'packages', label: 'Package Catalog', group: 'administration', requires: editAndView('Packages') },
  { path: 'protocols', label: 'Work Unit Protocols', group: 'administration', requires: editAndView('WorkUnits.Protocols') },
  { path: 'actioncatalog', label: 'Action Catalog', group: 'administration', requires: editAndView('ActionDefinitions') },
  { path: 'pendingdevices', label: 'Pending Devices', group: 'administration', requires: editAndView('Devices', 'PendingDevices') },
  { path: 'tokens', label: 'Tokens', group: 'administration', requires: editAndView('Tokens') },
  {
    path: 'workunitsettings',
    label: 'Work Unit Settings',
    group: 'administration',
    requires: editAndView('WorkUnits.Categories', 'WorkUnits.Subcategories'),
  },
  { path: 'versionreport', label: 'Version Report', group: 'administration', requires: view('Devices') },
  // Not in the spec's menu: every email the portal sent or kept (DESIGN: email). Settings is held by administrators only.
  { path: 'outbox', label: 'Outbox', group: 'administration', requires: editAndView('Settings') },
];

/** Group Menu shows with any of these view permissions. */
const MENU_GROUP_VIEW_AREAS: readonly Area[] = ['WorkUnits', 'WorkUnitCommunications', 'Devices', 'Blocks', 'Rules', 'Compliance'];

/** Group Administration shows with any edit permission its items ask for. */
const ADMINISTRATION_EDIT_AREAS: readonly Area[] = [
  ...new Set(
    MENU_ITEMS.filter((item) => item.group === 'administration')
      .flatMap((item) => item.requires)
      .filter((requirement) => requirement.verb === 'edit')
      .map((requirement) => requirement.area),
  ),
];

const GROUP_LABELS: Record<MenuGroupKey, string> = { menu: 'Menu', administration: 'Administration' };

export function canOpen(item: Pick<MenuItem, 'requires'>, permissions: PermissionSet): boolean {
  return item.requires.every(({ area, verb }) => permissions.has(area, verb));
}

/** Pages outside the menu and what opening them takes. */
const PAGES_OUTSIDE_MENU: Readonly<Record<string, readonly Requirement[]>> = {
  'packets/:id': view('Packets'),
  'workunits/index': view('WorkUnits'),
};

/** What opening an area's page takes: its menu item's rule, so a typed address is held to it too. */
export function requirementsForPath(path: string): readonly Requirement[] {
  return MENU_ITEMS.find((item) => item.path === path)?.requires ?? PAGES_OUTSIDE_MENU[path] ?? [];
}

export function showsMenuGroup(permissions: PermissionSet): boolean {
  return MENU_GROUP_VIEW_AREAS.some((area) => permissions.has(area, 'view'));
}

export function showsAdministrationGroup(permissions: PermissionSet): boolean {
  return ADMINISTRATION_EDIT_AREAS.some((area) => permissions.has(area, 'edit'));
}

/** The groups to show, each with the items this user may open. */
export function visibleMenu(permissions: PermissionSet): MenuGroup[] {
  const groups: MenuGroup[] = [];
  if (showsMenuGroup(permissions)) groups.push(group('menu', permissions));
  if (showsAdministrationGroup(permissions)) groups.push(group('administration', permissions));
  return groups;
}

function group(key: MenuGroupKey, permissions: PermissionSet): MenuGroup {
  return { key, label: GROUP_LABELS[key], items: MENU_ITEMS.filter((item) => item.group === key && canOpen(item, permissions)) };
}

/** The tenant > subscription picker shows with any of Blocks view, Devices view, PendingDevices edit, Tokens edit. */
export function showsTenantPicker(permissions: PermissionSet): boolean {
  return (
    permissions.has('Blocks', 'view') ||
    permissions.has('Devices', 'view') ||
    permissions.has('PendingDevices', 'edit') ||
    permissions.has('Tokens', 'edit')
  );
}

/** WorkUnits:view:mine without WorkUnits view leads to the Resolution Center. */
export function belongsInResolutionCenter(permissions: PermissionSet): boolean {
  return permissions.hasViewMine() && !permissions.has('WorkUnits', 'view');
}

export function menuItemHref(item: MenuItem, tenantId: string): string {
  return `/${tenantId}/${item.path}`;
}

/** The menu item the current path belongs to, highlighted in the sidebar (spec 000 §2). */
export function activeMenuItem(pathname: string): MenuItem | undefined {
  const segments = pathname.split('/').filter(Boolean);
  const areaSegment = isGuid(segments[0]) ? segments[1] : segments[0];
  if (!areaSegment) return undefined;
  return MENU_ITEMS.find((item) => item.path === areaSegment.toLowerCase());
}
