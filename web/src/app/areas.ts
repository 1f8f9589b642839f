import type { AreaPage, WebArea } from '../lib/area-manifest';
import { workUnitsArea } from '../features/workunits/area';
import { communicationsArea } from '../features/workunitcommunications/area';
import { devicesArea } from '../features/devices/area';
import { softwareArea } from '../features/software/area';
import { blocksArea } from '../features/blocks/area';
import { rulesArea } from '../features/rules/area';
import { complianceArea } from '../features/compliance/area';
import { tenantsArea } from '../features/tenants/area';
import { locationsArea } from '../features/locations/area';
import { packagesArea } from '../features/packages/area';
import { protocolsArea } from '../features/protocols/area';
import { actionDefinitionsArea } from '../features/actiondefinitions/area';
import { pendingDevicesArea } from '../features/pendingdevices/area';
import { tokensArea } from '../features/tokens/area';
import { workUnitSettingsArea } from '../features/workunitsettings/area';
import { serviceLevelsArea } from '../features/servicelevels/area';
import { versionReportArea } from '../features/versionreport/area';
import { outboxArea } from '../features/outbox/area';
import { packetsArea } from '../features/packets/area';

/**
 * Every area of the portal's shell, one line each, in the menu's order (spec 000 §2): the routes,
 * the sidebar and Home cards, and the bare area names that redirect under the tenant all come from
 * each area's own `area.ts`.
 */
export const WEB_AREAS: readonly WebArea[] = [
  workUnitsArea,
  communicationsArea,
  devicesArea,
  softwareArea,
  blocksArea,
  rulesArea,
  complianceArea,
  tenantsArea,
  locationsArea,
  packagesArea,
  protocolsArea,
  actionDefinitionsArea,
  pendingDevicesArea,
  tokensArea,
  workUnitSettingsArea,
  serviceLevelsArea,
  versionReportArea,
  outboxArea,
  packetsArea,
];

/** Every area page routed under /{tenantId}. */
export const AREA_PAGES: readonly AreaPage[] = WEB_AREAS.flatMap((area) => area.pages);
