import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { locationInputSchema, locationLookupSchema, locationSchema } from '@cfs/contracts/locations';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { createLocation, findLocation, findLocationLookups, updateLocation } from './commands.js';
import { locationsResource } from './resource.js';

const tags = ['Locations'];
const params = z.object({ id: z.uuid() });

/** Locations (spec 002 §2 Locations, §7 Locations). */
export const locationRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/locations',
    resource: locationsResource,
    row: locationSchema,
    permission: perm('Locations', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('location').selectAll(),
    exportFileName: 'locations.csv',
    tags,
  });

  app.get('/v1/locations/:id', { config: { permission: perm('Locations', 'view') }, schema: { tags, params, response: { 200: locationSchema } } }, async (request) =>
    findLocation(db, principalOf(request).tenantScope, request.params.id),
  );

  app.put('/v1/locations', { config: { permission: perm('Locations', 'create') }, schema: { tags, body: locationInputSchema, response: { 200: locationSchema } } }, async (request) =>
    createLocation(db, principalOf(request), request.body),
  );

  app.post('/v1/locations/:id', { config: { permission: perm('Locations', 'edit') }, schema: { tags, params, body: locationInputSchema, response: { 200: locationSchema } } }, async (request) =>
    updateLocation(db, principalOf(request), request.params.id, request.body),
  );

  // Read by the device form of any caller who edits devices, so it asks only for a signed-in caller.
  app.get(
    '/api/generallookup/locations',
    { config: { permission: 'authenticated' }, schema: { tags: ['Lookups'], querystring: z.object({ tenantId: guid().optional() }), response: { 200: z.array(locationLookupSchema) } } },
    async (request) => findLocationLookups(db, principalOf(request).tenantScope, request.query.tenantId),
  );
};
