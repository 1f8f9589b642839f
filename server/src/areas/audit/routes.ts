import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { findAuditEvents } from './queries.js';

const auditEventSchema = z.object({
  auditEventId: z.number().int(),
  occurredAt: z.date(),
  actorName: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  action: z.string(),
  changes: z.record(z.string(), z.unknown()),
});

/** The change history of one entity, for users who may read that entity. */
export const auditRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, auditedEntities }) =>
  async (app) => {
    app.get(
      '/v1/auditEvents',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags: ['Audit'],
          operationId: 'listAuditEvents',
          summary: "List an entity's change history",
          description:
            "Beyond signing in, the caller needs the view permission of the entity type's area (403 without it).",
          querystring: z.object({
            entityType: z.string().min(1).max(64),
            entityId: z.string().min(1).max(100),
            $top: z.coerce.number().int().min(1).max(500).default(100),
          }),
          response: { 200: z.object({ value: z.array(auditEventSchema) }) },
        },
      },
      async (request) => ({
        value: await findAuditEvents(
          db,
          auditedEntities,
          principalOf(request),
          request.query.entityType,
          request.query.entityId,
          request.query.$top,
        ),
      }),
    );
  };
