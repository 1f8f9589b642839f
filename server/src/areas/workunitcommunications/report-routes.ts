import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { COMMUNICATION_MESSAGES, publicCommunicationReportSchema } from '@cfs/contracts/communications';
import type { AppDeps } from '../../app-deps.js';
import { BadRequestError } from '../../http/errors.js';
import { principalOf } from '../../http/route-permission.js';
import {
  findPublicReport,
  publishExternalReport,
  PUBLIC_REPORT_RATE_LIMIT,
  revokeExternalReport,
} from './external-report.js';
import { notifyFailure, requestInternalNotification } from './notify.js';

const tags = ['Work unit communications'];
const messageSchema = z.object({ message: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The communication's notices and published report (spec 001 §2 row actions Notify Internal and
 * External Report, §7, §8): Notify Internal, publishing and revoking the external report, and the
 * published report itself, open to anyone holding its link.
 */
export const communicationReportRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    // Edit, not view: it sends mail on the communication's behalf. The id is checked here, not by the
    // schema, so a missing or malformed one answers the spec's own text (001 §8).
    app.get(
      '/v1/workunitcommunications/:id/sendInternalNotification',
      {
        config: { permission: 'WorkUnitCommunications:edit' },
        schema: {
          tags,
          operationId: 'sendCommunicationInternalNotification',
          summary: "Email a communication's internal report",
          description:
            "A GET that sends mail (the spec's form): the internal report goes to the tenant's internal notification address.",
          params: z.object({ id: z.string() }),
          response: { 200: messageSchema },
        },
      },
      async (request) => {
        const id = request.params.id.trim();
        if (!UUID.test(id)) throw new BadRequestError(notifyFailure(COMMUNICATION_MESSAGES.notifyNoId.trim()));
        const user = principalOf(request);
        await requestInternalNotification(db, user.tenantScope, id.toLowerCase(), user.userName);
        return { message: COMMUNICATION_MESSAGES.notifySent };
      },
    );

    const idParams = z.object({ id: z.uuid() });
    app.post(
      '/v1/workunitcommunications/:id/externalReport',
      {
        config: { permission: 'WorkUnitCommunications:edit' },
        schema: {
          tags,
          operationId: 'publishCommunicationExternalReport',
          summary: "Publish a communication's external report",
          description:
            "Answers the published page's path, which anyone holding it may read; publishing again keeps the same link.",
          params: idParams,
          response: { 200: z.object({ externalReportPath: z.string() }) },
        },
      },
      async (request) => publishExternalReport(db, principalOf(request).tenantScope, request.params.id),
    );
    app.delete(
      '/v1/workunitcommunications/:id/externalReport',
      {
        config: { permission: 'WorkUnitCommunications:edit' },
        schema: {
          tags,
          operationId: 'revokeCommunicationExternalReport',
          summary: "Revoke a communication's external report",
          description: 'Its link stops working at once; a report not published is no error.',
          params: idParams,
        },
      },
      async (request, reply) => {
        await revokeExternalReport(db, principalOf(request).tenantScope, request.params.id);
        return reply.code(204).send();
      },
    );

    // The published report: no sign-in (the link is the key), limited per address like the access request.
    const publicReportPaths = [
      { path: '/v1/public/status/:token', operationId: 'getPublishedCommunicationReport', other: '/api/v1' },
      { path: '/api/v1/public/status/:token', operationId: 'getPublishedCommunicationReportUnderApi', other: '/v1' },
    ];
    for (const { path, operationId, other } of publicReportPaths) {
      app.get(
        path,
        {
          config: { permission: 'public', rateLimit: PUBLIC_REPORT_RATE_LIMIT },
          schema: {
            tags,
            operationId,
            summary: 'Get a published communication report',
            description:
              'Its token is the key to it, with no sign-in; revoked, it is not found (404). Also answered at ' +
              `${other}/public/status/{token}.`,
            params: z.object({ token: z.string().max(200) }),
            response: { 200: publicCommunicationReportSchema },
          },
        },
        async (request, reply) => {
          // A revoked link must stop working at once: no browser or proxy keeps a copy.
          void reply.header('Cache-Control', 'no-store');
          return findPublicReport(db, request.params.token);
        },
      );
    }
  };
