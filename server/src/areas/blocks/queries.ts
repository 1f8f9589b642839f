import { sql } from 'kysely';
import type { z } from 'zod';
import type { blockHistorySchema } from '@cfs/contracts/blocks';
import { MONITORING_LIMITS } from '@cfs/contracts/monitoring';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { entityLogs, historyRange, packetSeries } from '../../db/entity-packets.js';
import { scoped } from '../../db/scoped.js';
import { orNotFound } from '../../http/errors.js';

export interface BlockHistoryParams {
  pageNumber: number;
  from?: string | undefined;
  to?: string | undefined;
}

/** The block's entity (its id) and tenant, or 404 when the block is not there or not the caller's. */
async function blockEntity(
  db: Db,
  scope: TenantScope,
  blockId: string,
): Promise<{ entityId: string; tenantId: string }> {
  const row = orNotFound(
    await scoped(db, scope).selectFrom('block').select('tenant_id').where('block_id', '=', blockId).executeTakeFirst(),
    'The block',
  );
  return { entityId: blockId, tenantId: row.tenant_id };
}

/** A packet's Value as the history shows it: scalars as they are, anything else as its JSON text. */
function historyValue(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/**
 * GET /v1/blocks/{blockId}/history (spec 002 §3 Block history item, §9 "block history 100 only"):
 * the packets of the block's entity from `from` to `to`, newest first, a page of 100. The range
 * defaults to the whole retention and never reaches past it, so the count reads at most the
 * retention's days of one entity, through the history's key (entity, timestamp) in the day
 * partitions the range names.
 */
export async function findBlockHistory(
  db: Db,
  scope: TenantScope,
  blockId: string,
  params: BlockHistoryParams,
  retentionDays: number,
): Promise<z.infer<typeof blockHistorySchema>> {
  const entity = await blockEntity(db, scope, blockId);
  const { from, to } = historyRange(params.from, params.to, retentionDays);
  const range = scoped(db, scope)
    .selectFrom('packet')
    .where('entity_id', '=', entity.entityId)
    .where('tenant_id', '=', entity.tenantId)
    .where('timestamp', '>=', from)
    .where('timestamp', '<=', to);
  const pageSize = MONITORING_LIMITS.blockHistoryPageSize;
  // The page, then its count: one connection at a time, as every list (odata/list-query-sql.ts).
  const rows = await range
    .select(['received', 'timestamp', sql<unknown>`message -> 'Value'`.as('value')])
    .orderBy('timestamp', 'desc')
    .orderBy('content_hash', 'desc')
    .limit(pageSize)
    .offset((params.pageNumber - 1) * pageSize)
    .execute();
  const count = await range.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow();
  return {
    historyItems: rows.map((row) => ({
      receivedTimestamp: row.received,
      value: historyValue(row.value),
      timestamp: row.timestamp,
    })),
    totalCount: Number(count.total),
  };
}

/** GET /v1/blocks/{blockId}/series: the chart of the History tab. */
export async function findBlockSeries(
  db: Db,
  scope: TenantScope,
  blockId: string,
  query: { from: string; to?: string | undefined; buckets: number },
  retentionDays: number,
) {
  return packetSeries(db, scope, await blockEntity(db, scope, blockId), query, retentionDays);
}

/** GET /v1/blocks/{blockId}/logs: what rules did to the block's entity, newest first. */
export async function findBlockLogs(db: Db, scope: TenantScope, blockId: string) {
  return entityLogs(db, scope, await blockEntity(db, scope, blockId));
}
