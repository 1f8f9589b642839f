import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERSON_NAMES_MAX, personNameSchema, personSchema } from '@cfs/contracts/shell';
import { approvalCheckSchema } from '@cfs/contracts/work-units';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { checkApprover, findPersonNames, searchPeople, searchPeopleAndGroups } from './queries.js';

const tags = ['People'];
const search = z.object({ searchTerm: z.string().max(200).default('') });
// Mails and user names hold no comma: one query string carries a grid page's people.
const names = z.object({
  keys: z
    .string()
    .max(PERSON_NAMES_MAX * 321)
    .transform((text) => text.split(','))
    .pipe(z.array(z.string().max(320)).max(PERSON_NAMES_MAX)),
});

/** The directory the identity layer keeps: people and groups to assign and approve. */
export const peopleRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    app.get(
      '/api/people',
      {
        config: { permission: 'People:view' },
        schema: {
          tags,
          operationId: 'searchPeople',
          summary: 'Search people by name or email',
          querystring: search,
          response: { 200: z.array(personSchema) },
        },
      },
      async (request) => searchPeople(db, principalOf(request), request.query.searchTerm),
    );
    app.get(
      '/api/peopleandgroups',
      {
        config: { permission: 'People:view' },
        schema: {
          tags,
          operationId: 'searchPeopleAndGroups',
          summary: 'Search people and groups by name or email',
          querystring: search,
          response: { 200: z.array(personSchema) },
        },
      },
      async (request) => searchPeopleAndGroups(db, principalOf(request), request.query.searchTerm),
    );
    app.get(
      '/api/people/names',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'listPersonNames',
          summary: 'Get the names of people and groups by email or user name',
          description: 'Keys naming no one the caller may see are left out of the answer.',
          querystring: names,
          response: { 200: z.array(personNameSchema) },
        },
      },
      async (request) => findPersonNames(db, principalOf(request), request.query.keys),
    );
    app.get(
      '/api/generallookup/approval',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags: ['Lookups'],
          operationId: 'lookupApprover',
          summary: "Check an approver's email address",
          description: "Whose address it is, among the people the caller may see, and whether it is the caller's own.",
          querystring: z.object({ approverId: z.string().min(1).max(320) }),
          response: { 200: approvalCheckSchema },
        },
      },
      async (request) => checkApprover(db, principalOf(request), request.query.approverId),
    );
  };
