import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { INSTALL_STATUSES, OPERATION_TYPES, PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { generateDeviceCredential } from '../src/auth/machine-callers.js';
import { fileStoreOf } from '../src/files/content-store.js';
import { stepBody } from '../src/areas/protocolactions/route-probes.js';
import { ruleBody } from '../src/areas/rules/route-probes.js';
import { createCategoryAs, createTokenAs } from './factories.js';
import type { TestPortal } from './harness.js';
import { PROBE_SECRETS, randomWeek, stamp, VIEW_STATE, type AreaProbes, type Objects } from './probe-kit.js';

export { PROBE_SECRETS, type Objects } from './probe-kit.js';

/*
 * Objects of one tenant for every registered route, and the request that calls a route with them:
 * the authorization matrix calls each route with one tenant's objects and with another's.
 * Each area keeps the bodies, query strings and objects its routes need beside them, in
 * `src/areas/<area>/route-probes.ts` (read from the areas' folders here); the identity provider's
 * routes, which belong to no area, are below. A write route needs a body; a new one without it
 * fails the matrix until one is added.
 */

const AREAS_DIR = path.join(import.meta.dirname, '../src/areas');

/** Every area's probes, from the `route-probes.ts` files of the areas' folders, in the folders' order. */
async function areaProbes(): Promise<{ area: string; probes: AreaProbes }[]> {
  const found: { area: string; probes: AreaProbes }[] = [];
  for (const area of fs.readdirSync(AREAS_DIR).sort()) {
    const file = path.join(AREAS_DIR, area, 'route-probes.ts');
    if (!fs.existsSync(file)) continue;
    const module = (await import(pathToFileURL(file).href)) as { probes?: AreaProbes };
    if (!module.probes) throw new Error(`${path.relative(AREAS_DIR, file)} exports no \`probes\``);
    found.push({ area, probes: module.probes });
  }
  return found;
}

export const AREA_PROBES = await areaProbes();

/** The identity provider's routes (auth/embedded), which belong to no area. */
const PROVIDER_PROBES: AreaProbes = {
  bodies: {
    'POST /oidc/interaction/:uid/login': () => ({ username: 'admin', password: PROBE_SECRETS.password }),
    'POST /oidc/*': () => ({
      grant_type: 'refresh_token',
      refresh_token: PROBE_SECRETS.refreshToken,
      client_id: 'cfs-portal',
    }),
  },
  queries: {
    // Sign-in material in an address, as a misbehaving client might send it: the log must not keep it.
    'GET /oidc/*': () => `code=${PROBE_SECRETS.authorizationCode}&refresh_token=${PROBE_SECRETS.refreshToken}`,
  },
};

/** One table of every area's entries of a kind; a route two areas write for is a mistake, named here. */
function merged<T>(pick: (probes: AreaProbes) => Record<string, T> | undefined): Record<string, T> {
  const all: Record<string, T> = {};
  const owner: Record<string, string> = {};
  for (const { area, probes } of [...AREA_PROBES, { area: 'the identity provider', probes: PROVIDER_PROBES }]) {
    for (const [key, value] of Object.entries(pick(probes) ?? {})) {
      if (key in all) throw new Error(`${key} is probed by both ${owner[key]} and ${area}`);
      all[key] = value;
      owner[key] = area;
    }
  }
  return all;
}

/** Bodies of the write routes, built for the tenant whose objects are used. */
export const BODIES = merged((probes) => probes.bodies);

/** Multipart bodies (a package version upload): the form fields, and one file. */
export const MULTIPART = merged((probes) => probes.multipart);

/** Query strings of the reads that need one. */
export const QUERIES = merged((probes) => probes.queries);

/** Routes that name no tenant-owned object (`AreaProbes.notTenantBound`). */
export const NOT_TENANT_BOUND = new Set(AREA_PROBES.flatMap(({ probes }) => probes.notTenantBound ?? []));

/** Routes only staff of every tenant may call (`AreaProbes.installationOnly`). */
export const INSTALLATION_ONLY = new Set(AREA_PROBES.flatMap(({ probes }) => probes.installationOnly ?? []));

function multipart(fields: Record<string, string>): { payload: string; contentType: string } {
  const boundary = `walk${stamp()}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file-0"; filename="walk.txt"\r\nContent-Type: text/plain\r\n\r\nwalked\r\n`;
  return {
    payload: `${parts.join('')}${file}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Path parameters by the collection they follow. */
export function paramValue(url: string, name: string, o: Objects, method: string): string {
  for (const { probes } of AREA_PROBES) {
    const value = probes.param?.(url, name, o, method);
    if (value !== undefined) return value;
  }
  if (url.startsWith('/v1/agent/operations/') && url.endsWith('/scriptruns')) return o.agentScriptDeviceOperationId;
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
  if (url.startsWith('/v1/workunitcommunications/'))
    return method === 'DELETE' && url === '/v1/workunitcommunications/:id'
      ? o.disposableCommunicationId
      : o.communicationId;
  if (url.startsWith('/v1/workunitcommunicationactivities/'))
    return method === 'DELETE' ? o.disposableCommunicationActivityId : o.communicationActivityId;
  if (url.startsWith('/v1/controlstatuses/'))
    return method === 'DELETE' ? o.disposableControlStatusId : o.controlStatusId;
  if (url.endsWith('/trigger')) return name === 'id' ? String(o.manualWorkUnitId) : o.protocolActionId;
  if (url.startsWith('/v1/protocols/')) return String(method === 'DELETE' ? o.disposableProtocolId : o.protocolId);
  if (url.startsWith('/v1/protocolActions/'))
    return method === 'DELETE' ? o.disposableProtocolActionId : o.protocolActionId;
  if (name === 'tenant') return o.tenantId;
  if (name === 'entityId') return o.entityId;
  if (url.startsWith('/v1/deviceOperations/'))
    return method === 'DELETE' ? o.disposableDeviceOperationId : o.deviceOperationId;
  if (name === 'minutes') return '10';
  if (name === 'leftOperandType') return 'device';
  if (url.startsWith('/v1/rules/')) return method === 'DELETE' ? o.disposableRuleId : o.ruleId;
  if (url.startsWith('/v1/actionDefinitions/'))
    return method === 'DELETE' ? o.disposableActionDefinitionId : o.actionDefinitionId;
  if (url.startsWith('/v1/actionHistories/')) return String(o.actionHistoryId);
  if (name === 'tenantId') return o.tenantId;
  if (name === 'deviceId') return o.deviceId;
  if (name === 'versionId') return o.packageVersionId;
  if (name === 'operationId') return method === 'DELETE' ? o.disposablePackageOperationId : o.packageOperationId;
  if (url.startsWith('/v1/devices/')) return method === 'DELETE' ? o.disposableDeviceId : o.deviceId;
  if (url.startsWith('/v1/blocks/')) return method === 'DELETE' ? o.disposableBlockId : o.blockId;
  if (url.startsWith('/v1/entities/')) return o.blockId;
  if (url.startsWith('/v1/packages/'))
    return method === 'DELETE' && url === '/v1/packages/:id' ? o.disposablePackageId : o.packageId;
  const collection = url
    .split('/')
    .find((segment) =>
      [
        'tenants',
        'subscriptions',
        'tokens',
        'workunitcategories',
        'workunitsubcategories',
        'workunits',
        'workunittypes',
      ].includes(segment),
    );
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
export async function objectsOf(
  portal: TestPortal,
  tenantId: string,
  subscriptionId: string,
  viewOwner: string,
): Promise<Objects> {
  const unit = await sql<{
    work_unit_id: number;
  }>`SELECT work_unit_id FROM work_unit WHERE tenant_id = ${tenantId} ORDER BY work_unit_id LIMIT 1`.execute(portal.db);
  const category = await createCategoryAs(portal, 'admin', tenantId);
  const subcategory = (
    await portal.as('admin', {
      method: 'PUT',
      url: '/v1/workunitsubcategories',
      payload: { workUnitCategoryId: category.workUnitCategoryId, name: 'Walk', isEnabled: true },
    })
  ).json<{ workUnitSubcategoryId: number }>();
  const token = await createTokenAs(portal, 'admin', tenantId);
  const walker = await portal.db
    .selectFrom('app_user')
    .select('user_id')
    .where('user_name', '=', viewOwner)
    .executeTakeFirstOrThrow();
  const view = async () =>
    (
      await portal.db
        .insertInto('saved_view')
        .values({
          tenant_id: tenantId,
          user_id: walker.user_id,
          grid: 'workunits',
          name: `walk ${stamp()}`,
          state: JSON.stringify(VIEW_STATE),
        })
        .returning('saved_view_id')
        .executeTakeFirstOrThrow()
    ).saved_view_id;
  const entityId = crypto.randomUUID();
  const reported = await portal.app.inject({
    method: 'POST',
    url: '/v1/packets',
    headers: { authorization: `Bearer ${token.generatedToken}` },
    payload: { entityId, timestamp: new Date().toISOString(), message: { Value: 1 } },
  });
  if (reported.statusCode !== 200) throw new Error(`packet: ${reported.statusCode} ${reported.body}`);
  const secret = async () =>
    (
      await portal.as('admin', {
        method: 'PUT',
        url: `/v1/tenants/${tenantId}/secrets`,
        payload: { name: `walk.${stamp()}`, value: PROBE_SECRETS.tenantSecret },
      })
    ).json<{ secretId: string }>().secretId;
  const device = async () =>
    (
      await portal.db
        .insertInto('device')
        .values({ tenant_id: tenantId, subscription_id: subscriptionId, name: `walk ${stamp()}` })
        .returning('device_id')
        .executeTakeFirstOrThrow()
    ).device_id;
  const deviceId = await device();
  const pkg = await portal.db
    .insertInto('package')
    .values({ name: `walk ${stamp()}`, package_type_id: 1, operating_system_ids: [1] })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  const { operation_id: operationId } = await portal.db
    .insertInto('operation')
    .values({
      package_id: pkg.package_id,
      name: 'Walk',
      frequency_type_ids: [1, 2],
      operation_type_id: 6,
      operation_result_type_id: 2,
    })
    .returning('operation_id')
    .executeTakeFirstOrThrow();
  const deviceOperation = async () =>
    (
      await portal.db
        .insertInto('device_operation')
        .values({
          tenant_id: tenantId,
          device_id: deviceId,
          operation_id: operationId,
          label: `walk ${stamp()}`,
          frequency_type_id: 1,
        })
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
    (
      await portal.db
        .insertInto('package')
        .values({ tenant_id: tenantId, name: `walk ${stamp()}`, package_type_id: 1, operating_system_ids: [1] })
        .returning('package_id')
        .executeTakeFirstOrThrow()
    ).package_id;
  const packageId = await ownPackage();
  const packageOperation = async () =>
    (
      await portal.db
        .insertInto('operation')
        .values({
          package_id: packageId,
          name: `Walk ${stamp()}`,
          frequency_type_ids: [2],
          operation_type_id: 6,
          operation_result_type_id: 2,
        })
        .returning('operation_id')
        .executeTakeFirstOrThrow()
    ).operation_id;
  const version = await portal.db
    .insertInto('package_version')
    .values({
      package_id: packageId,
      version: '0.0.1',
      label: 'walk',
      package_version_status_id: PACKAGE_VERSION_STATUSES.Archived,
      file_sha256: '0'.repeat(64),
      file_name: 'walk.txt',
      file_size: 6,
    })
    .returning('package_version_id')
    .executeTakeFirstOrThrow();
  const block = async () =>
    (
      await portal.db
        .insertInto('block')
        .values({
          block_id: crypto.randomUUID(),
          tenant_id: tenantId,
          subscription_id: subscriptionId,
          name: `walk ${stamp()}`,
          block_type_id: 1,
        })
        .returning('block_id')
        .executeTakeFirstOrThrow()
    ).block_id;
  const rule = async () => {
    const created = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/rules',
      payload: ruleBody(tenantId, `walk ${stamp()}`),
    });
    if (created.statusCode !== 200) throw new Error(`rule: ${created.statusCode} ${created.body}`);
    return created.json<{ ruleId: string }>().ruleId;
  };
  const emailProtocol = await portal.db
    .insertInto('protocol')
    .values({ tenant_id: tenantId, name: `walk ${stamp()}` })
    .returning('protocol_id')
    .executeTakeFirstOrThrow();
  const emailStep = await portal.db
    .insertInto('protocol_action')
    .values({
      protocol_id: emailProtocol.protocol_id,
      tenant_id: tenantId,
      action_definition_id: BUILT_IN_ACTIONS.sendEmail.id,
      work_unit_event_type_id: 1,
      parameters: JSON.stringify({ Template: 'Simple' }),
    })
    .returning('protocol_action_id')
    .executeTakeFirstOrThrow();
  const protocol = async () =>
    (
      await portal.as('admin', { method: 'PUT', url: '/v1/protocols', payload: { name: `walk ${stamp()}`, tenantId } })
    ).json<{ protocolId: number }>().protocolId;
  const protocolId = await protocol();
  const step = async () =>
    (await portal.as('admin', { method: 'PUT', url: '/v1/protocolActions', payload: stepBody(protocolId) })).json<{
      protocolActionId: string;
    }>().protocolActionId;
  const manualUnit = await portal.as('admin', {
    method: 'PUT',
    url: '/api/v1/workunits',
    payload: {
      workUnitId: -1,
      title: 'Walk protocol',
      severityId: 2,
      stateId: WORK_UNIT_STATES.New,
      tenantId,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
      protocolId,
    },
  });
  if (manualUnit.statusCode !== 200) throw new Error(`unit: ${manualUnit.statusCode} ${manualUnit.body}`);
  const action = async () =>
    (
      await portal.db
        .insertInto('action_definition')
        .values({
          tenant_id: tenantId,
          name: `walk ${stamp()}`,
          action_definition_type_id: 4,
          endpoint_url: 'https://8.8.8.8/walk/{Host}',
          input_parameters: 'Host',
        })
        .returning('action_definition_id')
        .executeTakeFirstOrThrow()
    ).action_definition_id;
  const actionDefinitionId = await action();
  const history = await portal.db
    .insertInto('action_history')
    .values({
      tenant_id: tenantId,
      action_definition_id: actionDefinitionId,
      result_status_id: 1,
      result_detail: 'walk',
    })
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
        .values({
          tenant_id: tenantId,
          work_unit_communication_id: communicationId,
          activity_type: 'TaskActivity',
          details: 'walk',
        })
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
        .values({
          tenant_id: tenantId,
          control_id: shipped.control_id,
          check_date: randomWeek(),
          status: 'NonCompliant',
        })
        .returning('control_status_id')
        .executeTakeFirstOrThrow()
    ).control_status_id;
  const agent = await agentObjects(portal, tenantId, subscriptionId, operationId);
  const own: Record<string, string> = {};
  for (const { probes } of AREA_PROBES)
    Object.assign(own, await probes.objects?.(portal, { tenantId, subscriptionId }));
  return {
    own,
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
    .values({
      tenant_id: tenantId,
      device_id: device.device_id,
      operation_id: operationId,
      label: `agent ${stamp()}`,
      frequency_type_id: 1,
      completion_token: completionToken,
    })
    .returning('device_operation_id')
    .executeTakeFirstOrThrow();
  const file = await portal.db.transaction().execute((trx) => fileStoreOf(portal.config).put(trx, `probe ${stamp()}`));
  const pkg = await portal.db
    .insertInto('package')
    .values({ tenant_id: tenantId, name: `agent ${stamp()}`, package_type_id: 1, operating_system_ids: [1] })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  const version = await portal.db
    .insertInto('package_version')
    .values({
      package_id: pkg.package_id,
      version: '1.0.0',
      label: 'probe',
      package_version_status_id: PACKAGE_VERSION_STATUSES.Latest,
      file_sha256: file.sha256,
      file_name: 'probe.txt',
      file_size: file.size,
    })
    .returning('package_version_id')
    .executeTakeFirstOrThrow();
  await portal.db
    .insertInto('device_installation')
    .values({
      tenant_id: tenantId,
      device_id: device.device_id,
      package_id: pkg.package_id,
      package_version_id: version.package_version_id,
      install_status_id: INSTALL_STATUSES.Pending,
    })
    .execute();
  // A Script operation of that package on the device, whose runs the agent reports.
  const scriptOperation = await portal.db
    .insertInto('operation')
    .values({
      package_id: pkg.package_id,
      name: `script ${stamp()}`,
      frequency_type_ids: [1],
      operation_type_id: OPERATION_TYPES.Script,
      operation_result_type_id: 1,
    })
    .returning('operation_id')
    .executeTakeFirstOrThrow();
  const scriptDeviceOperation = await portal.db
    .insertInto('device_operation')
    .values({
      tenant_id: tenantId,
      device_id: device.device_id,
      operation_id: scriptOperation.operation_id,
      label: `script ${stamp()}`,
      frequency_type_id: 1,
    })
    .returning('device_operation_id')
    .executeTakeFirstOrThrow();
  return {
    agentDeviceId: device.device_id,
    agentCredential: credential,
    agentDeviceOperationId: deviceOperation.device_operation_id,
    agentScriptDeviceOperationId: scriptDeviceOperation.device_operation_id,
    agentScriptOperationId: scriptOperation.operation_id,
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
const WILDCARDS: Record<string, string> = {
  '/oidc/*': '.well-known/openid-configuration',
  'POST /oidc/*': 'token',
  '/docs/static/*': 'index.css',
};

/** What a caller changes of a probe's request: its body, or a multipart upload's form fields. */
export interface ProbeChange {
  body?: (body: unknown) => unknown;
  form?: (fields: Record<string, string>) => Record<string, string>;
}

/** Calls `route` with the objects `o` and the caller's headers (a bearer token, or none). */
export function probe(
  app: FastifyInstance,
  route: ProbedRoute,
  o: Objects,
  headers: Record<string, string>,
  change: ProbeChange = {},
): Promise<LightMyRequestResponse> {
  const { method, url } = route;
  const key = `${method} ${url}`;
  const path = url
    .replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(paramValue(url, name, o, method)))
    .replace(/\*$/, () => WILDCARDS[key] ?? WILDCARDS[url] ?? '');
  const query = QUERIES[key]?.(o);
  const fields = MULTIPART[key]?.(o);
  const options: InjectOptions = { method: method as 'GET', url: query ? `${path}?${query}` : path, headers };
  if (fields) {
    const { payload, contentType } = multipart(change.form ? change.form(fields) : fields);
    return app.inject({ ...options, payload, headers: { ...headers, 'content-type': contentType } });
  }
  const sent = BODIES[key]?.(o);
  const body = change.body ? change.body(sent) : sent;
  if (body === undefined) return app.inject(options);
  return app.inject({
    ...options,
    payload: JSON.stringify(body),
    headers: { ...headers, 'content-type': method === 'PATCH' ? 'application/json-patch+json' : 'application/json' },
  });
}
