import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  controlSetExportSchema,
  controlSetsQuerySchema,
  controlSetsResponseSchema,
  controlSetSummarySchema,
  controlSetUploadQuerySchema,
  controlStatusCreateSchema,
  controlStatusSchema,
  copyLastWeekResultSchema,
  copyLastWeekSchema,
} from '@cfs/contracts/compliance';
import { jsonPatchSchema } from '@cfs/contracts/work-units';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { copyLastWeek, createControlStatus, deleteControlStatus, patchControlStatus } from './commands.js';
import { uploadControlSet } from './control-sets.js';
import { exportControlSets } from './export.js';
import { findControlSets } from './queries.js';

const tags = ['Compliance'];
const params = z.object({ id: z.uuid() });

/** The compliance checklist (spec 002 §2 Compliance checklist, §7). */
export const complianceRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    app.get(
      '/v1/controlsets',
      {
        config: { permission: 'Compliance:view' },
        schema: {
          tags,
          operationId: 'listControlSets',
          summary: 'List control sets with a week of control statuses',
          querystring: controlSetsQuerySchema,
          response: { 200: controlSetsResponseSchema },
        },
      },
      async (request) => findControlSets(db, principalOf(request).tenantScope, request.query),
    );

    // An OSCAL catalog of a whole family of baselines runs to megabytes.
    app.put(
      '/v1/controlsets',
      {
        bodyLimit: 32 * 1024 * 1024,
        config: { permission: 'Compliance:create' },
        schema: {
          tags,
          operationId: 'uploadControlSet',
          summary: 'Upload a control set as an OSCAL catalog',
          description: 'The body is an OSCAL catalog (JSON), of up to 32 MiB.',
          querystring: controlSetUploadQuerySchema,
          body: z.unknown(),
          response: { 200: controlSetSummarySchema },
        },
      },
      async (request) => uploadControlSet(db, principalOf(request), request.query.tenantId, request.body),
    );

    // Answers POST /v1/controlsets/Export() (the OData-style call is rewritten to this path).
    app.post(
      '/v1/controlsets/Export',
      {
        config: { permission: 'Compliance:view' },
        schema: {
          tags,
          operationId: 'exportControlSets',
          summary: "Export a tenant's week of control statuses as CSV",
          description: 'Also answered at POST /v1/controlsets/Export(), as the spec spells it.',
          body: controlSetExportSchema,
        },
      },
      async (request, reply) => {
        const { fileName, csv } = await exportControlSets(db, principalOf(request).tenantScope, request.body);
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${fileName}"`)
          .send(csv);
      },
    );

    app.post(
      '/v1/controlstatuses',
      {
        config: { permission: 'Compliance:create' },
        schema: {
          tags,
          operationId: 'createControlStatus',
          summary: "Record a control's status for a week",
          description: 'One record per tenant, control and week: a second one for the same week is refused (409).',
          body: controlStatusCreateSchema,
          response: { 200: controlStatusSchema },
        },
      },
      async (request) => createControlStatus(db, principalOf(request), request.body),
    );

    app.post(
      '/v1/controlstatuses/copyLastWeek',
      {
        config: { permission: 'Compliance:create' },
        schema: {
          tags,
          operationId: 'copyLastWeekControlStatuses',
          summary: "Copy last week's control statuses to this week",
          description: "Only to the set's controls with no record this week yet; answers how many were copied.",
          body: copyLastWeekSchema,
          response: { 200: copyLastWeekResultSchema },
        },
      },
      async (request) => copyLastWeek(db, principalOf(request), request.body),
    );

    app.patch(
      '/v1/controlstatuses/:id',
      {
        config: { permission: 'Compliance:edit' },
        schema: {
          tags,
          operationId: 'patchControlStatus',
          summary: 'Change a control status with a JSON Patch',
          params,
          body: jsonPatchSchema,
          response: { 200: controlStatusSchema },
        },
      },
      async (request) => patchControlStatus(db, principalOf(request), request.params.id, request.body),
    );

    app.delete(
      '/v1/controlstatuses/:id',
      {
        config: { permission: 'Compliance:delete' },
        schema: {
          tags,
          operationId: 'deleteControlStatus',
          summary: 'Delete a control status',
          params,
          response: { 200: z.object({ message: z.string() }) },
        },
      },
      async (request) => deleteControlStatus(db, principalOf(request), request.params.id),
    );
  };
