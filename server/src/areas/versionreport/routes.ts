import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { complianceReportRowSchema, VERSION_REPORT_EXPORT_FILE } from '@cfs/contracts/version-report';
import type { AppDeps } from '../../app-deps.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { answerApply } from './apply.js';
import { versionReportBase, versionReportResource } from './resource.js';

const tags = ['Version report'];

/**
 * The version report (spec 002 §2, §7 Version report): GET /v1/compliancereport (paged, and its
 * `$apply` group-by and distinct counts for the filters and the summary strip) and
 * POST /v1/compliancereport/Export() (versionreport.csv). Reading it needs Devices view (spec 000 §6,
 * 002 §6: "Version Report needs view of Devices").
 */
export const versionReportRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/compliancereport',
      title: 'version report rows',
      resource: versionReportResource,
      row: complianceReportRowSchema,
      permission: 'Devices:view',
      base: (user) => versionReportBase(db, user.tenantScope),
      exportFileName: VERSION_REPORT_EXPORT_FILE,
      tags,
      postExport: true,
      apply: (user, query, signal, reader) => answerApply(reader, user, query, signal),
    });
  };
