import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AGENT_DOWNLOAD_PATH,
  AGENT_DOWNLOADS,
  AGENT_MESSAGES,
  agentConfigurationSchema,
  agentLogBatchSchema,
  enrolmentResultSchema,
  enrolmentSchema,
  installationReportSchema,
  operationCompletionSchema,
} from '@cfs/contracts/agent';
import type { AppDeps } from '../../app-deps.js';
import { HttpError } from '../../http/errors.js';
import { machineOf } from '../../http/route-permission.js';
import {
  acknowledgeRestart,
  addDeviceLogs,
  addOperationLogs,
  completeOperation,
  enrol,
  reportInstallation,
  type DeviceCaller,
  type TokenCaller,
} from './commands.js';
import { agentConfiguration, wantedPackageFile } from './queries.js';

const tags = ['Agent'];
const byDevice = { permission: { machine: ['device'] } } as const;

/** The caller as the route's declaration admits it (the gate refused any other kind). */
function deviceOf(request: Parameters<typeof machineOf>[0]): DeviceCaller {
  const caller = machineOf(request);
  if (caller.kind !== 'device') throw new HttpError(403, AGENT_MESSAGES.notADevice);
  return caller;
}

function tokenOf(request: Parameters<typeof machineOf>[0]): TokenCaller {
  const caller = machineOf(request);
  if (caller.kind !== 'token') throw new HttpError(403, AGENT_MESSAGES.notAToken);
  return caller;
}

/**
 * The versioned API of device agents. Enrolment takes a tenant API token; every other call takes
 * the device's own credential, which the gate refuses once the device is disabled or deleted or
 * its enrolment token is revoked.
 */
export const agentRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config, secretBox }) =>
  async (app) => {
    app.post(
      '/v1/agent/enrol',
      {
        config: { permission: { machine: ['token'] } },
        schema: {
          tags,
          operationId: 'enrolAgent',
          summary: 'Enrol an agent',
          description:
            'Takes a tenant API token as bearer: answers pending until the device is promoted, then its device id and a new device credential.',
          body: enrolmentSchema,
          response: { 200: enrolmentResultSchema },
        },
      },
      async (request, reply) =>
        reply.header('Cache-Control', 'no-store').send(await enrol(db, tokenOf(request), request.body, request.ip)),
    );

    app.get(
      '/v1/agent/configuration',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'getAgentConfiguration',
          summary: "Get the device's configuration",
          description: "Takes the device credential as bearer and marks the device's last contact.",
          response: { 200: agentConfigurationSchema },
        },
      },
      async (request, reply) =>
        reply
          .header('Cache-Control', 'no-store')
          .send(await agentConfiguration(db, secretBox, config.publicUrl, deviceOf(request))),
    );

    app.post(
      '/v1/agent/restart/acknowledge',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'acknowledgeAgentRestart',
          summary: 'Acknowledge a restart request',
          description: "Clears the device's restart flag.",
        },
      },
      async (request, reply) => {
        await acknowledgeRestart(db, deviceOf(request));
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/agent/logs',
      {
        config: byDevice,
        schema: { tags, operationId: 'addAgentLogs', summary: 'Add device log entries', body: agentLogBatchSchema },
      },
      async (request, reply) => {
        await addDeviceLogs(db, deviceOf(request), request.body.entries);
        return reply.code(204).send();
      },
    );

    const operationParams = z.object({ deviceOperationId: z.uuid() });
    app.post(
      '/v1/agent/operations/:deviceOperationId/logs',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'addAgentOperationLogs',
          summary: "Add log entries of one of the device's operations",
          params: operationParams,
          body: agentLogBatchSchema,
        },
      },
      async (request, reply) => {
        await addOperationLogs(db, deviceOf(request), request.params.deviceOperationId, request.body.entries);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/agent/operations/:deviceOperationId/complete',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'completeAgentOperation',
          summary: 'Complete a queued on-demand operation',
          params: operationParams,
          body: operationCompletionSchema,
        },
      },
      async (request, reply) => {
        await completeOperation(db, deviceOf(request), request.params.deviceOperationId, request.body.completionToken);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/agent/installations/:packageId',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'reportAgentInstallation',
          summary: 'Report the outcome of installing a package',
          params: z.object({ packageId: z.uuid() }),
          body: installationReportSchema,
        },
      },
      async (request, reply) => {
        await reportInstallation(db, deviceOf(request), request.params.packageId, request.body);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/agent/packageversions/:packageVersionId/download',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'downloadAgentPackageVersion',
          summary: 'Download a package version wanted on this device',
          params: z.object({ packageVersionId: z.uuid() }),
        },
      },
      async (request, reply) => {
        const file = await wantedPackageFile(db, config, deviceOf(request), request.params.packageVersionId);
        return reply
          .type('application/octet-stream')
          .header('Content-Length', file.size)
          .header('Content-Disposition', `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`)
          .send(file.stream);
      },
    );

    // The agent's single executables, the portal's default agent download (GET /api/{tenantId}/settings).
    const downloads = new Set<string>(Object.values(AGENT_DOWNLOADS));
    app.get(
      `${AGENT_DOWNLOAD_PATH}/:file`,
      {
        config: { permission: 'public' },
        schema: {
          tags,
          operationId: 'downloadAgent',
          summary: 'Download the agent as a single executable',
          description: `file: ${Object.values(AGENT_DOWNLOADS).join(' or ')}.`,
          security: [],
          params: z.object({ file: z.string() }),
        },
      },
      async (request, reply) => {
        const name = request.params.file;
        if (!downloads.has(name)) throw new HttpError(404, 'There is no such agent download.');
        const filePath = path.join(config.agentDist, name);
        const stat = await fs.promises.stat(filePath).catch(() => undefined);
        if (!stat?.isFile()) throw new HttpError(404, AGENT_MESSAGES.downloadNotBuilt);
        return reply
          .type('application/octet-stream')
          .header('Content-Length', stat.size)
          .header('Content-Disposition', `attachment; filename="${name}"`)
          .header('Cache-Control', 'no-cache')
          .send(fs.createReadStream(filePath));
      },
    );
  };
