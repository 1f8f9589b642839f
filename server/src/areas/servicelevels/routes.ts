import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dbIdParam, guid } from '@cfs/contracts/fields';
import {
  serviceLevelReportQuerySchema,
  serviceLevelReportSchema,
  serviceLevelsInputSchema,
  serviceLevelsSchema,
  serviceLevelTimerSchema,
} from '@cfs/contracts/service-levels';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { registerTenantDocumentRoutes } from '../../http/tenant-document-routes.js';
import { findServiceLevels, findTimers, resetServiceLevels, saveServiceLevels } from './commands.js';
import { serviceLevelReport, serviceLevelReportCsv } from './report.js';

const tags = ['Service levels'];
const params = z.object({ tenantId: guid() });
const SAVE_DESCRIPTION =
  'Written whole: the calendar (timeZone; businessHours per weekday, or null for around the clock; holidays; the pauseStates in which the clocks stop) and the targets per work unit type and severity (respondWithin, resolveWithin: HH:mm:ss of the calendar, or null). Clocks that run keep their targets and what they counted, and are due by the new calendar; new units and changes of severity take the new targets.';

const REPORT_DESCRIPTION =
  "The month (YYYY-MM) of the tenant's calendar: each clock counts in the month it was decided, missed when it breached and met when it stopped in time; per work unit type and severity, in total, per week, and the clocks missed.";

/** Service level definitions (read with ServiceLevels view, changed with edit), the monthly report (view) and a unit's clocks (WorkUnits view). */
export const serviceLevelRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    app.get(
      '/v1/servicelevels/installation',
      {
        config: { permission: 'ServiceLevels:view' },
        schema: {
          tags,
          operationId: 'getInstallationServiceLevels',
          summary: "Get the installation's service levels",
          description: 'The levels every tenant without levels of its own follows.',
          response: { 200: serviceLevelsSchema },
        },
      },
      async (request) => findServiceLevels(db, principalOf(request), null),
    );
    app.put(
      '/v1/servicelevels/installation',
      {
        config: { permission: 'ServiceLevels:edit' },
        schema: {
          tags,
          operationId: 'saveInstallationServiceLevels',
          summary: "Set the installation's service levels",
          description: `${SAVE_DESCRIPTION} Only staff of every tenant may change them.`,
          body: serviceLevelsInputSchema,
          response: { 200: serviceLevelsSchema },
        },
      },
      async (request) => saveServiceLevels(db, principalOf(request), null, request.body),
    );
    registerTenantDocumentRoutes(app, {
      path: '/v1/servicelevels',
      operation: 'ServiceLevels',
      tags,
      params,
      document: serviceLevelsSchema,
      input: serviceLevelsInputSchema,
      get: {
        permission: 'ServiceLevels:view',
        summary: "Get a tenant's service levels",
        description: "The tenant's own, or the installation's (inherited true) while it has none.",
        run: (user, tenantId) => findServiceLevels(db, user, tenantId),
      },
      save: {
        permission: 'ServiceLevels:edit',
        summary: "Set a tenant's service levels",
        description: SAVE_DESCRIPTION,
        run: (user, tenantId, input) => saveServiceLevels(db, user, tenantId, input),
      },
    });
    app.delete(
      '/v1/servicelevels/:tenantId',
      {
        config: { permission: 'ServiceLevels:edit' },
        schema: {
          tags,
          operationId: 'resetServiceLevels',
          summary: "Drop a tenant's own service levels",
          description: "The tenant follows the installation's levels again.",
          params,
          response: { 200: serviceLevelsSchema },
        },
      },
      async (request) => resetServiceLevels(db, principalOf(request), request.params.tenantId),
    );
    app.get(
      '/v1/servicelevels/reports/:tenantId',
      {
        config: { permission: 'ServiceLevels:view' },
        schema: {
          tags,
          operationId: 'getServiceLevelReport',
          summary: "A tenant's service level report for a month",
          description: REPORT_DESCRIPTION,
          params,
          querystring: serviceLevelReportQuerySchema,
          response: { 200: serviceLevelReportSchema },
        },
      },
      async (request) => serviceLevelReport(db, principalOf(request), request.params.tenantId, request.query.month),
    );
    app.get(
      '/v1/servicelevels/reports/:tenantId/csv',
      {
        config: { permission: 'ServiceLevels:view' },
        schema: {
          tags,
          operationId: 'exportServiceLevelReport',
          summary: "A tenant's service level report for a month as CSV",
          description: `${REPORT_DESCRIPTION} A row per work unit type, severity and clock, then the month's total per clock.`,
          params,
          querystring: serviceLevelReportQuerySchema,
        },
      },
      async (request, reply) => {
        const report = await serviceLevelReport(db, principalOf(request), request.params.tenantId, request.query.month);
        const { fileName, csv } = serviceLevelReportCsv(report);
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${fileName}"`)
          .send(csv);
      },
    );
    app.get(
      '/v1/servicelevels/timers/:workUnitId',
      {
        config: { permission: 'WorkUnits:view' },
        schema: {
          tags,
          operationId: 'getServiceLevelTimers',
          summary: "A work unit's service level clocks",
          description:
            'Its time to first response and to resolution, counted up to now in its calendar: running, paused, met or missed, with what is left and when it is due.',
          params: z.object({ workUnitId: dbIdParam }),
          response: { 200: z.array(serviceLevelTimerSchema) },
        },
      },
      async (request) => findTimers(db, principalOf(request), request.params.workUnitId),
    );
  };
