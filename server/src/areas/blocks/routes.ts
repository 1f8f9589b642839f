import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blockCreateSchema,
  blockHistoryQuerySchema,
  blockHistorySchema,
  blockSchema,
  blockUpdateSchema,
} from '@cfs/contracts/blocks';
import { entityLogEntrySchema, packetSeriesQuerySchema, packetSeriesSchema } from '@cfs/contracts/packet-series';
import { guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { createBlock, deleteBlock, findBlock, updateBlock } from './commands.js';
import { findBlockHistory, findBlockLogs, findBlockSeries } from './queries.js';
import { blockEntity } from './resource.js';

const tags = ['Blocks'];
const BLOCKS_PATH = '/v1/blocks';
const params = z.object({ id: guid() });

/** Blocks (spec 002 §2 Blocks, §7 Blocks and packets). */
export const blockRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    // Spec 002 §3 Block: entityColor.color is part of every block the list answers, so a client that
    // does not ask for it with $expand gets it too (the colour is read through the list layer's
    // scoped expansion; this plugin's hook touches only the list).
    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.url !== BLOCKS_PATH || request.method !== 'GET') return;
      const query = request.query as Record<string, unknown>;
      const expand = typeof query.$expand === 'string' ? query.$expand : '';
      if (!expand.split(',').some((item) => item.trim().split(/[(/]/)[0] === 'entityColor'))
        request.query = { ...query, $expand: expand.trim() ? `${expand},entityColor` : 'entityColor' };
    });

    registerListRoutes(app, db, {
      path: BLOCKS_PATH,
      title: 'blocks',
      resource: blockEntity.resource,
      row: blockSchema,
      permission: 'Blocks:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('block').selectAll(),
      exportFileName: 'blocks.csv',
      tags,
    });

    registerItemRoutes(app, {
      path: '/v1/blocks',
      name: { operation: 'Block', words: 'a block' },
      area: 'Blocks',
      tags,
      params,
      item: blockSchema,
      input: { create: blockCreateSchema, update: blockUpdateSchema },
      get: (user, { id }) => findBlock(db, user.tenantScope, id),
      create: (user, input) => createBlock(db, user, input),
      update: (user, { id }, input) => updateBlock(db, user, id, input),
      delete: { response: z.object({ message: z.string() }), run: (user, { id }) => deleteBlock(db, user, id) },
      own: {
        create: {
          description:
            "The block's id is its entity's, the one packets name; creating the block makes the tenant that entity's owner.",
        },
        update: { summary: "Change a block's name and description" },
        delete: { description: "The entity's packets, colour and logs stay." },
      },
    });

    app.get(
      '/v1/blocks/:id/history',
      {
        config: { permission: 'Blocks:view' },
        schema: {
          tags,
          operationId: 'getBlockHistory',
          summary: "Get a page of a block's values, newest first",
          params,
          querystring: blockHistoryQuerySchema,
          response: { 200: blockHistorySchema },
        },
      },
      async (request) =>
        findBlockHistory(
          db,
          principalOf(request).tenantScope,
          request.params.id,
          request.query,
          config.packetRetentionDays,
        ),
    );

    app.get(
      '/v1/blocks/:id/series',
      {
        config: { permission: 'Blocks:view' },
        schema: {
          tags,
          operationId: 'getBlockSeries',
          summary: "Get the series of a block's values over a time range",
          params,
          querystring: packetSeriesQuerySchema,
          response: { 200: packetSeriesSchema },
        },
      },
      async (request) =>
        findBlockSeries(
          db,
          principalOf(request).tenantScope,
          request.params.id,
          request.query,
          config.packetRetentionDays,
        ),
    );

    app.get(
      '/v1/blocks/:id/logs',
      {
        config: { permission: 'Blocks:view' },
        schema: {
          tags,
          operationId: 'getBlockLogs',
          summary: "Get a block's log entries",
          params,
          response: { 200: z.array(entityLogEntrySchema) },
        },
      },
      async (request) => findBlockLogs(db, principalOf(request).tenantScope, request.params.id),
    );
  };
