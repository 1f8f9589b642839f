import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deviceInputSchema,
  deviceInstallationSchema,
  deviceSchema,
  installationChoicesSchema,
  logEntrySchema,
  tenantSettingsSchema,
  traceMinutesParam,
} from '@cfs/contracts/devices';
import { AGENT_DOWNLOAD_PATH, AGENT_DOWNLOADS } from '@cfs/contracts/agent';
import { guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { NotFoundError } from '../../http/errors.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { deleteDevice, restartAgent, toggleTrace, updateDevice } from './commands.js';
import { findInstallations, saveInstallations } from './installations.js';
import { devicesBase, findDevice, findDeviceLogs } from './queries.js';
import { deviceEntity } from './resource.js';

const tags = ['Devices'];
const params = z.object({ id: guid() });
const messageSchema = z.object({ message: z.string() });

/** Devices and their installations (spec 002 §7 Devices and installations). */
export const deviceRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/devices',
      title: 'devices',
      resource: deviceEntity.resource,
      row: deviceEntity.contract,
      permission: 'Devices:view',
      base: (user) => devicesBase(db, user.tenantScope),
      exportFileName: 'devices.csv',
      tags,
      // Online turns to offline as time passes, with no row changing.
      readsClock: true,
    });

    app.get(
      '/v1/devices/GetPackageInstallsWithVersions',
      {
        config: { permission: 'Devices:view' },
        schema: {
          tags,
          operationId: 'listDeviceInstallations',
          summary: 'List the packages a device can install, with their versions',
          description: 'Also answered as the spec spells it: GetPackageInstallsWithVersions(deviceId={id}).',
          querystring: z.object({ deviceId: guid() }),
          response: { 200: z.array(deviceInstallationSchema) },
        },
      },
      async (request) => findInstallations(db, principalOf(request).tenantScope, request.query.deviceId),
    );

    registerItemRoutes(app, {
      path: '/v1/devices',
      name: { operation: 'Device', words: 'a device' },
      area: 'Devices',
      tags,
      params,
      item: deviceSchema,
      input: deviceInputSchema,
      get: (user, { id }) => findDevice(db, user.tenantScope, id),
      update: (user, { id }, input) => updateDevice(db, user, id, input),
      delete: { response: messageSchema, run: (user, { id }) => deleteDevice(db, user, id) },
      own: {
        delete: {
          description:
            "Refused while the device has device operations; its agent's credential goes with it, so the agent stops at its next call.",
        },
      },
    });

    app.get(
      '/v1/devices/:id/logs',
      {
        config: { permission: 'Devices:view' },
        schema: {
          tags,
          operationId: 'getDeviceLogs',
          summary: "Get a device's log entries",
          params,
          response: { 200: z.array(logEntrySchema) },
        },
      },
      async (request) => findDeviceLogs(db, principalOf(request).tenantScope, request.params.id),
    );

    app.post(
      '/v1/devices/:id/toggleTrace/:minutes',
      {
        config: { permission: 'Devices:edit' },
        schema: {
          tags,
          operationId: 'toggleDeviceTrace',
          summary: "Switch a device's tracing on or off",
          description:
            'minutes: -1 keeps what is set, 0 switches tracing off, and 10, 30, 60, 240, 480 or 1440 trace for that long.',
          params: params.extend({ minutes: traceMinutesParam }),
          response: { 200: deviceSchema },
        },
      },
      async (request) => toggleTrace(db, principalOf(request), request.params.id, request.params.minutes),
    );

    app.post(
      '/v1/devices/:id/restartagent',
      {
        config: { permission: 'Devices:edit' },
        schema: {
          tags,
          operationId: 'restartDeviceAgent',
          summary: "Ask a device's agent to restart",
          description:
            'Raises a flag that the agent reads on its next call and clears when it acknowledges the restart.',
          params,
          querystring: z.object({ __tenant__: guid().optional() }),
          response: { 200: messageSchema },
        },
      },
      async (request) => restartAgent(db, principalOf(request), request.params.id, request.query.__tenant__),
    );

    app.post(
      '/v1/deviceInstallations/:deviceId/packages',
      {
        config: { permission: 'Devices:edit' },
        schema: {
          tags,
          operationId: 'setDeviceInstallations',
          summary: 'Choose the package versions to install on a device',
          description:
            'Each choice names the version to install, or the empty GUID for none (the installed package is removed).',
          params: z.object({ deviceId: guid() }),
          body: installationChoicesSchema,
          response: { 200: z.array(deviceInstallationSchema) },
        },
      },
      async (request) => saveInstallations(db, principalOf(request), request.params.deviceId, request.body),
    );

    // The Welcome page of any user of the tenant (spec 002 §2): the address of the agent to download.
    app.get(
      '/api/:tenantId/settings',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags: ['Settings'],
          operationId: 'getTenantSettings',
          summary: "Get a tenant's settings for its users",
          params: z.object({ tenantId: guid() }),
          response: { 200: tenantSettingsSchema },
        },
      },
      async (request) => {
        if (!(await scoped(db, principalOf(request).tenantScope).hasTenant(request.params.tenantId)))
          throw new NotFoundError('The tenant');
        return {
          agentDownloadUrl: config.agentDownloadUrl,
          agentInstall: {
            portalUrl: config.publicUrl,
            linuxDownloadUrl: `${config.publicUrl}${AGENT_DOWNLOAD_PATH}/${AGENT_DOWNLOADS.linuxX64}`,
            windowsDownloadUrl: `${config.publicUrl}${AGENT_DOWNLOAD_PATH}/${AGENT_DOWNLOADS.winX64}`,
          },
        };
      },
    );
  };
