import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingDeviceBatchResultSchema, pendingDeviceBatchSchema, pendingDeviceSchema } from '@cfs/contracts/pending-devices';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { deletePendingDevices, promotePendingDevices } from './commands.js';
import { pendingDevicesResource } from './resource.js';

const tags = ['Pending devices'];

/** Pending devices (spec 002 §7 "Pending devices"). */
export const pendingDeviceRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/pendingdevices',
    resource: pendingDevicesResource,
    row: pendingDeviceSchema,
    permission: perm('PendingDevices', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('pending_device').selectAll(),
    exportFileName: 'pendingdevices.csv',
    tags,
  });

  app.post(
    '/v1/pendingdevices/batchpromote',
    { config: { permission: perm('PendingDevices', 'edit') }, schema: { tags, body: pendingDeviceBatchSchema, response: { 200: pendingDeviceBatchResultSchema } } },
    async (request) => promotePendingDevices(db, principalOf(request), request.body),
  );

  app.delete(
    '/v1/pendingdevices/batchdelete',
    { config: { permission: perm('PendingDevices', 'delete') }, schema: { tags, body: pendingDeviceBatchSchema, response: { 200: pendingDeviceBatchResultSchema } } },
    async (request) => deletePendingDevices(db, principalOf(request), request.body),
  );
};
