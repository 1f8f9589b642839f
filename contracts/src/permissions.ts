/**
 * Permission strings have the form `{prefix}.{Area}:{verb}` (spec 000 §6); the prefix is
 * configurable on the server (default `CFS`). The special `{prefix}.WorkUnits:view:mine`
 * lets end users see only their own work units.
 *
 * Clients never need to know the prefix: `PermissionSet` recognises an area by name.
 *
 * @example
 *   const perms = new PermissionSet(['CFS.Tenants:view', 'CFS.Tenants:edit']);
 *   perms.has('Tenants', 'edit'); // true
 */
export const AREAS = [
  'ActionDefinitions',
  'Blocks',
  'Compliance',
  'CurrentUser',
  'Devices',
  'Devices.HostAccess',
  'Devices.Scripts',
  'Home',
  'Locations',
  'Packages',
  'Packets',
  'PendingDevices',
  'People',
  'Resources',
  'Rules',
  'ServiceLevels',
  'Settings',
  'Subscriptions',
  'Tenants',
  'Tokens',
  'WorkUnits',
  'WorkUnits.Categories',
  'WorkUnits.Protocols',
  'WorkUnits.Subcategories',
  'WorkUnits.Types',
  'WorkUnitCommunications',
  'Visualizations',
] as const;
export type Area = (typeof AREAS)[number];

export const VERBS = ['create', 'edit', 'view', 'delete'] as const;
export type Verb = (typeof VERBS)[number];

/** A permission a route or a screen needs: an area and a verb, or the special "view mine". */
export type Permission = { area: Area; verb: Verb } | { area: 'WorkUnits'; verb: 'view:mine' };

/** A permission as a route declares it and a role holds it, without the prefix: `Tenants:view`, `WorkUnits:view:mine`. */
export type PermissionName = `${Area}:${Verb}` | 'WorkUnits:view:mine';

export const DEFAULT_PERMISSION_PREFIX = 'CFS';

/**
 * Operations that read files on a device (Read File): set up, changed and
 * run only by holders of this permission (administrators), not by everyone who edits a device's
 * label. The agent on the device still decides what it reads (agent/src/read-allow.ts).
 */
export const HOST_ACCESS_PERMISSION = { area: 'Devices.HostAccess', verb: 'edit' } as const satisfies Permission;

/**
 * Script operations, which run a script of the catalogue on a device: set up, changed and run only
 * by holders of this permission (administrators). The agent still runs only scripts the portal
 * signed, from the packages its own allow list names (agent/src/scripts.ts).
 */
export const SCRIPTS_PERMISSION = { area: 'Devices.Scripts', verb: 'edit' } as const satisfies Permission;

// Longest names first so that "WorkUnits.Categories" is not read as "WorkUnits".
const AREAS_BY_LENGTH = [...AREAS].sort((a, b) => b.length - a.length);

/** Reads `{prefix}.{Area}:{verb}` into its parts, or undefined when it names no known area. */
export function parsePermission(text: string): Permission | undefined {
  for (const area of AREAS_BY_LENGTH) {
    const marker = `.${area}:`;
    const at = text.lastIndexOf(marker);
    if (at <= 0) continue;
    const verb = text.slice(at + marker.length);
    if (area === 'WorkUnits' && verb === 'view:mine') return { area, verb };
    if ((VERBS as readonly string[]).includes(verb)) return { area, verb: verb as Verb };
  }
  return undefined;
}

export class PermissionSet {
  private readonly held = new Set<string>();

  constructor(readonly strings: readonly string[]) {
    for (const text of strings) {
      const parsed = parsePermission(text);
      if (parsed) this.held.add(`${parsed.area}:${parsed.verb}`);
    }
  }

  has(area: Area, verb: Verb): boolean {
    return this.held.has(`${area}:${verb}`);
  }

  hasViewMine(): boolean {
    return this.held.has('WorkUnits:view:mine');
  }

  allows(permission: Permission | PermissionName): boolean {
    return this.held.has(typeof permission === 'string' ? permission : `${permission.area}:${permission.verb}`);
  }

  get size(): number {
    return this.held.size;
  }
}
