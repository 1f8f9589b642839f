import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { installedSoftwareRowSchema, SOFTWARE_EXPORT_FILE, SOFTWARE_PATH } from '@cfs/contracts/software';
import type { AppDeps } from '../../app-deps.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { installedSoftwareBase, installedSoftwareResource } from './resource.js';

/**
 * The software installed across the fleet (GET /v1/software, and its CSV export): read with the
 * Devices view permission, as each device's Inventory is; its export holds every matching row.
 */
export const softwareRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: SOFTWARE_PATH,
      title: 'installed software',
      resource: installedSoftwareResource,
      row: installedSoftwareRowSchema,
      permission: 'Devices:view',
      base: (user) => installedSoftwareBase(db, user.tenantScope),
      exportFileName: SOFTWARE_EXPORT_FILE,
      exportsEveryRow: true,
      tags: ['Software'],
    });
  };
