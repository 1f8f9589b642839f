import { sql } from 'kysely';
import type { z } from 'zod';
import { ENTITY_LOGS_LIMIT, type packetSeriesSchema } from '@cfs/contracts/packet-series';
import { PACKET_LIMITS } from '@cfs/contracts/packets';
import type { TenantScope } from '../auth/tenant-scope.js';
import { BadRequestError } from '../http/errors.js';
import type { Db } from './database.js';
import { scoped } from './scoped.js';

/**
 * Reads of one entity's packets and log shared by the areas that show an entity (blocks, the
 * Packet drawer): each area first checks that the caller may see the entity, then names the
 * entity's tenant here.
 */

/** The range a history read covers: never older than the retention, `to` after `from`. */
export function historyRange(
  from: string | undefined,
  to: string | undefined,
  retentionDays: number,
): { from: Date; to: Date } {
  const now = Date.now();
  const oldest = now - retentionDays * 86_400_000;
  const start = Math.max(from ? Date.parse(from) : oldest, oldest);
  const end = to ? Date.parse(to) : now + PACKET_LIMITS.futureToleranceMs;
  if (end < start) throw new BadRequestError('to must be after from', { to: ['to must be after from'] });
  return { from: new Date(start), to: new Date(end) };
}

/**
 * The entity's numeric Values from `from` to `to` folded into at most `buckets` buckets (average,
 * lowest, highest, how many), for a chart: one pass over the entity's rows of the range, read
 * through the history's key (entity, timestamp) in the day partitions the range names. A chart
 * ends now unless told otherwise (the history's default end allows for clocks ahead), and starts
 * no earlier than the retention.
 */
export async function packetSeries(
  db: Db,
  scope: TenantScope,
  entity: { entityId: string; tenantId: string },
  query: { from: string; to?: string | undefined; buckets: number },
  retentionDays: number,
): Promise<z.infer<typeof packetSeriesSchema>> {
  const range = historyRange(query.from, query.to ?? new Date().toISOString(), retentionDays);
  const { buckets } = query;
  const bucketSeconds = Math.max(1, Math.ceil((range.to.getTime() - range.from.getTime()) / 1000 / buckets));
  const start = range.from.getTime() / 1000;
  const bucket = sql<number>`floor((extract(epoch FROM timestamp) - ${start}::float8) / ${bucketSeconds}::float8)`;
  const value = sql<number>`(message ->> 'Value')::float8`;
  const rows = await scoped(db, scope)
    .selectFrom('packet')
    .select([
      bucket.as('bucket'),
      sql<number>`avg(${value})`.as('average'),
      sql<number>`min(${value})`.as('minimum'),
      sql<number>`max(${value})`.as('maximum'),
      sql<string>`count(*)`.as('count'),
    ])
    .where('entity_id', '=', entity.entityId)
    .where('tenant_id', '=', entity.tenantId)
    .where('timestamp', '>=', range.from)
    .where('timestamp', '<=', range.to)
    .where(sql<boolean>`jsonb_typeof(message -> 'Value') = 'number'`)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  return {
    from: range.from,
    to: range.to,
    bucketSeconds,
    points: rows.map((row) => ({
      timestamp: new Date((start + Number(row.bucket) * bucketSeconds) * 1000),
      average: Number(row.average),
      minimum: Number(row.minimum),
      maximum: Number(row.maximum),
      count: Number(row.count),
    })),
  };
}

/** What rules did to the entity (table entity_log), newest first, at most ENTITY_LOGS_LIMIT (index entity_log_entity_idx). */
export async function entityLogs(
  db: Db,
  scope: TenantScope,
  entity: { entityId: string; tenantId: string },
): Promise<{ logEntryId: number; created: Date; detail: string }[]> {
  const rows = await scoped(db, scope)
    .selectFrom('entity_log')
    .select(['entity_log_id', 'created', 'detail'])
    .where('entity_id', '=', entity.entityId)
    .where('tenant_id', '=', entity.tenantId)
    .orderBy('created', 'desc')
    .orderBy('entity_log_id', 'desc')
    .limit(ENTITY_LOGS_LIMIT)
    .execute();
  return rows.map((row) => ({ logEntryId: Number(row.entity_log_id), created: row.created, detail: row.detail }));
}
