import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailRenderInputSchema, outboxEmailSchema, renderedEmailSchema } from '@cfs/contracts/automation';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { renderForWorkUnit } from './queries.js';
import { emailOutboxResource } from './resource.js';

/**
 * Email: the Pending Actions dialog's preview (spec 001 §7 POST /v1/emailtemplates/render) and the
 * Outbox, every email the portal sent or kept. The Outbox is for administrators: Settings view, a
 * permission only the Administrator role holds (the Operator role has none of Settings).
 */
export const emailRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    app.post(
      '/v1/emailtemplates/render',
      {
        config: { permission: 'WorkUnits:view' },
        schema: {
          tags: ['Email'],
          operationId: 'renderEmailTemplate',
          summary: 'Preview the email of a Send Email action',
          description:
            'The email a Send Email protocol action would send for a work unit, with the values a user typed; nothing is sent. ' +
            '`userDefinedParams` is an object of names and texts or its JSON text (spec 001 §7).',
          body: emailRenderInputSchema,
          response: { 200: renderedEmailSchema },
        },
      },
      async (request) => renderForWorkUnit(db, principalOf(request).tenantScope, config.publicUrl, request.body),
    );

    registerListRoutes(app, db, {
      path: '/v1/emailOutbox',
      title: 'Outbox emails',
      resource: emailOutboxResource,
      row: outboxEmailSchema,
      permission: 'Settings:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('email_outbox').selectAll(),
      exportFileName: 'outbox.csv',
      tags: ['Email'],
    });
  };
