import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listQuerySchema } from '@cfs/contracts/api';
import {
  availableOperationsAnswerSchema,
  cloneDeviceOperationsSchema,
  cloneResultSchema,
  deviceOperationInputSchema,
  deviceOperationSchema,
  operationLogEntrySchema,
  runScriptSchema,
  scriptDispatchSchema,
  scriptRunSchema,
} from '@cfs/contracts/device-operations';
import { OPERATING_SYSTEMS } from '@cfs/contracts/fleet';
import type { AppDeps } from '../../app-deps.js';
import { canAccessTenant } from '../../auth/tenant-scope.js';
import { NotFoundError } from '../../http/errors.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import type { ListQueryInput } from '../../odata/list-query.js';
import { runListQuery } from '../../odata/list-query-sql.js';
import {
  cloneDeviceOperations,
  createDeviceOperation,
  deleteDeviceOperation,
  runScriptOnDevices,
  setQueued,
  updateDeviceOperation,
} from './commands.js';
import {
  availableOperationsBase,
  deviceOperationsBase,
  findDeviceOperation,
  findOperationLogs,
  findScriptRuns,
} from './queries.js';
import { availableOperationsResource, deviceOperationEntity } from './resources.js';

const tags = ['Device operations'];
const params = z.object({ id: z.uuid() });
const operatingSystemIds = Object.values(OPERATING_SYSTEMS) as number[];
const availableQuery = listQuerySchema.extend({
  tenantId: z.uuid(),
  operatingSystemId: z.coerce
    .number()
    .int()
    .refine((value) => operatingSystemIds.includes(value), 'Unknown operating system.'),
});

/** Device operations and the operations a device can run (spec 002 §7 "Device operations"). */
export const deviceOperationRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/deviceOperations',
      title: 'device operations',
      resource: deviceOperationEntity.resource,
      row: deviceOperationEntity.contract,
      permission: 'Devices:view',
      base: (user) => deviceOperationsBase(db, user.tenantScope),
      exportFileName: 'deviceoperations.csv',
      tags,
    });

    // Declared before `/:id` routes of the same method so that `clone` is never read as an id.
    app.post(
      '/v1/deviceOperations/clone',
      {
        config: { permission: 'Devices:create' },
        schema: {
          tags,
          operationId: 'cloneDeviceOperations',
          summary: 'Copy device operations to another device',
          body: cloneDeviceOperationsSchema,
          response: { 200: cloneResultSchema },
        },
      },
      async (request) => cloneDeviceOperations(db, principalOf(request), request.body),
    );

    app.post(
      '/v1/deviceOperations/runScript',
      {
        // Running scripts is its own permission (administrators), not what lets an operator add an operation.
        config: { permission: 'Devices.Scripts:edit' },
        schema: {
          tags,
          operationId: 'runScriptOnDevices',
          summary: 'Queue a Script operation on several devices',
          description:
            "Each device's on-demand device operation of the script (made when it has none) is queued, with the timeout given; a device without the script's package installed is left as it is.",
          body: runScriptSchema,
          response: { 200: z.array(scriptDispatchSchema) },
        },
      },
      async (request) => runScriptOnDevices(db, principalOf(request), request.body),
    );

    registerItemRoutes(app, {
      path: '/v1/deviceOperations',
      name: { operation: 'DeviceOperation', words: 'a device operation' },
      area: 'Devices',
      tags,
      params,
      item: deviceOperationSchema,
      input: deviceOperationInputSchema,
      get: (user, { id }) => findDeviceOperation(db, user.tenantScope, id),
      create: async (user, input) =>
        findDeviceOperation(db, user.tenantScope, await createDeviceOperation(db, user, input)),
      update: async (user, { id }, input) => {
        await updateDeviceOperation(db, user, id, input);
        return findDeviceOperation(db, user.tenantScope, id);
      },
    });

    app.delete(
      '/v1/deviceOperations/:id',
      {
        config: { permission: 'Devices:delete' },
        schema: { tags, operationId: 'deleteDeviceOperation', summary: 'Delete a device operation', params },
      },
      async (request, reply) => {
        await deleteDeviceOperation(db, principalOf(request), request.params.id);
        return reply.code(204).send();
      },
    );

    for (const { action, queued, operationId, summary, description } of [
      {
        action: 'enqueueOnDemand',
        queued: true,
        operationId: 'enqueueDeviceOperationOnDemand',
        summary: 'Queue a run of an on-demand device operation',
        description:
          "The run gets a new completion token, with which the device's agent completes it; other frequencies are refused.",
      },
      {
        action: 'dequeueOnDemand',
        queued: false,
        operationId: 'dequeueDeviceOperationOnDemand',
        summary: 'Withdraw the queued run of an on-demand device operation',
        description: undefined,
      },
    ] as const) {
      app.post(
        `/v1/deviceOperations/:id/${action}`,
        {
          config: { permission: 'Devices:edit' },
          schema: { tags, operationId, summary, description, params, response: { 200: deviceOperationSchema } },
        },
        async (request) => {
          const user = principalOf(request);
          await setQueued(db, user, request.params.id, queued);
          return findDeviceOperation(db, user.tenantScope, request.params.id);
        },
      );
    }

    app.get(
      '/v1/deviceOperations/:id/logs',
      {
        config: { permission: 'Devices:view' },
        schema: {
          tags,
          operationId: 'getDeviceOperationLogs',
          summary: "Get a device operation's log entries",
          params,
          response: { 200: z.array(operationLogEntrySchema) },
        },
      },
      async (request) => findOperationLogs(db, principalOf(request).tenantScope, request.params.id),
    );

    app.get(
      '/v1/deviceOperations/:id/scriptruns',
      {
        config: { permission: 'Devices:view' },
        schema: {
          tags,
          operationId: 'getDeviceOperationScriptRuns',
          summary: "Get a Script operation's runs, with their exit codes and output",
          params,
          response: { 200: z.array(scriptRunSchema) },
        },
      },
      async (request) => findScriptRuns(db, principalOf(request).tenantScope, request.params.id),
    );

    // GET v1/operations/GetAvailableOperationsForDevice(tenantId={guid},operatingSystemId={n}) arrives
    // here after the OData path rewrite, its arguments in the query.
    app.get(
      '/v1/operations/GetAvailableOperationsForDevice',
      {
        config: { permission: 'Devices:view' },
        schema: {
          tags,
          operationId: 'listAvailableOperationsForDevice',
          summary: 'List the operations a device can run',
          description:
            'Also answered as the spec spells it: GetAvailableOperationsForDevice(tenantId={id},operatingSystemId={n}).',
          querystring: availableQuery,
          response: { 200: availableOperationsAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = principalOf(request);
        const { tenantId, operatingSystemId, ...query } = request.query;
        if (!canAccessTenant(user.tenantScope, tenantId)) throw new NotFoundError('The tenant');
        const base = availableOperationsBase(db, user.tenantScope, tenantId.toLowerCase(), operatingSystemId);
        const answer = await runListQuery(
          db,
          availableOperationsResource,
          base,
          query as ListQueryInput,
          user.tenantScope,
          { path: request.url.split('?')[0] },
        );
        // JSON text built from the database's own JSON rows, sent as it is: a text is not serialised
        // again, so the response schema documents the answer without checking it (the tests do).
        return reply.type('application/json; charset=utf-8').send(answer as never);
      },
    );
  };
