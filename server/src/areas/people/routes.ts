import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { personSchema } from '@cfs/contracts/shell';
import { approvalCheckSchema } from '@cfs/contracts/work-units';
import type { AppDeps } from '../../app-deps.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { checkApprover, searchPeople, searchPeopleAndGroups } from './queries.js';

const tags = ['People'];
const search = z.object({ searchTerm: z.string().max(200).default('') });

/** The directory the identity layer keeps: people and groups to assign and approve. */
export const peopleRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  app.get('/api/people', { config: { permission: perm('People', 'view') }, schema: { tags, querystring: search, response: { 200: z.array(personSchema) } } }, async (request) =>
    searchPeople(db, principalOf(request), request.query.searchTerm),
  );
  app.get('/api/peopleandgroups', { config: { permission: perm('People', 'view') }, schema: { tags, querystring: search, response: { 200: z.array(personSchema) } } }, async (request) =>
    searchPeopleAndGroups(db, principalOf(request), request.query.searchTerm),
  );
  app.get(
    '/api/generallookup/approval',
    { config: { permission: 'authenticated' }, schema: { tags: ['Lookups'], querystring: z.object({ approverId: z.string().min(1).max(320) }), response: { 200: approvalCheckSchema } } },
    async (request) => checkApprover(db, principalOf(request), request.query.approverId),
  );
};
