import type SvgIcon from '@mui/material/SvgIcon';
import { isGuid } from '@cfs/contracts/values/odata';
import type { MenuGroupKey, Requirement } from '../lib/area-manifest';
import type { Area, PermissionSet } from '@cfs/contracts/permissions';
import { AREA_PAGES } from './areas';

/**
 * The sidebar menu and the permission rules of spec 000 §6, as plain data and functions so
 * they are tested without rendering. The Home page offers the same items as cards. The items are
 * the area pages that declare a menu entry (each area's `area.ts`), in the app's area order.
 */
export interface MenuItem {
  /** The path segment after /{tenantId}. */
  path: string;
  label: string;
  group: MenuGroupKey;
  icon: typeof SvgIcon;
  /** Every requirement must be held for the item to show. */
  requires: readonly Requirement[];
}

export interface MenuGroup {
  key: MenuGroupKey;
  label: string;
  items: MenuItem[];
}

/**
 * Group Menu: each item needs its own area's view permission. Group Administration: edit and view
 * of the item's area, with four exceptions (Pending Devices, Work Unit Settings, Version Report, and
 * Service Levels, which operators read with view alone).
 */
export const MENU_ITEMS: readonly MenuItem[] = AREA_PAGES.flatMap(({ path, header, requires, menu }) =>
  menu ? [{ path, label: menu.label ?? header, group: menu.group, icon: menu.icon, requires }] : [],
);

/** Group Menu shows with any of its items' view permissions. */
const MENU_GROUP_VIEW_AREAS: readonly Area[] = requiredAreas('menu', 'view');

/** Group Administration shows with any edit permission its items ask for. */
const ADMINISTRATION_EDIT_AREAS: readonly Area[] = requiredAreas('administration', 'edit');

function requiredAreas(group: MenuGroupKey, verb: Requirement['verb']): Area[] {
  return [
    ...new Set(
      MENU_ITEMS.filter((item) => item.group === group)
        .flatMap((item) => item.requires)
        .filter((requirement) => requirement.verb === verb)
        .map((requirement) => requirement.area),
    ),
  ];
}

const GROUP_LABELS: Record<MenuGroupKey, string> = { menu: 'Menu', administration: 'Administration' };

export function canOpen(item: Pick<MenuItem, 'requires'>, permissions: PermissionSet): boolean {
  return item.requires.every(({ area, verb }) => permissions.has(area, verb));
}

/** What opening an area's page takes: its menu item's rule, so a typed address is held to it too. */
export function requirementsForPath(path: string): readonly Requirement[] {
  return AREA_PAGES.find((page) => page.path === path)?.requires ?? [];
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
  return {
    key,
    label: GROUP_LABELS[key],
    items: MENU_ITEMS.filter((item) => item.group === key && canOpen(item, permissions)),
  };
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
  const page = (isGuid(segments[0]) ? segments.slice(1) : segments).map((segment) => segment.toLowerCase());
  if (page.length === 0) return undefined;
  // The item whose path is the longest start of the page's: `servicelevels/report` is the report's, not Service Levels'.
  const starts = (item: MenuItem) => item.path.split('/').every((segment, index) => page[index] === segment);
  return MENU_ITEMS.filter(starts).sort((a, b) => b.path.length - a.path.length)[0];
}
