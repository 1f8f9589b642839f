import { sql } from 'kysely';
import type { z } from 'zod';
import { BLOCK_LOGS_LIMIT, type blockHistorySchema } from '@cfs/contracts/blocks';
import { MONITORING_LIMITS } from '@cfs/contracts/monitoring';
import { PACKET_LIMITS } from '@cfs/contracts/packets';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';

export interface BlockHistoryParams {
  pageNumber: number;
  from?: string | undefined;
  to?: string | undefined;
}

/** The block's tenant, or 404 when the block is not there or not the caller's. */
async function blockTenant(db: Db, scope: TenantScope, blockId: string): Promise<string> {
  const row = orNotFound(await scoped(db, scope).selectFrom('block').select('tenant_id').where('block_id', '=', blockId).executeTakeFirst(), 'The block');
  return row.tenant_id;
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
export async function findBlockHistory(db: Db, scope: TenantScope, blockId: string, params: BlockHistoryParams, retentionDays: number): Promise<z.infer<typeof blockHistorySchema>> {
  const tenantId = await blockTenant(db, scope, blockId);
  const now = Date.now();
  const oldest = now - retentionDays * 86_400_000;
  const from = Math.max(params.from ? Date.parse(params.from) : oldest, oldest);
  const to = params.to ? Date.parse(params.to) : now + PACKET_LIMITS.futureToleranceMs;
  if (to < from) throw new BadRequestError('to must be after from', { to: ['to must be after from'] });
  const range = scoped(db, scope)
    .selectFrom('packet')
    .where('entity_id', '=', blockId)
    .where('tenant_id', '=', tenantId)
    .where('timestamp', '>=', new Date(from))
    .where('timestamp', '<=', new Date(to));
  const pageSize = MONITORING_LIMITS.blockHistoryPageSize;
  const [rows, count] = await Promise.all([
    range
      .select(['received', 'timestamp', sql<unknown>`message -> 'Value'`.as('value')])
      .orderBy('timestamp', 'desc')
      .orderBy('content_hash', 'desc')
      .limit(pageSize)
      .offset((params.pageNumber - 1) * pageSize)
      .execute(),
    range.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    historyItems: rows.map((row) => ({ receivedTimestamp: row.received, value: historyValue(row.value), timestamp: row.timestamp })),
    totalCount: Number(count.total),
  };
}

/** GET /v1/blocks/{blockId}/logs: what rules did to the entity, newest first, at most BLOCK_LOGS_LIMIT (index entity_log_entity_idx). */
export async function findBlockLogs(db: Db, scope: TenantScope, blockId: string): Promise<{ logEntryId: number; created: Date; detail: string }[]> {
  const tenantId = await blockTenant(db, scope, blockId);
  const rows = await scoped(db, scope)
    .selectFrom('entity_log')
    .select(['entity_log_id', 'created', 'detail'])
    .where('entity_id', '=', blockId)
    .where('tenant_id', '=', tenantId)
    .orderBy('created', 'desc')
    .orderBy('entity_log_id', 'desc')
    .limit(BLOCK_LOGS_LIMIT)
    .execute();
  return rows.map((row) => ({ logEntryId: Number(row.entity_log_id), created: row.created, detail: row.detail }));
}
