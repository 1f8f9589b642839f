/**
 * The spec's menu in its order, as an administrator sees it: the items of group Menu, then those
 * of group Administration. The one list a new area extends on purpose, with its menu item's place;
 * the menu's unit tests and the shell's browser tests hold the menu to it.
 */
export const SPEC_MENU_ORDER = [
  'Work Units',
  'Work Unit Communications',
  'Devices',
  'Software',
  'Blocks',
  'Rules',
  'Compliance',
  'Service Level Report',
];
export const SPEC_ADMINISTRATION_ORDER = [
  'Tenants',
  'Locations',
  'Package Catalog',
  'Work Unit Protocols',
  'Action Catalog',
  'Pending Devices',
  'Tokens',
  'Work Unit Settings',
  'Service Levels',
  'Version Report',
  'Outbox',
];
