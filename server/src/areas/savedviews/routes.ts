import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionName } from '@cfs/contracts/permissions';
import { savedViewInputSchema, savedViewSchema, type SavedViewGrid } from '@cfs/contracts/saved-views';
import { guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { createSavedView, deleteSavedView, findSavedViews, updateSavedView } from './views.js';

const tags = ['Saved views'];
const viewParams = z.object({ id: z.uuid() });
const viewAnswer = { 200: savedViewSchema };

/**
 * The grids that keep saved views, each with the permission that reads it (whoever may see the
 * grid may keep views of it) and its names in the API document: `name` in the operations' ids
 * (`listWorkUnitSavedViews`), `title` in their summaries. A grid adds its line here and its name
 * to `SAVED_VIEW_GRIDS`.
 */
const GRIDS: Record<SavedViewGrid, { permission: PermissionName; name: string; title: string }> = {
  workunits: { permission: 'WorkUnits:view', name: 'WorkUnit', title: 'the work units grid' },
};

/** `/v1/savedviews/{grid}`: a user's views of a grid in a tenant, and those shared with the tenant. */
export const savedViewRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    for (const [grid, { permission, name, title }] of Object.entries(GRIDS) as [
      SavedViewGrid,
      (typeof GRIDS)[SavedViewGrid],
    ][]) {
      const path = `/v1/savedviews/${grid}`;
      const config = { permission };

      app.get(
        path,
        {
          config,
          schema: {
            tags,
            operationId: `list${name}SavedViews`,
            summary: `List the saved views of ${title}`,
            description: "The caller's own views in the tenant, and those shared with the tenant.",
            querystring: z.object({ tenantId: guid() }),
            response: { 200: z.object({ value: z.array(savedViewSchema) }) },
          },
        },
        async (request) => ({
          value: await findSavedViews(db, principalOf(request), grid, request.query.tenantId),
        }),
      );

      app.put(
        path,
        {
          config,
          schema: {
            tags,
            operationId: `create${name}SavedView`,
            summary: `Save a view of ${title}`,
            body: savedViewInputSchema,
            response: viewAnswer,
          },
        },
        async (request) => createSavedView(db, principalOf(request), grid, request.body),
      );

      app.post(
        `${path}/:id`,
        {
          config,
          schema: {
            tags,
            operationId: `update${name}SavedView`,
            summary: `Update a saved view of ${title}`,
            description: "Only the view's owner may change it: to anyone else it is not found (404).",
            params: viewParams,
            body: savedViewInputSchema.omit({ tenantId: true }),
            response: viewAnswer,
          },
        },
        async (request) => updateSavedView(db, principalOf(request), grid, request.params.id, request.body),
      );

      app.delete(
        `${path}/:id`,
        {
          config,
          schema: {
            tags,
            operationId: `delete${name}SavedView`,
            summary: `Delete a saved view of ${title}`,
            description: "Only the view's owner may change it: to anyone else it is not found (404).",
            params: viewParams,
          },
        },
        async (request, reply) => {
          await deleteSavedView(db, principalOf(request), grid, request.params.id);
          return reply.code(204).send();
        },
      );
    }
  };
