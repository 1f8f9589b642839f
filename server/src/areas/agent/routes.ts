import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AGENT_DOWNLOAD_PATH,
  AGENT_DOWNLOADS,
  AGENT_MESSAGES,
  agentConfigurationSchema,
  agentInventorySchema,
  agentLogBatchSchema,
  agentScriptRunSchema,
  agentVersionReportSchema,
  enrolmentResultSchema,
  enrolmentSchema,
  installationReportSchema,
  operationCompletionSchema,
} from '@cfs/contracts/agent';
import {
  AGENT_UPDATE_POLICIES_PATH,
  agentUpdatePolicyInputSchema,
  agentUpdatePolicySchema,
} from '@cfs/contracts/agent-updates';
import { deviceInventorySchema } from '@cfs/contracts/devices';
import { guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { HttpError } from '../../http/errors.js';
import { whenClosed } from '../../http/reply-closed.js';
import { machineOf, principalOf } from '../../http/route-permission.js';
import { registerTenantDocumentRoutes } from '../../http/tenant-document-routes.js';
import {
  acknowledgeRestart,
  addDeviceLogs,
  addOperationLogs,
  completeOperation,
  enrol,
  recordScriptRun,
  reportInstallation,
  type DeviceCaller,
  type TokenCaller,
} from './commands.js';
import { agentConfiguration, wantedPackageFile } from './queries.js';
import { findInventory, recordInventory } from './inventory.js';
import { AGENT_WAIT_MAX_SECONDS, AgentConfigWaits } from './config-waits.js';
import { matchesIfNoneMatch } from '../../http/list-etag.js';
import {
  AgentReleaseTargets,
  findAgentUpdatePolicy,
  recordAgentVersion,
  resumeAgentRollout,
  saveAgentUpdatePolicy,
} from './updates.js';

const tags = ['Agent'];
const byDevice = { permission: { machine: ['device'] } } as const;

/** The caller as the route's declaration admits it (the gate refused any other kind). */
function deviceOf(request: Parameters<typeof machineOf>[0]): DeviceCaller {
  const caller = machineOf(request);
  if (caller.kind !== 'device') throw new HttpError(403, AGENT_MESSAGES.notADevice);
  return caller;
}

/** The seconds of `Prefer: wait=N` (RFC 7240), at most AGENT_WAIT_MAX_SECONDS; 0 without it. */
function preferredWait(prefer: string | undefined): number {
  const match = /(?:^|[,;\s])wait\s*=\s*(\d+)/i.exec(prefer ?? '');
  return match ? Math.min(Number(match[1]), AGENT_WAIT_MAX_SECONDS) : 0;
}

/** A configuration's tag: its content's digest, so the agent can ask "answer when it is not this". */
function configurationTag(configuration: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(configuration)).digest('base64url').slice(0, 27)}"`;
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
  ({ db, config, secretBox, scriptSigner, listener }) =>
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

    // Each tenant's agent version to run, cleared when the database announces a change for every device.
    const targets = new AgentReleaseTargets();
    const waits = new AgentConfigWaits(() => targets.clear());
    waits.attach(listener);
    // A closing instance answers what it holds, so it does not wait out every agent's call.
    app.addHook('preClose', async () => waits.wakeAll());
    app.get(
      '/v1/agent/configuration',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'getAgentConfiguration',
          summary: "Get the device's configuration",
          description:
            "Takes the device credential as bearer and marks the device's last contact. The answer is tagged (ETag). " +
            `With \`If-None-Match\` naming that tag and \`Prefer: wait=N\` (N seconds, at most ${AGENT_WAIT_MAX_SECONDS}), ` +
            'the call is held until what the device runs changes (an operation queued or changed, a package to install ' +
            'or remove, a restart, its heartbeat, logging or trace), then answered with the new configuration, or 304 ' +
            'once the wait is over. `Preference-Applied` says the portal holds such calls (the agent then asks again at ' +
            'once); without it, or without the headers, the call is answered at once and the agent polls.',
          response: {
            200: agentConfigurationSchema,
            304: z.null().describe('Not Modified: the configuration is still the one If-None-Match names'),
          },
        },
      },
      async (request, reply) => {
        const device = deviceOf(request);
        const known = request.headers['if-none-match'];
        const { prefer } = request.headers;
        const waitSeconds = waits.available ? preferredWait(Array.isArray(prefer) ? prefer.join(',') : prefer) : 0;
        // Honoured or not, the agent learns whether to come back at once (held) or after its poll.
        if (waitSeconds > 0) reply.header('Preference-Applied', `wait=${waitSeconds}`);
        // Begun before the read: a change committed while reading wakes the wait instead of being missed.
        const wait = waitSeconds > 0 && known ? waits.begin(device.deviceId) : undefined;
        try {
          let configuration = await agentConfiguration(
            db,
            { box: secretBox, signer: scriptSigner },
            config.publicUrl,
            device,
            targets,
          );
          let tag = configurationTag(configuration);
          if (wait && matchesIfNoneMatch(known, tag)) {
            // The agent going away ends the wait too (it stopped, or its session ended).
            whenClosed(reply, wait.end);
            const timer = setTimeout(wait.end, waitSeconds * 1000);
            await wait.changed;
            clearTimeout(timer);
            if (reply.raw.closed) return reply.code(304).send(null);
            configuration = await agentConfiguration(
              db,
              { box: secretBox, signer: scriptSigner },
              config.publicUrl,
              device,
              targets,
            );
            tag = configurationTag(configuration);
            if (matchesIfNoneMatch(known, tag)) return reply.header('ETag', tag).code(304).send(null);
          }
          return reply.header('Cache-Control', 'no-store').header('ETag', tag).send(configuration);
        } finally {
          wait?.end();
        }
      },
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
      '/v1/agent/inventory',
      {
        config: byDevice,
        // A full report (INVENTORY_LIMITS.software entries of long names) is bigger than the portal's usual body limit.
        bodyLimit: 24 * 1024 * 1024,
        schema: {
          tags,
          operationId: 'reportAgentInventory',
          summary: "Report the device's inventory",
          description:
            "Hardware, operating system and installed software, at enrolment and daily. Each change against the last report is kept in the device's inventory history.",
          body: agentInventorySchema,
          response: { 200: z.object({ changes: z.int() }) },
        },
      },
      async (request) => recordInventory(db, deviceOf(request), request.body),
    );

    app.get(
      '/v1/devices/:id/inventory',
      {
        config: { permission: 'Devices:view' },
        schema: {
          tags: ['Devices'],
          operationId: 'getDeviceInventory',
          summary: "Get a device's inventory",
          description:
            "The device's hardware, operating system and software as its agent last reported them, and their latest changes.",
          params: z.object({ id: guid() }),
          response: { 200: deviceInventorySchema },
        },
      },
      async (request) => findInventory(db, principalOf(request).tenantScope, request.params.id),
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
      '/v1/agent/operations/:deviceOperationId/scriptruns',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'addAgentScriptRun',
          summary: 'Report how a Script operation ran on the device',
          description:
            'Its exit code and output (each stream cut at 64 KiB by the agent), or why the agent refused to run the script.',
          params: operationParams,
          body: agentScriptRunSchema,
        },
      },
      async (request, reply) => {
        await recordScriptRun(db, deviceOf(request), request.params.deviceOperationId, request.body);
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
      '/v1/agent/version',
      {
        config: byDevice,
        schema: {
          tags,
          operationId: 'reportAgentVersion',
          summary: 'Report the agent version the device runs, and how an update went',
          description:
            "Sent at the start of each session and with each update's outcome: the device's Agent Version and its installation of the agent package (the version report's row) follow it; an agent that went back from a version, or refused it, halts that version's rollout in its tenant.",
          body: agentVersionReportSchema,
        },
      },
      async (request, reply) => {
        await recordAgentVersion(db, deviceOf(request), request.body);
        return reply.code(204).send();
      },
    );

    const policyTags = ['Agent updates'];
    const tenantParams = z.object({ tenantId: z.uuid() });
    registerTenantDocumentRoutes(app, {
      path: AGENT_UPDATE_POLICIES_PATH,
      operation: 'AgentUpdatePolicy',
      tags: policyTags,
      params: tenantParams,
      document: agentUpdatePolicySchema,
      input: agentUpdatePolicyInputSchema,
      get: {
        permission: 'Devices:view',
        summary: "Get a tenant's agent updates",
        description:
          'The version its devices run (the Latest of the agent package, or a pinned one), the staged rollout and the rollback minutes (the defaults until it saves them), the versions to choose from, and how the rollout of its version goes.',
        run: (user, tenantId) => findAgentUpdatePolicy(db, user, tenantId),
      },
      save: {
        // Choosing the agent its devices run is choosing code that runs with the machines' rights: scripts' permission.
        permission: 'Devices.Scripts:edit',
        summary: "Save a tenant's agent updates",
        run: (user, tenantId, input) => saveAgentUpdatePolicy(db, user, tenantId, input),
      },
    });
    app.post(
      `${AGENT_UPDATE_POLICIES_PATH}/:tenantId/resume`,
      {
        config: { permission: 'Devices.Scripts:edit' },
        schema: {
          tags: policyTags,
          operationId: 'resumeAgentRollout',
          summary: "Resume a tenant's halted agent rollout",
          description:
            'The devices that went back from the version, or did not report in time, are offered it again; a rollout that is not halted stays as it is.',
          params: tenantParams,
          response: { 200: agentUpdatePolicySchema },
        },
      },
      async (request) => resumeAgentRollout(db, principalOf(request), request.params.tenantId),
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
