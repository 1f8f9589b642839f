import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingDeviceBatchResultSchema, pendingDeviceBatchSchema } from '@cfs/contracts/pending-devices';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { deletePendingDevices, promotePendingDevices } from './commands.js';
import { pendingDeviceEntity } from './resource.js';

const tags = ['Pending devices'];

/** Pending devices (spec 002 §7 "Pending devices"). */
export const pendingDeviceRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/pendingdevices',
      title: 'pending devices',
      resource: pendingDeviceEntity.resource,
      row: pendingDeviceEntity.contract,
      permission: 'PendingDevices:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('pending_device').selectAll(),
      exportFileName: 'pendingdevices.csv',
      tags,
    });

    app.post(
      '/v1/pendingdevices/batchpromote',
      {
        config: { permission: 'PendingDevices:edit' },
        schema: {
          tags,
          operationId: 'promotePendingDevices',
          summary: 'Promote pending devices to devices',
          description:
            "All are promoted or none; each device's agent receives its device credential at its next enrolment call.",
          body: pendingDeviceBatchSchema,
          response: { 200: pendingDeviceBatchResultSchema },
        },
      },
      async (request) => promotePendingDevices(db, principalOf(request), request.body),
    );

    app.delete(
      '/v1/pendingdevices/batchdelete',
      {
        config: { permission: 'PendingDevices:delete' },
        schema: {
          tags,
          operationId: 'deletePendingDevices',
          summary: 'Delete pending devices',
          description: 'An agent that enrols again shows up as a pending device again.',
          body: pendingDeviceBatchSchema,
          response: { 200: pendingDeviceBatchResultSchema },
        },
      },
      async (request) => deletePendingDevices(db, principalOf(request), request.body),
    );
  };
