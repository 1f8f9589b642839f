import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { entityLogEntrySchema, packetSeriesQuerySchema, packetSeriesSchema } from '@cfs/contracts/packet-series';
import {
  ingestResultSchema,
  packetHistoryQuerySchema,
  packetInputSchema,
  packetHistorySchema,
  packetSchema,
  PACKET_LIMITS,
} from '@cfs/contracts/packets';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { ingestPackets } from '../../engines/ingestion/ingest.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { machineOf, principalOf } from '../../http/route-permission.js';
import { findEntityLogs, findEntitySeries, findPacketHistory } from './queries.js';
import { packetsResource } from './resource.js';

const tags = ['Packets'];

/** Packets (spec 002 §3 Packet, §7 Blocks and packets): ingestion by machines, the latest and the history for people. */
export const packetRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/packets',
      title: 'packets',
      resource: packetsResource,
      row: packetSchema,
      permission: 'Packets:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('packet_latest').selectAll(),
      exportFileName: 'packets.csv',
      tags,
    });

    // The body is checked item by item in ingestion, so that a problem names its item ("Item 3: …").
    app.post(
      '/v1/packets',
      {
        config: {
          permission: { machine: ['device', 'token'] },
          documentedBody: z.union([packetInputSchema, z.array(packetInputSchema).max(PACKET_LIMITS.maxBatch)]),
        },
        // A full batch of large messages is bigger than the portal's usual body limit.
        bodyLimit: 32 * 1024 * 1024,
        schema: {
          tags,
          operationId: 'reportPackets',
          summary: 'Report packets',
          description: `One packet or an array of up to ${PACKET_LIMITS.maxBatch} ({ entityId, timestamp, message }), stored whole or not at all.`,
          body: z.unknown(),
          response: { 200: ingestResultSchema },
        },
      },
      async (request) =>
        ingestPackets(db, machineOf(request), request.body, { retentionDays: config.packetRetentionDays }),
    );

    app.get(
      '/v1/packets/:entityId/history',
      {
        config: { permission: 'Packets:view' },
        schema: {
          tags,
          operationId: 'getPacketHistory',
          summary: "Get a page of an entity's packets, newest first",
          params: z.object({ entityId: z.uuid() }),
          querystring: packetHistoryQuerySchema,
          response: { 200: packetHistorySchema },
        },
      },
      async (request) =>
        findPacketHistory(
          db,
          principalOf(request).tenantScope,
          request.params.entityId.toLowerCase(),
          request.query,
          config.packetRetentionDays,
          request.url.split('?')[0] ?? '',
        ),
    );

    // The Packet drawer's History chart and Logs tab (spec 002 §2 Packet drawer).
    app.get(
      '/v1/packets/:entityId/series',
      {
        config: { permission: 'Packets:view' },
        schema: {
          tags,
          operationId: 'getPacketSeries',
          summary: "Get the series of an entity's values over a time range",
          params: z.object({ entityId: z.uuid() }),
          querystring: packetSeriesQuerySchema,
          response: { 200: packetSeriesSchema },
        },
      },
      async (request) =>
        findEntitySeries(
          db,
          principalOf(request).tenantScope,
          request.params.entityId.toLowerCase(),
          request.query,
          config.packetRetentionDays,
        ),
    );

    app.get(
      '/v1/packets/:entityId/logs',
      {
        config: { permission: 'Packets:view' },
        schema: {
          tags,
          operationId: 'getPacketLogs',
          summary: "Get an entity's log entries",
          params: z.object({ entityId: z.uuid() }),
          response: { 200: z.array(entityLogEntrySchema) },
        },
      },
      async (request) => findEntityLogs(db, principalOf(request).tenantScope, request.params.entityId.toLowerCase()),
    );
  };
