import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { EMPTY_GUID, INSTALL_STATUSES, PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { generateDeviceCredential } from '../src/auth/machine-callers.js';
import { fileStoreOf } from '../src/files/content-store.js';
import { createCategoryAs, createTokenAs } from './factories.js';
import type { TestPortal } from './harness.js';

/*
 * Objects of one tenant for every registered route, and the request that calls a route with them:
 * the authorization matrix calls each route with one tenant's objects and with another's.
 * A write route needs a body here; a new one without it fails the matrix until one is added.
 */

export interface Objects {
  tenantId: string;
  subscriptionId: string;
  workUnitId: number;
  categoryId: number;
  subcategoryId: number;
  tokenGrantId: string;
  secretId: string;
  disposableSecretId: string;
  savedViewId: string;
  disposableSavedViewId: string;
  /** An entity the tenant has reported a packet for. */
  entityId: string;
  deviceId: string;
  /** A second device of the tenant: the target of a clone. */
  otherDeviceId: string;
  /** A shared (tenantless) operation that runs on demand or recurring. */
  operationId: string;
  deviceOperationId: string;
  disposableDeviceOperationId: string;
  pendingDeviceId: string;
  disposablePendingDeviceId: string;
  /** A device without operations, which can be deleted. */
  disposableDeviceId: string;
  locationId: string;
  /** A package of the tenant's own, with an operation and a version that is not the Latest. */
  packageId: string;
  disposablePackageId: string;
  packageOperationId: string;
  disposablePackageOperationId: string;
  packageVersionId: string;
  blockId: string;
  disposableBlockId: string;
  /** A rule of the tenant, and one to delete. */
  ruleId: string;
  disposableRuleId: string;
  /** A protocol step of the tenant that sends an email. */
  emailStepId: string;
  /** A protocol of the tenant with a step, one of each to delete, and a unit following it whose manual step is pending. */
  protocolId: number;
  disposableProtocolId: number;
  protocolActionId: string;
  disposableProtocolActionId: string;
  manualWorkUnitId: number;
  /** An action of the tenant, one to delete, and a run of it. */
  actionDefinitionId: string;
  disposableActionDefinitionId: string;
  actionHistoryId: number;
  /** A communication of the tenant with an activity, one of each to delete. */
  communicationId: string;
  disposableCommunicationId: string;
  communicationActivityId: string;
  disposableCommunicationActivityId: string;
  /** A shipped control set, one of its controls, and the tenant's status of it (one to delete). */
  controlSetId: string;
  controlId: string;
  controlStatusId: string;
  disposableControlStatusId: string;
  /** A device enrolled as an agent: its credential, an on-demand operation queued with a completion token, a package it is to install and that version's file. */
  agentDeviceId: string;
  agentCredential: string;
  agentDeviceOperationId: string;
  agentCompletionToken: string;
  agentPackageId: string;
  agentPackageVersionId: string;
}

type Body = (own: Objects) => unknown;
const VIEW_STATE = { filters: [], sort: [{ field: 'created', direction: 'desc' }], columns: {} };
const stamp = () => Math.random().toString(36).slice(2, 8);
const ruleBody = (tenantId: string, name: string) => ({
  name,
  ruleTypeId: 1,
  tenantId,
  matchLifetime: '00:05:00',
  conditions: [{ Type: 0, LeftOperand: 1, Operator: 1, RightOperand: 'walk' }],
  matchActions: [{ ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } }],
});

const stepBody = (protocolId: number) => ({ protocolId, actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id, workUnitEventTypeId: 1, runAutomatically: false, repeatable: true, parameters: { Template: 'Simple' } });

/** Bodies of the write routes, built for the tenant whose objects are used. */
export const BODIES: Record<string, Body> = {
  'PUT /v1/tenants': () => ({ name: `Walk ${stamp()}` }),
  'POST /v1/tenants/:id': () => ({ name: `Walked ${stamp()}` }),
  'POST /v1/tenants/toggledisabled/:id': () => undefined,
  'PUT /v1/tenants/:id/secrets': () => ({ name: `walk.${stamp()}`, value: PROBE_SECRETS.tenantSecret }),
  'POST /v1/tenants/:id/secrets/:secretId': () => ({ value: PROBE_SECRETS.tenantSecret }),
  'DELETE /v1/tenants/:id/secrets/:secretId': () => undefined,
  'PUT /v1/subscriptions': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}` }),
  'POST /v1/subscriptions/:id': (o) => ({ tenantId: o.tenantId, name: `Walked ${stamp()}` }),
  'PUT /v1/tokens': (o) => ({ tenantId: o.tenantId, name: 'Walk token', lifetimeYears: 1 }),
  'POST /v1/tokens/:id': () => ({ name: 'Walked token' }),
  'PUT /v1/tokens/:id/revoke': () => undefined,
  'PUT /v1/workunitcategories': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}`, workUnitTypeId: WORK_UNIT_TYPES.Incident }),
  'POST /v1/workunitcategories/:id': (o) => ({ tenantId: o.tenantId, name: `Walked ${stamp()}`, workUnitTypeId: WORK_UNIT_TYPES.Incident }),
  'PUT /v1/workunitsubcategories': (o) => ({ workUnitCategoryId: o.categoryId, name: `Walk ${stamp()}`, isEnabled: true }),
  'POST /v1/workunitsubcategories/:id': (o) => ({ workUnitCategoryId: o.categoryId, name: `Walked ${stamp()}`, isEnabled: true }),
  'PUT /v1/workunittypes': () => ({ name: `Walk type ${stamp()}`, enabled: true }),
  'POST /v1/workunittypes/:id': () => ({ name: `Walked type ${stamp()}`, enabled: true }),
  'PUT /api/v1/workunits': (o) => ({ workUnitId: -1, title: 'Walked incident', severityId: 2, stateId: WORK_UNIT_STATES.New, tenantId: o.tenantId, workUnitTypeId: WORK_UNIT_TYPES.Incident }),
  'PUT /api/v1/rc/workunits': (o) => ({ tenantId: o.tenantId, title: 'Walked request', description: 'Walked', stakeHolderPhoneNumber: '+1 425 555 0100' }),
  'PATCH /v1/workunits/:id': () => [{ op: 'replace', path: '/title', value: `Walked ${stamp()}` }],
  'PUT /v1/workunitnotes': (o) => ({ workUnitId: o.workUnitId, detail: 'Walked note', isExternalNote: false }),
  'POST /v1/workunitnotes/callme/:workUnitId': () => undefined,
  'POST /v1/tenantSubscriptionContext/:tenant': (o) => ({ tenant: o.tenantId, subscriptionId: o.subscriptionId }),
  'POST /v1/workunits/bulk/assign': (o) => ({ workUnitIds: [o.workUnitId], assignedTo: 'walker@walk.example' }),
  'POST /v1/workunits/bulk/state': (o) => ({ workUnitIds: [o.workUnitId], stateId: WORK_UNIT_STATES.New }),
  'PUT /v1/savedviews/workunits': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}`, state: VIEW_STATE }),
  'POST /v1/savedviews/workunits/:id': () => ({ name: `Walked ${stamp()}`, shared: true, state: VIEW_STATE }),
  'DELETE /v1/savedviews/workunits/:id': () => undefined,
  'PUT /v1/deviceOperations': (o) => ({ deviceId: o.deviceId, operationId: o.operationId, label: `Walk ${stamp()}`, frequencyTypeId: 2, interval: '00:05:00' }),
  'POST /v1/deviceOperations/:id': (o) => ({ deviceId: o.deviceId, operationId: o.operationId, label: `Walked ${stamp()}`, frequencyTypeId: 1, interval: '00:05:00' }),
  'DELETE /v1/deviceOperations/:id': () => undefined,
  'POST /v1/deviceOperations/:id/enqueueOnDemand': () => undefined,
  'POST /v1/deviceOperations/:id/dequeueOnDemand': () => undefined,
  'POST /v1/deviceOperations/clone': (o) => ({ fromDeviceId: o.deviceId, toDeviceId: o.otherDeviceId, deviceOperationIdsToClone: o.deviceOperationId }),
  'POST /v1/pendingdevices/batchpromote': (o) => ({ pendingDeviceIds: [o.pendingDeviceId], subscriptionId: o.subscriptionId }),
  'DELETE /v1/pendingdevices/batchdelete': (o) => [o.disposablePendingDeviceId],
  'PUT /v1/locations': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}` }),
  'POST /v1/locations/:id': (o) => ({ tenantId: o.tenantId, name: `Walked ${stamp()}` }),
  'PUT /v1/packages': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}`, packageTypeId: 1, operatingSystemRidsId: [1] }),
  'POST /v1/packages/:id': (o) => ({ tenantId: o.tenantId, name: `Walked ${stamp()}`, packageTypeId: 1, operatingSystemRidsId: [1] }),
  'DELETE /v1/packages/:id': () => undefined,
  'PUT /v1/packages/:id/operations': () => ({ name: `Walk ${stamp()}`, frequencyDefinitions: [2], defaultInterval: '00:05:00', operationType: 6, operationResultTypeId: 2 }),
  'POST /v1/packages/:id/operations/:operationId': () => ({ name: `Walked ${stamp()}`, frequencyDefinitions: [2], defaultInterval: '00:05:00', operationType: 6, operationResultTypeId: 2 }),
  'DELETE /v1/packages/:id/operations/:operationId': () => undefined,
  'DELETE /v1/packages/:id/versions/:versionId': () => undefined,
  'POST /v1/devices/:id': (o) => ({ name: `Walked ${stamp()}`, heartbeatInterval: 60, tenantId: o.tenantId, subscriptionId: o.subscriptionId }),
  'DELETE /v1/devices/:id': () => undefined,
  'POST /v1/devices/:id/toggleTrace/:minutes': () => undefined,
  'POST /v1/devices/:id/restartagent': () => undefined,
  'POST /v1/deviceInstallations/:deviceId/packages': (o) => [{ packageId: o.packageId, deviceId: o.deviceId, packageVersionId: EMPTY_GUID }],
  'PUT /v1/blocks': (o) => ({ blockId: crypto.randomUUID(), subscriptionId: o.subscriptionId, name: `Walk ${stamp()}`, blockTypeId: 1 }),
  'POST /v1/blocks/:id': () => ({ name: `Walked ${stamp()}` }),
  'DELETE /v1/blocks/:id': () => undefined,
  'PUT /v1/rules': (o) => ruleBody(o.tenantId, `Walk ${stamp()}`),
  'POST /v1/rules/:ruleId': (o) => ruleBody(o.tenantId, `Walked ${stamp()}`),
  'POST /v1/rules/test': (o) => ({ rule: ruleBody(o.tenantId, `Walk ${stamp()}`), window: 'hour' }),
  'POST /v1/rules/toggledisabled/:ruleId': () => undefined,
  'POST /v1/rules/:ruleId/copy': () => undefined,
  'DELETE /v1/rules/:id': () => undefined,
  'POST /v1/emailtemplates/render': (o) => ({ workUnitId: o.workUnitId, protocolActionId: o.emailStepId }),
  'PUT /v1/protocols': (o) => ({ name: `Walk ${stamp()}`, tenantId: o.tenantId }),
  'POST /v1/protocols/:id': (o) => ({ name: `Walked ${stamp()}`, tenantId: o.tenantId }),
  'DELETE /v1/protocols/:id': () => undefined,
  'PUT /v1/protocolActions': (o) => stepBody(o.protocolId),
  'POST /v1/protocolActions/:id': (o) => stepBody(o.protocolId),
  'DELETE /v1/protocolActions/:id': () => undefined,
  'POST /v1/workunits/:id/protocolActions/:protocolActionId/trigger': () => ({ reject: false }),
  'PUT /v1/actionDefinitions': (o) => actionBody(o.tenantId, `Walk ${stamp()}`),
  'POST /v1/actionDefinitions/:id': (o) => actionBody(o.tenantId, `Walked ${stamp()}`),
  'DELETE /v1/actionDefinitions/:id': () => undefined,
  'POST /v1/actionDefinitions/:id/test': () => ({ parameters: { Host: 'walk' } }),
  'PUT /v1/workunitcommunications': (o) => communicationBody(o.tenantId),
  'POST /v1/workunitcommunications/:id': (o) => communicationBody(o.tenantId),
  'DELETE /v1/workunitcommunications/:id': () => undefined,
  'POST /v1/workunitcommunications/:id/workUnits': (o) => ({ workunitIds: [o.workUnitId] }),
  'DELETE /v1/workunitcommunications/:id/workUnits/:workunitId': () => undefined,
  'PUT /v1/workunitcommunicationactivities': (o) => activityBody(o.communicationId),
  'POST /v1/workunitcommunicationactivities/:id': (o) => activityBody(o.communicationId),
  'DELETE /v1/workunitcommunicationactivities/:id': () => undefined,
  'POST /v1/workunitcommunications/:id/externalReport': () => undefined,
  'PUT /v1/controlsets': () => ({ name: `Walk ${stamp()}`, controls: [{ id: 'W-1', family: 'Walk', title: 'Walk' }] }),
  'POST /v1/controlsets/Export': (o) => ({ startDate: '2026-03-08', tenantId: o.tenantId }),
  'POST /v1/compliancereport/Export': () => ({}),
  'POST /v1/controlstatuses': (o) => ({ checkDate: randomWeek(), status: 'Compliant', tenantId: o.tenantId, controlId: o.controlId }),
  'POST /v1/controlstatuses/copyLastWeek': (o) => ({ controlSetId: o.controlSetId, tenantId: o.tenantId, checkDate: '2026-03-15' }),
  'PATCH /v1/controlstatuses/:id': () => [{ op: 'replace', path: '/notes', value: `Walked ${stamp()}` }],
  'DELETE /v1/controlstatuses/:id': () => undefined,
  'DELETE /v1/workunitcommunications/:id/externalReport': () => undefined,
  // Machine callers.
  'POST /v1/packets': (o) => ({ entityId: o.agentDeviceId, timestamp: new Date().toISOString(), message: { Value: 1 } }),
  'POST /v1/agent/enrol': () => ({ agentKey: PROBE_SECRETS.agentKey(), machineName: `PROBE-${stamp()}`, operatingSystem: 'linux', architecture: 'x64', agentVersion: '0.1.0' }),
  'POST /v1/agent/restart/acknowledge': () => undefined,
  'POST /v1/agent/logs': () => ({ entries: [{ entryType: 'Information', detail: 'probed' }] }),
  'POST /v1/agent/operations/:deviceOperationId/logs': () => ({ entries: [{ entryType: 'Information', detail: 'probed' }] }),
  'POST /v1/agent/operations/:deviceOperationId/complete': (o) => ({ completionToken: o.agentCompletionToken }),
  'POST /v1/agent/installations/:packageId': (o) => ({ packageVersionId: o.agentPackageVersionId, status: 'Installed' }),
  // Anyone: an access request from the login page, a sign-in.
  'POST /api/v1/accessrequest': () => ({ fullName: 'Probe Person', email: `probe.${stamp()}@probe.example`, reason: 'Probing the portal' }),
  'POST /oidc/interaction/:uid/login': () => ({ username: 'admin', password: PROBE_SECRETS.password }),
  'POST /oidc/*': () => ({ grant_type: 'refresh_token', refresh_token: PROBE_SECRETS.refreshToken, client_id: 'cfs-portal' }),
};

/**
 * Secrets the probes send where a caller would: none of them may reach a log line. Long and
 * random, so that finding one in the log is never a coincidence.
 */
export const PROBE_SECRETS = {
  password: `pw-${randomBytes(12).toString('hex')}`,
  refreshToken: `rt-${randomBytes(16).toString('hex')}`,
  authorizationCode: `code-${randomBytes(16).toString('hex')}`,
  tenantSecret: `secret-${randomBytes(16).toString('hex')}`,
  agentKeys: [] as string[],
  agentKey(): string {
    const key = randomBytes(32).toString('base64url');
    this.agentKeys.push(key);
    return key;
  },
};

/** A compliance week no other call of the walk has used (one record per tenant, control and week). */
const randomWeek = () => `${2100 + Math.floor(Math.random() * 800)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;
const communicationBody = (tenantId: string) => ({ title: `Walked ${stamp()}`, tenantId, serviceManager: 'Walker' });
const activityBody = (communicationId: string) => ({ workUnitCommunicationId: communicationId, activityType: 'TaskActivity', details: `Walked ${stamp()}` });

function actionBody(tenantId: string, name: string) {
  return { name, actionDefinitionTypeId: 4, tenantId, endpointUrl: 'https://8.8.8.8/walk/{Host}', inputParameters: 'Host' };
}

/** Multipart bodies (a package version upload): the form fields, and one file. */
export const MULTIPART: Record<string, (o: Objects) => Record<string, string>> = {
  'POST /v1/packages/upload': (o) => ({ packageId: o.packageId, tenantId: o.tenantId, label: 'Walk', version: `0.0.${Math.floor(Math.random() * 1e6)}` }),
};

function multipart(fields: Record<string, string>): { payload: string; contentType: string } {
  const boundary = `walk${stamp()}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file-0"; filename="walk.txt"\r\nContent-Type: text/plain\r\n\r\nwalked\r\n`;
  return { payload: `${parts.join('')}${file}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Query strings of the reads that need one. */
export const QUERIES: Record<string, (o: Objects) => string> = {
  'GET /v1/workunits/GetWorkUnitHistoryRecords': (o) => `workUnitId=${o.workUnitId}`,
  'GET /v1/workunits/rc/categories': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/auditEvents': (o) => `entityType=tenant&entityId=${o.tenantId}`,
  'GET /api/people': () => 'search=a',
  'GET /api/peopleandgroups': () => 'search=a',
  'GET /api/generallookup/approval': () => 'approverId=operator%40cfs.example',
  'GET /v1/savedviews/workunits': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/operations/GetAvailableOperationsForDevice': (o) => `tenantId=${o.tenantId}&operatingSystemId=1`,
  'GET /v1/devices/GetPackageInstallsWithVersions': (o) => `deviceId=${o.deviceId}`,
  'POST /v1/devices/:id/restartagent': (o) => `__tenant__=${o.tenantId}`,
  'GET /v1/blocks/:id/series': () => `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
  'GET /v1/packets/:entityId/series': () => `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
  'GET /v1/rules/GetRulesForAction': () => `actionDefinitionId=${BUILT_IN_ACTIONS.setColor.id}`,
  'GET /api/generalLookup/ruleleftoperands': (o) => `ruleType=1&tenantId=${o.tenantId}`,
  'GET /v1/actionDefinitions/GetActionDefinitionsForRules': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/actionDefinitions/GetActionDefinitionsForProtocols': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/protocols/GetMatchedRules': (o) => `id=${o.protocolId}`,
  'GET /v1/protocols/GetProtocolsForAction': () => `actionDefinitionId=${BUILT_IN_ACTIONS.sendEmail.id}`,
  'GET /v1/home/workunits': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/home/devices': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/home/rulematches': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/home/communications': (o) => `tenantId=${o.tenantId}`,
  'GET /v1/home/compliance': (o) => `tenantId=${o.tenantId}&checkDate=2026-03-11`,
  'GET /v1/controlsets': (o) => `tenantId=${o.tenantId}&checkDate=2026-03-08`,
  'PUT /v1/controlsets': (o) => `tenantId=${o.tenantId}`,
  // Sign-in material in an address, as a misbehaving client might send it: the log must not keep it.
  'GET /oidc/*': () => `code=${PROBE_SECRETS.authorizationCode}&refresh_token=${PROBE_SECRETS.refreshToken}`,
};

/**
 * Routes that name no tenant-owned object: shared by every tenant (work unit types, people, the
 * built-in actions), creating a tenant, a list's export sent by POST (its rows are the caller's
 * scope, as the GET export's), a machine's report about itself (its tenant is its credential's),
 * or a history read through the caller's scope (another tenant's entity has none to show).
 */
export const NOT_TENANT_BOUND = new Set([
  'GET /api/people',
  'GET /api/peopleandgroups',
  'GET /api/generallookup/approval',
  'GET /v1/rules/GetRulesForAction',
  'GET /v1/protocols/GetProtocolsForAction',
  'GET /v1/auditEvents',
  'PUT /v1/tenants',
  'PUT /v1/workunittypes',
  'POST /v1/workunittypes/:id',
  'POST /v1/compliancereport/Export',
  'POST /v1/agent/enrol',
  'POST /v1/agent/logs',
  'POST /v1/agent/restart/acknowledge',
]);

/** Path parameters by the collection they follow. */
export function paramValue(url: string, name: string, o: Objects, method: string): string {
  if (url.startsWith('/v1/agent/operations/')) return o.agentDeviceOperationId;
  if (url.startsWith('/v1/agent/installations/')) return o.agentPackageId;
  if (url.startsWith('/v1/agent/packageversions/')) return o.agentPackageVersionId;
  if (name === 'uid') return 'probe';
  if (url.startsWith('/v1/features/')) return 'accessRequest';
  if (url.includes('/public/status/')) return randomBytes(24).toString('base64url');
  if (url.startsWith('/downloads/agent/')) return 'cfs-agent-linux-x64';
  if (name === 'secretId') return method === 'DELETE' ? o.disposableSecretId : o.secretId;
  if (url.startsWith('/v1/savedviews/')) return method === 'DELETE' ? o.disposableSavedViewId : o.savedViewId;
  if (name === 'workUnitId' || name === 'workunitId') return String(o.workUnitId);
  if (url.startsWith('/v1/workunitcommunications/')) return method === 'DELETE' && url === '/v1/workunitcommunications/:id' ? o.disposableCommunicationId : o.communicationId;
  if (url.startsWith('/v1/workunitcommunicationactivities/')) return method === 'DELETE' ? o.disposableCommunicationActivityId : o.communicationActivityId;
  if (url.startsWith('/v1/controlstatuses/')) return method === 'DELETE' ? o.disposableControlStatusId : o.controlStatusId;
  if (url.endsWith('/trigger')) return name === 'id' ? String(o.manualWorkUnitId) : o.protocolActionId;
  if (url.startsWith('/v1/protocols/')) return String(method === 'DELETE' ? o.disposableProtocolId : o.protocolId);
  if (url.startsWith('/v1/protocolActions/')) return method === 'DELETE' ? o.disposableProtocolActionId : o.protocolActionId;
  if (name === 'tenant') return o.tenantId;
  if (name === 'entityId') return o.entityId;
  if (url.startsWith('/v1/deviceOperations/')) return method === 'DELETE' ? o.disposableDeviceOperationId : o.deviceOperationId;
  if (name === 'minutes') return '10';
  if (name === 'leftOperandType') return 'device';
  if (url.startsWith('/v1/rules/')) return method === 'DELETE' ? o.disposableRuleId : o.ruleId;
  if (url.startsWith('/v1/actionDefinitions/')) return method === 'DELETE' ? o.disposableActionDefinitionId : o.actionDefinitionId;
  if (url.startsWith('/v1/actionHistories/')) return String(o.actionHistoryId);
  if (name === 'tenantId') return o.tenantId;
  if (name === 'deviceId') return o.deviceId;
  if (name === 'versionId') return o.packageVersionId;
  if (name === 'operationId') return method === 'DELETE' ? o.disposablePackageOperationId : o.packageOperationId;
  if (url.startsWith('/v1/devices/')) return method === 'DELETE' ? o.disposableDeviceId : o.deviceId;
  if (url.startsWith('/v1/locations/')) return o.locationId;
  if (url.startsWith('/v1/blocks/')) return method === 'DELETE' ? o.disposableBlockId : o.blockId;
  if (url.startsWith('/v1/entities/')) return o.blockId;
  if (url.startsWith('/v1/packages/')) return method === 'DELETE' && url === '/v1/packages/:id' ? o.disposablePackageId : o.packageId;
  const collection = url.split('/').find((segment) => ['tenants', 'subscriptions', 'tokens', 'workunitcategories', 'workunitsubcategories', 'workunits', 'workunittypes'].includes(segment));
  switch (collection) {
    case 'tenants':
      return o.tenantId;
    case 'subscriptions':
      return o.subscriptionId;
    case 'tokens':
      return o.tokenGrantId;
    case 'workunitcategories':
      return String(o.categoryId);
    case 'workunitsubcategories':
      return String(o.subcategoryId);
    case 'workunits':
      return String(o.workUnitId);
    case 'workunittypes':
      return String(WORK_UNIT_TYPES.Incident);
    default:
      throw new Error(`No value for :${name} of ${url}: teach the walk this collection`);
  }
}


/**
 * Objects of one tenant for every route. `viewOwner` owns the saved views: a user who can reach
 * them only through their tenant scope.
 */
export async function objectsOf(portal: TestPortal, tenantId: string, subscriptionId: string, viewOwner: string): Promise<Objects> {
  const unit = await sql<{ work_unit_id: number }>`SELECT work_unit_id FROM work_unit WHERE tenant_id = ${tenantId} ORDER BY work_unit_id LIMIT 1`.execute(portal.db);
  const category = await createCategoryAs(portal, 'admin', tenantId);
  const subcategory = (await portal.as('admin', { method: 'PUT', url: '/v1/workunitsubcategories', payload: { workUnitCategoryId: category.workUnitCategoryId, name: 'Walk', isEnabled: true } })).json<{ workUnitSubcategoryId: number }>();
  const token = await createTokenAs(portal, 'admin', tenantId);
  const walker = await portal.db.selectFrom('app_user').select('user_id').where('user_name', '=', viewOwner).executeTakeFirstOrThrow();
  const view = async () =>
    (
      await portal.db
        .insertInto('saved_view')
        .values({ tenant_id: tenantId, user_id: walker.user_id, grid: 'workunits', name: `walk ${stamp()}`, state: JSON.stringify(VIEW_STATE) })
        .returning('saved_view_id')
        .executeTakeFirstOrThrow()
    ).saved_view_id;
  const entityId = crypto.randomUUID();
  const reported = await portal.app.inject({ method: 'POST', url: '/v1/packets', headers: { authorization: `Bearer ${token.generatedToken}` }, payload: { entityId, timestamp: new Date().toISOString(), message: { Value: 1 } } });
  if (reported.statusCode !== 200) throw new Error(`packet: ${reported.statusCode} ${reported.body}`);
  const secret = async () => (await portal.as('admin', { method: 'PUT', url: `/v1/tenants/${tenantId}/secrets`, payload: { name: `walk.${stamp()}`, value: PROBE_SECRETS.tenantSecret } })).json<{ secretId: string }>().secretId;
  const device = async () =>
    (await portal.db.insertInto('device').values({ tenant_id: tenantId, subscription_id: subscriptionId, name: `walk ${stamp()}` }).returning('device_id').executeTakeFirstOrThrow()).device_id;
  const deviceId = await device();
  const pkg = await portal.db.insertInto('package').values({ name: `walk ${stamp()}`, package_type_id: 1, operating_system_ids: [1] }).returning('package_id').executeTakeFirstOrThrow();
  const { operation_id: operationId } = await portal.db
    .insertInto('operation')
    .values({ package_id: pkg.package_id, name: 'Walk', frequency_type_ids: [1, 2], operation_type_id: 6, operation_result_type_id: 2 })
    .returning('operation_id')
    .executeTakeFirstOrThrow();
  const deviceOperation = async () =>
    (
      await portal.db
        .insertInto('device_operation')
        .values({ tenant_id: tenantId, device_id: deviceId, operation_id: operationId, label: `walk ${stamp()}`, frequency_type_id: 1 })
        .returning('device_operation_id')
        .executeTakeFirstOrThrow()
    ).device_operation_id;
  const pending = async () =>
    (
      await portal.db
        .insertInto('pending_device')
        .values({ tenant_id: tenantId, machine_name: `WALK-${stamp()}`, agent_key_hash: `walk-${crypto.randomUUID()}` })
        .returning('pending_device_id')
        .executeTakeFirstOrThrow()
    ).pending_device_id;
  const ownPackage = async () =>
    (await portal.db.insertInto('package').values({ tenant_id: tenantId, name: `walk ${stamp()}`, package_type_id: 1, operating_system_ids: [1] }).returning('package_id').executeTakeFirstOrThrow()).package_id;
  const packageId = await ownPackage();
  const packageOperation = async () =>
    (
      await portal.db
        .insertInto('operation')
        .values({ package_id: packageId, name: `Walk ${stamp()}`, frequency_type_ids: [2], operation_type_id: 6, operation_result_type_id: 2 })
        .returning('operation_id')
        .executeTakeFirstOrThrow()
    ).operation_id;
  const version = await portal.db
    .insertInto('package_version')
    .values({ package_id: packageId, version: '0.0.1', label: 'walk', package_version_status_id: PACKAGE_VERSION_STATUSES.Archived, file_sha256: '0'.repeat(64), file_name: 'walk.txt', file_size: 6 })
    .returning('package_version_id')
    .executeTakeFirstOrThrow();
  const block = async () =>
    (
      await portal.db
        .insertInto('block')
        .values({ block_id: crypto.randomUUID(), tenant_id: tenantId, subscription_id: subscriptionId, name: `walk ${stamp()}`, block_type_id: 1 })
        .returning('block_id')
        .executeTakeFirstOrThrow()
    ).block_id;
  const location = await portal.db.insertInto('location').values({ tenant_id: tenantId, name: `walk ${stamp()}` }).returning('location_id').executeTakeFirstOrThrow();
  const rule = async () => {
    const created = await portal.as('admin', { method: 'PUT', url: '/v1/rules', payload: ruleBody(tenantId, `walk ${stamp()}`) });
    if (created.statusCode !== 200) throw new Error(`rule: ${created.statusCode} ${created.body}`);
    return created.json<{ ruleId: string }>().ruleId;
  };
  const emailProtocol = await portal.db.insertInto('protocol').values({ tenant_id: tenantId, name: `walk ${stamp()}` }).returning('protocol_id').executeTakeFirstOrThrow();
  const emailStep = await portal.db
    .insertInto('protocol_action')
    .values({ protocol_id: emailProtocol.protocol_id, tenant_id: tenantId, action_definition_id: BUILT_IN_ACTIONS.sendEmail.id, work_unit_event_type_id: 1, parameters: JSON.stringify({ Template: 'Simple' }) })
    .returning('protocol_action_id')
    .executeTakeFirstOrThrow();
  const protocol = async () => (await portal.as('admin', { method: 'PUT', url: '/v1/protocols', payload: { name: `walk ${stamp()}`, tenantId } })).json<{ protocolId: number }>().protocolId;
  const protocolId = await protocol();
  const step = async () => (await portal.as('admin', { method: 'PUT', url: '/v1/protocolActions', payload: stepBody(protocolId) })).json<{ protocolActionId: string }>().protocolActionId;
  const manualUnit = await portal.as('admin', { method: 'PUT', url: '/api/v1/workunits', payload: { workUnitId: -1, title: 'Walk protocol', severityId: 2, stateId: WORK_UNIT_STATES.New, tenantId, workUnitTypeId: WORK_UNIT_TYPES.Incident, protocolId } });
  if (manualUnit.statusCode !== 200) throw new Error(`unit: ${manualUnit.statusCode} ${manualUnit.body}`);
  const action = async () =>
    (await portal.db.insertInto('action_definition').values({ tenant_id: tenantId, name: `walk ${stamp()}`, action_definition_type_id: 4, endpoint_url: 'https://8.8.8.8/walk' }).returning('action_definition_id').executeTakeFirstOrThrow())
      .action_definition_id;
  const actionDefinitionId = await action();
  const history = await portal.db
    .insertInto('action_history')
    .values({ tenant_id: tenantId, action_definition_id: actionDefinitionId, result_status_id: 1, result_detail: 'walk' })
    .returning('action_history_id')
    .executeTakeFirstOrThrow();
  const communication = async () =>
    (
      await portal.db
        .insertInto('work_unit_communication')
        .values({ tenant_id: tenantId, title: `walk ${stamp()}`, service_manager: 'Walker' })
        .returning('work_unit_communication_id')
        .executeTakeFirstOrThrow()
    ).work_unit_communication_id;
  const communicationId = await communication();
  const activity = async () =>
    (
      await portal.db
        .insertInto('work_unit_communication_activity')
        .values({ tenant_id: tenantId, work_unit_communication_id: communicationId, activity_type: 'TaskActivity', details: 'walk' })
        .returning('work_unit_communication_activity_id')
        .executeTakeFirstOrThrow()
    ).work_unit_communication_activity_id;
  const shipped = await portal.db
    .selectFrom('control')
    .innerJoin('control_set', 'control_set.control_set_id', 'control.control_set_id')
    .select(['control.control_id', 'control.control_set_id'])
    .where('control_set.name', '=', 'NIST SP 800-53 Rev. 5 Moderate baseline')
    .where('control.name', '=', 'AC-1')
    .executeTakeFirstOrThrow();
  const controlStatus = async () =>
    (
      await portal.db
        .insertInto('control_status')
        .values({ tenant_id: tenantId, control_id: shipped.control_id, check_date: randomWeek(), status: 'NonCompliant' })
        .returning('control_status_id')
        .executeTakeFirstOrThrow()
    ).control_status_id;
  const agent = await agentObjects(portal, tenantId, subscriptionId, operationId);
  return {
    ...agent,
    controlSetId: shipped.control_set_id,
    controlId: shipped.control_id,
    controlStatusId: await controlStatus(),
    disposableControlStatusId: await controlStatus(),
    communicationId,
    disposableCommunicationId: await communication(),
    communicationActivityId: await activity(),
    disposableCommunicationActivityId: await activity(),
    tenantId,
    subscriptionId,
    protocolId,
    disposableProtocolId: await protocol(),
    protocolActionId: await step(),
    disposableProtocolActionId: await step(),
    manualWorkUnitId: manualUnit.json<{ workUnitId: number }>().workUnitId,
    workUnitId: unit.rows[0]!.work_unit_id,
    categoryId: category.workUnitCategoryId,
    subcategoryId: subcategory.workUnitSubcategoryId,
    tokenGrantId: token.tokenGrantId,
    secretId: await secret(),
    disposableSecretId: await secret(),
    savedViewId: await view(),
    disposableSavedViewId: await view(),
    entityId,
    deviceId,
    otherDeviceId: await device(),
    operationId,
    deviceOperationId: await deviceOperation(),
    disposableDeviceOperationId: await deviceOperation(),
    pendingDeviceId: await pending(),
    disposablePendingDeviceId: await pending(),
    disposableDeviceId: await device(),
    locationId: location.location_id,
    packageId,
    disposablePackageId: await ownPackage(),
    packageOperationId: await packageOperation(),
    disposablePackageOperationId: await packageOperation(),
    packageVersionId: version.package_version_id,
    blockId: await block(),
    disposableBlockId: await block(),
    ruleId: await rule(),
    disposableRuleId: await rule(),
    emailStepId: emailStep.protocol_action_id,
    actionDefinitionId,
    disposableActionDefinitionId: await action(),
    actionHistoryId: Number(history.action_history_id),
  };
}

/** A device holding its own agent credential, with an on-demand operation queued and a package version it is to install. */
async function agentObjects(portal: TestPortal, tenantId: string, subscriptionId: string, operationId: string) {
  const { credential, hash } = generateDeviceCredential();
  const device = await portal.db
    .insertInto('device')
    .values({ tenant_id: tenantId, subscription_id: subscriptionId, name: `agent ${stamp()}`, credential_hash: hash })
    .returning('device_id')
    .executeTakeFirstOrThrow();
  const completionToken = crypto.randomUUID();
  const deviceOperation = await portal.db
    .insertInto('device_operation')
    .values({ tenant_id: tenantId, device_id: device.device_id, operation_id: operationId, label: `agent ${stamp()}`, frequency_type_id: 1, completion_token: completionToken })
    .returning('device_operation_id')
    .executeTakeFirstOrThrow();
  const file = await portal.db.transaction().execute((trx) => fileStoreOf(portal.config).put(trx, `probe ${stamp()}`));
  const pkg = await portal.db.insertInto('package').values({ tenant_id: tenantId, name: `agent ${stamp()}`, package_type_id: 1, operating_system_ids: [1] }).returning('package_id').executeTakeFirstOrThrow();
  const version = await portal.db
    .insertInto('package_version')
    .values({ package_id: pkg.package_id, version: '1.0.0', label: 'probe', package_version_status_id: PACKAGE_VERSION_STATUSES.Latest, file_sha256: file.sha256, file_name: 'probe.txt', file_size: file.size })
    .returning('package_version_id')
    .executeTakeFirstOrThrow();
  await portal.db
    .insertInto('device_installation')
    .values({ tenant_id: tenantId, device_id: device.device_id, package_id: pkg.package_id, package_version_id: version.package_version_id, install_status_id: INSTALL_STATUSES.Pending })
    .execute();
  return {
    agentDeviceId: device.device_id,
    agentCredential: credential,
    agentDeviceOperationId: deviceOperation.device_operation_id,
    agentCompletionToken: completionToken,
    agentPackageId: pkg.package_id,
    agentPackageVersionId: version.package_version_id,
  };
}

/** A route as the matrix calls it: one method of a registered route. */
export interface ProbedRoute {
  method: string;
  url: string;
}

/** A concrete path for a wildcard route. */
const WILDCARDS: Record<string, string> = { '/oidc/*': '.well-known/openid-configuration', 'POST /oidc/*': 'token', '/docs/static/*': 'index.css' };

/** Calls `route` with the objects `o` and the caller's headers (a bearer token, or none). */
export function probe(app: FastifyInstance, route: ProbedRoute, o: Objects, headers: Record<string, string>): Promise<LightMyRequestResponse> {
  const { method, url } = route;
  const key = `${method} ${url}`;
  const path = url
    .replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(paramValue(url, name, o, method)))
    .replace(/\*$/, () => WILDCARDS[key] ?? WILDCARDS[url] ?? '');
  const query = QUERIES[key]?.(o);
  const form = MULTIPART[key]?.(o);
  const options: InjectOptions = { method: method as 'GET', url: query ? `${path}?${query}` : path, headers };
  if (form) {
    const { payload, contentType } = multipart(form);
    return app.inject({ ...options, payload, headers: { ...headers, 'content-type': contentType } });
  }
  const body = BODIES[key]?.(o);
  if (body === undefined) return app.inject(options);
  return app.inject({ ...options, payload: JSON.stringify(body), headers: { ...headers, 'content-type': method === 'PATCH' ? 'application/json-patch+json' : 'application/json' } });
}
