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
import { findCommunication } from './queries.js';
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

    app.get(
      '/v1/workunitcommunications/:id',
      {
        config: { permission: 'WorkUnitCommunications:view' },
        schema: {
          tags,
          operationId: 'getWorkUnitCommunication',
          summary: 'Get a work unit communication',
          params,
          response: { 200: communicationSchema },
        },
      },
      async (request) => findCommunication(db, principalOf(request).tenantScope, request.params.id),
    );

    app.put(
      '/v1/workunitcommunications',
      {
        config: { permission: 'WorkUnitCommunications:create' },
        schema: {
          tags,
          operationId: 'createWorkUnitCommunication',
          summary: 'Create a work unit communication',
          body: communicationInputSchema,
          response: { 200: communicationSchema },
        },
      },
      async (request) => createCommunication(db, principalOf(request), request.body),
    );

    app.post(
      '/v1/workunitcommunications/:id',
      {
        config: { permission: 'WorkUnitCommunications:edit' },
        schema: {
          tags,
          operationId: 'updateWorkUnitCommunication',
          summary: 'Update a work unit communication',
          params,
          body: communicationInputSchema,
          response: { 200: communicationSchema },
        },
      },
      async (request) => updateCommunication(db, principalOf(request), request.params.id, request.body),
    );

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
      async (request) => linkWorkUnits(db, principalOf(request), request.params.id, request.body.workunitIds),
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

    app.put(
      '/v1/workunitcommunicationactivities',
      {
        config: { permission: 'WorkUnitCommunications:create' },
        schema: {
          tags,
          operationId: 'createWorkUnitCommunicationActivity',
          summary: "Add an activity to a communication's log",
          body: communicationActivityInputSchema,
          response: { 200: communicationActivitySchema },
        },
      },
      async (request) => createActivity(db, principalOf(request), request.body),
    );

    app.post(
      '/v1/workunitcommunicationactivities/:id',
      {
        config: { permission: 'WorkUnitCommunications:edit' },
        schema: {
          tags,
          operationId: 'updateWorkUnitCommunicationActivity',
          summary: 'Update a communication activity',
          params,
          body: communicationActivityInputSchema,
          response: { 200: communicationActivitySchema },
        },
      },
      async (request) => updateActivity(db, principalOf(request), request.params.id, request.body),
    );

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
