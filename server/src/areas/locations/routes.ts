import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { locationInputSchema, locationLookupSchema, locationSchema } from '@cfs/contracts/locations';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { createLocation, findLocation, findLocationLookups, updateLocation } from './commands.js';
import { locationEntity } from './resource.js';

const tags = ['Locations'];
const params = z.object({ id: z.uuid() });

/** Locations (spec 002 §2 Locations, §7 Locations). */
export const locationRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/locations',
      title: 'locations',
      resource: locationEntity.resource,
      row: locationEntity.contract,
      permission: 'Locations:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('location').selectAll(),
      exportFileName: 'locations.csv',
      tags,
    });

    registerItemRoutes(app, {
      path: '/v1/locations',
      name: { operation: 'Location', words: 'a location' },
      area: 'Locations',
      tags,
      params,
      item: locationSchema,
      input: locationInputSchema,
      get: (user, { id }) => findLocation(db, user.tenantScope, id),
      create: (user, input) => createLocation(db, user, input),
      update: (user, { id }, input) => updateLocation(db, user, id, input),
    });

    // Read by the device form of any caller who edits devices, so it asks only for a signed-in caller.
    app.get(
      '/api/generallookup/locations',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags: ['Lookups'],
          operationId: 'lookupLocations',
          summary: "Look up a tenant's locations and the shared ones",
          querystring: z.object({ tenantId: guid().optional() }),
          response: { 200: z.array(locationLookupSchema) },
        },
      },
      async (request) => findLocationLookups(db, principalOf(request).tenantScope, request.query.tenantId),
    );
  };
