import type { ComponentType } from 'react';
import type SvgIcon from '@mui/material/SvgIcon';
import type { Area, Verb } from '@cfs/contracts/permissions';

/**
 * What a web area declares about itself, in its own `features/<area>/area.ts`: its pages, the
 * permissions that open them, and the menu item (label, group, icon) of the page the menu offers.
 * The app holds one list of them (`app/areas.ts`) and derives the routes, the menu, its icons and
 * the bare area names that redirect under the tenant (spec 000 §2, §6) from it.
 *
 * @example
 * export const locationsArea: WebArea = {
 *   pages: [
 *     {
 *       path: 'locations',
 *       header: 'Locations',
 *       load: () => import('./locations-page'),
 *       requires: editAndView('Locations'),
 *       menu: { group: 'administration', icon: PlaceIcon },
 *     },
 *   ],
 * };
 */
export interface WebArea {
  pages: readonly AreaPage[];
}

export type MenuGroupKey = 'menu' | 'administration';

export interface Requirement {
  area: Area;
  verb: Verb;
}

export interface PageModule {
  default: ComponentType;
}

export interface AreaPage {
  /** Path under /{tenantId} (spec 000 §2); its first segment without a tenant redirects under the user's tenant. */
  path: string;
  /** The page header; the placeholder shows it, a real page renders its own <PageHeader>. */
  header: string;
  /** The page module, default-exporting the page: each page is its own chunk. */
  load: () => Promise<PageModule>;
  /** Every requirement must be held to open the page, and to see its menu item. */
  requires: readonly Requirement[];
  /** The sidebar's item (and the Home page's card); `label` defaults to the header. */
  menu?: { group: MenuGroupKey; icon: typeof SvgIcon; label?: string };
  /** Also answered at /{path} without a tenant (Work Units, spec 000 §2): the bare path is its own route. */
  withoutTenant?: true;
}

/** The view permission of one area: what a Menu group item asks. */
export const view = (area: Area): Requirement[] => [{ area, verb: 'view' }];

/** Edit and view of each area: what an Administration group item asks (spec 000 §6). */
export const editAndView = (...areas: Area[]): Requirement[] =>
  areas.flatMap((area): Requirement[] => [
    { area, verb: 'edit' },
    { area, verb: 'view' },
  ]);
