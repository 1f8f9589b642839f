import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  communicationActivityInputSchema,
  communicationActivitySchema,
  communicationInputSchema,
  communicationLinkSchema,
  communicationSchema,
  communicationWorkUnitSchema,
} from '@cfs/contracts/communications';
import { dbIdParam } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import {
  createActivity,
  createCommunication,
  deleteActivity,
  deleteCommunication,
  linkWorkUnits,
  unlinkWorkUnit,
  updateActivity,
  updateCommunication,
} from './commands.js';
import { findCommunication, findLinkedWorkUnits } from './queries.js';
import { communicationActivityEntity, communicationEntity } from './resource.js';

const tags = ['Work unit communications'];
const params = z.object({ id: z.uuid() });
const linkParams = z.object({ id: z.uuid(), workunitId: dbIdParam });
const noContent = { 204: z.null().describe('No Content') };

/** Work unit communications (spec 001 §2 Work Unit Communications, §7 Communications; 000 §7). */
export const communicationRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/workunitcommunications',
      title: 'work unit communications',
      resource: communicationEntity.resource,
      row: communicationEntity.contract,
      permission: 'WorkUnitCommunications:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('work_unit_communication').selectAll(),
      exportFileName: 'workunitcommunications.csv',
      tags,
      // isOverdue and isInternalOverdue turn true as time passes.
      readsClock: true,
    });

    registerItemRoutes(app, {
      path: '/v1/workunitcommunications',
      name: { operation: 'WorkUnitCommunication', words: 'a work unit communication' },
      area: 'WorkUnitCommunications',
      tags,
      params,
      item: communicationSchema,
      input: communicationInputSchema,
      get: (user, { id }) => findCommunication(db, user.tenantScope, id),
      // Answered as GET answers, read after the commit.
      create: async (user, input) =>
        findCommunication(db, user.tenantScope, await createCommunication(db, user, input)),
      update: async (user, { id }, input) => {
        await updateCommunication(db, user, id, input);
        return findCommunication(db, user.tenantScope, id);
      },
    });

    app.delete(
      '/v1/workunitcommunications/:id',
      {
        config: { permission: 'WorkUnitCommunications:delete' },
        schema: {
          tags,
          operationId: 'deleteWorkUnitCommunication',
          summary: 'Delete a work unit communication',
          params,
          response: noContent,
        },
      },
      async (request, reply) => {
        await deleteCommunication(db, principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v1/workunitcommunications/:id/workUnits',
      {
        config: { permission: 'WorkUnitCommunications:edit' },
        schema: {
          tags,
          operationId: 'linkCommunicationWorkUnits',
          summary: 'Link work units to a communication',
          params,
          body: communicationLinkSchema,
          response: { 200: z.array(communicationWorkUnitSchema) },
        },
      },
      async (request) => {
        const user = principalOf(request);
        await linkWorkUnits(db, user, request.params.id, request.body.workunitIds);
        return findLinkedWorkUnits(db, user.tenantScope, request.params.id);
      },
    );

    app.delete(
      '/v1/workunitcommunications/:id/workUnits/:workunitId',
      {
        config: { permission: 'WorkUnitCommunications:edit' },
        schema: {
          tags,
          operationId: 'unlinkCommunicationWorkUnit',
          summary: 'Unlink a work unit from a communication',
          params: linkParams,
          response: noContent,
        },
      },
      async (request, reply) => {
        await unlinkWorkUnit(db, principalOf(request), request.params.id, request.params.workunitId);
        return reply.code(204).send(null);
      },
    );

    registerListRoutes(app, db, {
      path: '/v1/workunitcommunicationactivities',
      title: 'work unit communication activities',
      resource: communicationActivityEntity.resource,
      row: communicationActivityEntity.contract,
      permission: 'WorkUnitCommunications:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('work_unit_communication_activity').selectAll(),
      exportFileName: 'workunitcommunicationactivities.csv',
      tags,
    });

    registerItemRoutes(app, {
      path: '/v1/workunitcommunicationactivities',
      name: { operation: 'WorkUnitCommunicationActivity', words: 'a communication activity' },
      area: 'WorkUnitCommunications',
      tags,
      params,
      item: communicationActivitySchema,
      input: communicationActivityInputSchema,
      create: (user, input) => createActivity(db, user, input),
      update: (user, { id }, input) => updateActivity(db, user, id, input),
      own: { create: { summary: "Add an activity to a communication's log" } },
    });

    app.delete(
      '/v1/workunitcommunicationactivities/:id',
      {
        config: { permission: 'WorkUnitCommunications:delete' },
        schema: {
          tags,
          operationId: 'deleteWorkUnitCommunicationActivity',
          summary: 'Delete a communication activity',
          params,
          response: noContent,
        },
      },
      async (request, reply) => {
        await deleteActivity(db, principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
