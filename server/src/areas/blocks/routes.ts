import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blockCreateSchema, blockHistoryQuerySchema, blockHistorySchema, blockSchema, blockUpdateSchema } from '@cfs/contracts/blocks';
import { entityLogEntrySchema, packetSeriesQuerySchema, packetSeriesSchema } from '@cfs/contracts/packet-series';
import { guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { createBlock, deleteBlock, findBlock, updateBlock } from './commands.js';
import { findBlockHistory, findBlockLogs, findBlockSeries } from './queries.js';
import { blocksResource } from './resource.js';

const tags = ['Blocks'];
const params = z.object({ id: guid() });

/** Blocks (spec 002 §2 Blocks, §7 Blocks and packets). */
export const blockRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db, config }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/blocks',
    resource: blocksResource,
    row: blockSchema,
    permission: perm('Blocks', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('block').selectAll(),
    exportFileName: 'blocks.csv',
    tags,
  });

  app.get('/v1/blocks/:id', { config: { permission: perm('Blocks', 'view') }, schema: { tags, params, response: { 200: blockSchema } } }, async (request) =>
    findBlock(db, principalOf(request).tenantScope, request.params.id),
  );

  app.put('/v1/blocks', { config: { permission: perm('Blocks', 'create') }, schema: { tags, body: blockCreateSchema, response: { 200: blockSchema } } }, async (request) =>
    createBlock(db, principalOf(request), request.body),
  );

  app.post('/v1/blocks/:id', { config: { permission: perm('Blocks', 'edit') }, schema: { tags, params, body: blockUpdateSchema, response: { 200: blockSchema } } }, async (request) =>
    updateBlock(db, principalOf(request), request.params.id, request.body),
  );

  app.delete('/v1/blocks/:id', { config: { permission: perm('Blocks', 'delete') }, schema: { tags, params, response: { 200: z.object({ message: z.string() }) } } }, async (request) =>
    deleteBlock(db, principalOf(request), request.params.id),
  );

  app.get(
    '/v1/blocks/:id/history',
    { config: { permission: perm('Blocks', 'view') }, schema: { tags, params, querystring: blockHistoryQuerySchema, response: { 200: blockHistorySchema } } },
    async (request) => findBlockHistory(db, principalOf(request).tenantScope, request.params.id, request.query, config.packetRetentionDays),
  );

  app.get(
    '/v1/blocks/:id/series',
    { config: { permission: perm('Blocks', 'view') }, schema: { tags, params, querystring: packetSeriesQuerySchema, response: { 200: packetSeriesSchema } } },
    async (request) => findBlockSeries(db, principalOf(request).tenantScope, request.params.id, request.query, config.packetRetentionDays),
  );

  app.get('/v1/blocks/:id/logs', { config: { permission: perm('Blocks', 'view') }, schema: { tags, params, response: { 200: z.array(entityLogEntrySchema) } } }, async (request) =>
    findBlockLogs(db, principalOf(request).tenantScope, request.params.id),
  );
};
