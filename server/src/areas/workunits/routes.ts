import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Operation } from 'fast-json-patch';
import { z } from 'zod';
import { dbIdParam } from '@cfs/contracts/fields';
import {
  historyRecordSchema,
  jsonPatchSchema,
  workUnitBulkAssignSchema,
  workUnitBulkResultSchema,
  workUnitBulkStateSchema,
  workUnitCreateSchema,
  workUnitNoteInputSchema,
  workUnitSchema,
  resolutionCenterCategoriesSchema,
  resolutionCenterRequestSchema,
} from '@cfs/contracts/work-units';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { sendListItem } from '../../odata/list-item.js';
import { principalOf, type RoutePermission } from '../../http/route-permission.js';
import { accessRequestRoutes } from './access-request-routes.js';
import { bulkPatchWorkUnits, createWorkUnit, patchWorkUnit } from './commands.js';
import { addNote, findHistory, findExternalNotes, requestCallBack } from './notes.js';
import { findWorkUnitJson } from './queries.js';
import { resolutionCenterResource, workUnitsResource } from './resource.js';
import {
  createResolutionCenterRequest,
  resolutionCenterAccess,
  resolutionCenterBase,
  resolutionCenterCategories,
} from './resolution-center.js';

const tags = ['Work units'];
const numericId = z.object({ id: dbIdParam });
const history = { 200: z.object({ value: z.array(historyRecordSchema) }) };
const workUnitAnswer = { 200: workUnitSchema };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Work units (spec 001 §7 Work units). */
export const workUnitRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = (deps) => async (app) => {
  const { db } = deps;
  // A work unit is answered as the database's own JSON (the list layer's item), sent as it is. Its
  // writes answer the same way, read after their commit.
  const sendWorkUnit = async (request: FastifyRequest, reply: FastifyReply, id: number | string) =>
    sendListItem(reply, await findWorkUnitJson(db, principalOf(request).tenantScope, id));
  // The login page's access request creates a work unit (spec 001 §7).
  await app.register(accessRequestRoutes(deps));
  registerListRoutes(app, db, {
    path: '/v1/workunits',
    title: 'work units',
    resource: workUnitsResource,
    row: workUnitSchema,
    permission: 'WorkUnits:view',
    base: (user) => scoped(db, user.tenantScope).selectFrom('work_unit').selectAll(),
    exportFileName: 'workunits.csv',
    exportsEveryRow: true,
    tags,
  });

  // The Resolution Center (spec 001 §2, §7): staff see their tenants' incidents, an end user (view:mine) the requests they raised.
  const resolutionCenter: RoutePermission = ['WorkUnits:view', 'WorkUnits:view:mine'];
  registerListRoutes(app, db, {
    path: '/v1/workunits/rc',
    title: 'Resolution Center requests',
    resource: resolutionCenterResource,
    row: workUnitSchema,
    permission: resolutionCenter,
    base: (user) => resolutionCenterBase(db, user),
    exportFileName: 'resolutioncenter.csv',
    tags,
  });
  app.get(
    '/v1/workunits/rc/categories',
    {
      config: { permission: resolutionCenter },
      schema: {
        tags,
        operationId: 'listResolutionCenterCategories',
        summary: "List a tenant's Resolution Center services and needs",
        querystring: z.object({ tenantId: z.uuid() }),
        response: { 200: resolutionCenterCategoriesSchema },
      },
    },
    async (request) => ({
      value: await resolutionCenterCategories(db, principalOf(request), request.query.tenantId.toLowerCase()),
    }),
  );
  app.get(
    '/v1/workunits/rc/:id/externalNotes',
    {
      config: { permission: resolutionCenter },
      schema: {
        tags,
        operationId: 'listResolutionCenterRequestNotes',
        summary: "List a Resolution Center request's external notes",
        description: 'An end user (WorkUnits view:mine) reads the notes of their own requests only.',
        params: numericId,
        response: history,
      },
    },
    async (request) => {
      const user = principalOf(request);
      return { value: await findExternalNotes(db, resolutionCenterAccess(user), request.params.id) };
    },
  );
  app.put(
    '/api/v1/rc/workunits',
    {
      config: { permission: resolutionCenter },
      schema: {
        tags,
        operationId: 'createResolutionCenterRequest',
        summary: 'Raise a request in the Resolution Center',
        description: 'Creates a new Sev3 Incident with the caller as its stakeholder.',
        body: resolutionCenterRequestSchema,
        response: workUnitAnswer,
      },
    },
    async (request, reply) =>
      sendWorkUnit(request, reply, await createResolutionCenterRequest(db, principalOf(request), request.body)),
  );

  // GET v1/workunits({id}) by number, or by the public GUID.
  app.get(
    '/v1/workunits/:id',
    {
      config: { permission: 'WorkUnits:view' },
      schema: {
        tags,
        operationId: 'getWorkUnit',
        summary: 'Get a work unit',
        description: 'The id is the work unit number or its public GUID.',
        params: z.object({ id: z.string().max(40) }),
        response: workUnitAnswer,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendWorkUnit(request, reply, GUID.test(id) ? id.toLowerCase() : dbIdParam.parse(id));
    },
  );

  app.put(
    '/api/v1/workunits',
    {
      config: { permission: 'WorkUnits:create' },
      schema: {
        tags,
        operationId: 'createWorkUnit',
        summary: 'Create a work unit',
        body: workUnitCreateSchema,
        response: workUnitAnswer,
      },
    },
    async (request, reply) => {
      const { workUnitId: _new, ...fields } = request.body;
      return sendWorkUnit(request, reply, await createWorkUnit(db, principalOf(request), fields));
    },
  );

  app.patch(
    '/v1/workunits/:id',
    {
      config: { permission: 'WorkUnits:edit' },
      schema: {
        tags,
        operationId: 'patchWorkUnit',
        summary: 'Change a work unit with a JSON Patch',
        params: numericId,
        body: jsonPatchSchema,
        response: workUnitAnswer,
      },
    },
    async (request, reply) => {
      await patchWorkUnit(db, principalOf(request), request.params.id, request.body as Operation[]);
      return sendWorkUnit(request, reply, request.params.id);
    },
  );

  // Bulk changes answer which units changed and which were refused, and why.
  const bulk = { 200: workUnitBulkResultSchema };
  app.post(
    '/v1/workunits/bulk/assign',
    {
      config: { permission: 'WorkUnits:edit' },
      schema: {
        tags,
        operationId: 'bulkAssignWorkUnits',
        summary: 'Assign several work units at once',
        description: 'Answers which work units changed and which were refused, and why.',
        body: workUnitBulkAssignSchema,
        response: bulk,
      },
    },
    async (request) =>
      bulkPatchWorkUnits(db, principalOf(request), request.body.workUnitIds, [
        { op: 'replace', path: '/assignedTo', value: request.body.assignedTo || null },
      ]),
  );
  app.post(
    '/v1/workunits/bulk/state',
    {
      config: { permission: 'WorkUnits:edit' },
      schema: {
        tags,
        operationId: 'bulkSetWorkUnitState',
        summary: 'Change the state of several work units at once',
        description: 'Answers which work units changed and which were refused, and why.',
        body: workUnitBulkStateSchema,
        response: bulk,
      },
    },
    async (request) =>
      bulkPatchWorkUnits(db, principalOf(request), request.body.workUnitIds, [
        { op: 'replace', path: '/stateId', value: request.body.stateId },
      ]),
  );

  app.get(
    '/v1/workunits/GetWorkUnitHistoryRecords',
    {
      config: { permission: 'WorkUnits:view' },
      schema: {
        tags,
        operationId: 'listWorkUnitHistory',
        summary: "List a work unit's notes and history records",
        querystring: z.object({ workUnitId: dbIdParam }),
        response: history,
      },
    },
    async (request) => ({ value: await findHistory(db, principalOf(request), request.query.workUnitId) }),
  );

  app.get(
    '/v1/workunits/:id/externalNotes',
    {
      config: { permission: 'WorkUnits:view' },
      schema: {
        tags,
        operationId: 'listWorkUnitExternalNotes',
        summary: "List a work unit's external notes",
        params: numericId,
        response: history,
      },
    },
    async (request) => ({
      value: await findHistory(db, principalOf(request), request.params.id, true),
    }),
  );

  app.put(
    '/v1/workunitnotes',
    {
      config: { permission: 'WorkUnits:edit' },
      schema: {
        tags,
        operationId: 'addWorkUnitNote',
        summary: 'Add a note to a work unit',
        body: workUnitNoteInputSchema,
        response: { 200: historyRecordSchema },
      },
    },
    async (request) => addNote(db, principalOf(request), request.body),
  );

  app.post(
    '/v1/workunitnotes/callme/:workUnitId',
    {
      config: { permission: ['WorkUnits:view', 'WorkUnits:view:mine'] },
      schema: {
        tags,
        operationId: 'requestWorkUnitCallBack',
        summary: 'Ask to be called back about a work unit',
        description:
          'Recorded on the work unit for the service desk; an end user (WorkUnits view:mine) asks about their own only.',
        params: z.object({ workUnitId: dbIdParam }),
        response: { 200: historyRecordSchema },
      },
    },
    async (request) => requestCallBack(db, principalOf(request), request.params.workUnitId),
  );
};
