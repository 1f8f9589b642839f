import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dbIdParam, guid } from '@cfs/contracts/fields';
import { timelineSchema } from '@cfs/contracts/timeline';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { entityTimeline, workUnitTimeline } from './queries.js';

const tags = ['Timeline'];

/** One timeline of cause and effect, for a work unit and for an entity (a block, a device). */
export const timelineRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    app.get(
      '/v1/workunits/:id/timeline',
      {
        config: { permission: 'WorkUnits:view' },
        schema: {
          tags,
          operationId: 'getWorkUnitTimeline',
          summary: "Get a work unit's timeline",
          params: z.object({ id: dbIdParam }),
          response: { 200: timelineSchema },
        },
      },
      async (request) => workUnitTimeline(db, principalOf(request).tenantScope, request.params.id),
    );
    app.get(
      '/v1/entities/:id/timeline',
      {
        config: { permission: ['Blocks:view', 'Devices:view'] },
        schema: {
          tags,
          operationId: 'getEntityTimeline',
          summary: "Get an entity's timeline, a block's or a device's",
          params: z.object({ id: guid() }),
          response: { 200: timelineSchema },
        },
      },
      async (request) => entityTimeline(db, principalOf(request).tenantScope, request.params.id),
    );
  };
