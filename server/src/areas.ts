import type { AreaManifest } from './area.js';
import { registerBuiltInActions } from './engines/actions/run.js';
import { RULE_BUILT_IN_ACTIONS } from './engines/rules/actions.js';
import { healthArea } from './areas/health/manifest.js';
import { lookupsArea } from './areas/lookups/manifest.js';
import { currentUserArea } from './areas/currentuser/manifest.js';
import { featuresArea } from './areas/features/manifest.js';
import { auditArea } from './areas/audit/manifest.js';
import { tenantsArea } from './areas/tenants/manifest.js';
import { subscriptionsArea } from './areas/subscriptions/manifest.js';
import { tokensArea } from './areas/tokens/manifest.js';
import { workUnitCategoriesArea } from './areas/workunitcategories/manifest.js';
import { workUnitsArea } from './areas/workunits/manifest.js';
import { peopleArea } from './areas/people/manifest.js';
import { savedViewsArea } from './areas/savedviews/manifest.js';
import { deviceOperationsArea } from './areas/deviceoperations/manifest.js';
import { pendingDevicesArea } from './areas/pendingdevices/manifest.js';
import { packetsArea } from './areas/packets/manifest.js';
import { agentArea } from './areas/agent/manifest.js';
import { locationsArea } from './areas/locations/manifest.js';
import { packagesArea } from './areas/packages/manifest.js';
import { devicesArea } from './areas/devices/manifest.js';
import { blocksArea } from './areas/blocks/manifest.js';
import { ruleMatchesArea } from './areas/rulematches/manifest.js';
import { silencesArea } from './areas/silences/manifest.js';
import { notificationPolicyArea } from './areas/notificationpolicy/manifest.js';
import { serviceLevelsArea } from './areas/servicelevels/manifest.js';
import { rulesArea } from './areas/rules/manifest.js';
import { actionDefinitionsArea } from './areas/actiondefinitions/manifest.js';
import { timelineArea } from './areas/timeline/manifest.js';
import { actionHistoriesArea } from './areas/actionhistories/manifest.js';
import { emailArea } from './areas/email/manifest.js';
import { protocolsArea } from './areas/protocols/manifest.js';
import { protocolActionsArea } from './areas/protocolactions/manifest.js';
import { workUnitCommunicationsArea } from './areas/workunitcommunications/manifest.js';
import { complianceArea } from './areas/compliance/manifest.js';
import { registerSystemWorkUnitWriter } from './engines/work-units/system-writer.js';
import { systemWorkUnitWriter } from './areas/workunits/system-writer.js';
import { registerMaintenanceWriters } from './engines/maintenance/owner-ports.js';
import { maintenanceRuleWriter } from './areas/rules/maintenance-writer.js';
import { maintenanceCommunicationWriter } from './areas/workunitcommunications/maintenance-writer.js';
import { registerFleetWriters } from './engines/fleet/owner-ports.js';
import { deviceFleetWriter } from './areas/devices/fleet-writer.js';
import { deviceOperationFleetWriter } from './areas/deviceoperations/fleet-writer.js';
import { pendingDeviceFleetWriter } from './areas/pendingdevices/fleet-writer.js';
import { agentPackageFleetWriter } from './areas/packages/fleet-writer.js';
import { tokenGrantFleetWriter } from './areas/tokens/fleet-writer.js';
import { registerRuleWriter } from './engines/rules/rule-writer.js';
import { ruleWriter } from './areas/rules/rule-writer.js';
import { registerProtocolStepWriter } from './engines/protocols/step-writer.js';
import { protocolStepWriter } from './areas/protocolactions/step-writer.js';
import { versionReportArea } from './areas/versionreport/manifest.js';
import { softwareArea } from './areas/software/manifest.js';
import { homeArea } from './areas/home/manifest.js';
import { liveArea } from './areas/live/manifest.js';

/** Every area of the portal, one line each: the HTTP app and the worker load them from here. */
export const AREAS: readonly AreaManifest[] = [
  healthArea,
  lookupsArea,
  currentUserArea,
  featuresArea,
  auditArea,
  tenantsArea,
  subscriptionsArea,
  tokensArea,
  workUnitCategoriesArea,
  workUnitsArea,
  peopleArea,
  savedViewsArea,
  deviceOperationsArea,
  pendingDevicesArea,
  packetsArea,
  agentArea,
  locationsArea,
  packagesArea,
  devicesArea,
  blocksArea,
  ruleMatchesArea,
  silencesArea,
  notificationPolicyArea,
  serviceLevelsArea,
  rulesArea,
  actionDefinitionsArea,
  actionHistoriesArea,
  timelineArea,
  emailArea,
  liveArea,
  protocolsArea,
  protocolActionsArea,
  workUnitCommunicationsArea,
  complianceArea,
  versionReportArea,
  softwareArea,
  homeArea,
];

// The action runner runs the built-in actions wherever this list is loaded (the app, the worker, tests).
registerBuiltInActions(RULE_BUILT_IN_ACTIONS);
for (const area of AREAS) if (area.builtInActions) registerBuiltInActions(area.builtInActions);
// Other areas open work units for their causes (the compliance POA&M) through the work units area's commands.
registerSystemWorkUnitWriter(systemWorkUnitWriter);
// The maintenance engine's window rule and announcement, through the rules and communications areas.
registerMaintenanceWriters({ rules: maintenanceRuleWriter, communications: maintenanceCommunicationWriter });
// The action catalogue takes a deleted action out of the rules; a protocol's steps follow its tenant.
registerRuleWriter(ruleWriter);
registerProtocolStepWriter(protocolStepWriter);
// The agent protocol, the pending devices' approval and the demo agent write the fleet's rows through their owners.
registerFleetWriters({
  devices: deviceFleetWriter,
  deviceOperations: deviceOperationFleetWriter,
  pendingDevices: pendingDeviceFleetWriter,
  packages: agentPackageFleetWriter,
  tokens: tokenGrantFleetWriter,
});
