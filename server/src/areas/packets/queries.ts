import { sql } from 'kysely';
import type { z } from 'zod';
import { PACKET_LIMITS, type packetHistorySchema } from '@cfs/contracts/packets';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { entityLogs, packetSeries } from '../../db/entity-packets.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';

export interface HistoryQuery {
  from?: string | undefined;
  to?: string | undefined;
  $top: number;
  $skiptoken?: string | undefined;
}

/** Where the next page starts: the last row's timestamp (to the microsecond) and content hash. */
interface HistoryCursor {
  timestamp: string;
  hash: string;
}

const SKIPTOKEN_MESSAGE = '$skiptoken is not one this list handed out.';

function decodeSkiptoken(token: string): HistoryCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      /^[0-9a-f]{64}$/.test(parsed[1]) &&
      !Number.isNaN(Date.parse(parsed[0]))
    ) {
      return { timestamp: parsed[0], hash: parsed[1] };
    }
  } catch {
    // Not base64 JSON: refused below like any other foreign token.
  }
  throw new BadRequestError(SKIPTOKEN_MESSAGE, { $skiptoken: [SKIPTOKEN_MESSAGE] });
}

/**
 * GET v1/packets/{entityId}/history: the entity's packets from `from` to `to` (default: the whole
 * retention), newest first, a page at a time. Read by the history's key (entity, timestamp, hash)
 * in the days' partitions the range names; the next page continues after the last row (keyset),
 * so deep pages cost what the first does. An entity the caller's tenants never reported is not
 * found (404), whether it belongs to another tenant or to nobody.
 */
export async function findPacketHistory(
  db: Db,
  scope: TenantScope,
  entityId: string,
  query: HistoryQuery,
  retentionDays: number,
  path: string,
): Promise<z.infer<typeof packetHistorySchema>> {
  orNotFound(
    await scoped(db, scope)
      .selectFrom('packet_latest')
      .select('entity_id')
      .where('entity_id', '=', entityId)
      .executeTakeFirst(),
    'The entity',
  );
  const now = Date.now();
  const from = query.from ?? new Date(now - retentionDays * 86_400_000).toISOString();
  const to = query.to ?? new Date(now + PACKET_LIMITS.futureToleranceMs).toISOString();
  let select = scoped(db, scope)
    .selectFrom('packet')
    .select([
      'entity_id',
      'tenant_id',
      'timestamp',
      'received',
      'message',
      sql<string>`to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('cursor_time'),
      sql<string>`encode(content_hash, 'hex')`.as('cursor_hash'),
    ])
    .where('entity_id', '=', entityId)
    .where('timestamp', '>=', sql<Date>`${from}::timestamptz`)
    .where('timestamp', '<=', sql<Date>`${to}::timestamptz`);
  if (query.$skiptoken) {
    const cursor = decodeSkiptoken(query.$skiptoken);
    select = select.where(
      sql<boolean>`(timestamp, content_hash) < (${cursor.timestamp}::timestamptz, decode(${cursor.hash}, 'hex'))`,
    );
  }
  const rows = await select
    .orderBy('timestamp', 'desc')
    .orderBy('content_hash', 'desc')
    .limit(query.$top + 1)
    .execute();
  const page = rows.slice(0, query.$top);
  const answer: z.infer<typeof packetHistorySchema> = {
    value: page.map((row) => ({
      entityId: row.entity_id,
      tenantId: row.tenant_id,
      timestamp: row.timestamp,
      received: row.received,
      message: row.message as Record<string, unknown>,
    })),
  };
  const last = page.at(-1);
  if (rows.length > query.$top && last) {
    const params = new URLSearchParams({
      $top: String(query.$top),
      $skiptoken: Buffer.from(JSON.stringify([last.cursor_time, last.cursor_hash])).toString('base64url'),
    });
    if (query.from) params.set('from', query.from);
    if (query.to) params.set('to', query.to);
    answer['@odata.nextLink'] = `${path}?${params.toString()}`;
  }
  return answer;
}

/** The entity's tenant as the caller sees it: 404 for an entity the caller's tenants never reported. */
async function reportedEntity(
  db: Db,
  scope: TenantScope,
  entityId: string,
): Promise<{ entityId: string; tenantId: string }> {
  const row = orNotFound(
    await scoped(db, scope)
      .selectFrom('packet_latest')
      .select('tenant_id')
      .where('entity_id', '=', entityId)
      .executeTakeFirst(),
    'The entity',
  );
  return { entityId, tenantId: row.tenant_id };
}

/** GET v1/packets/{entityId}/series: the Packet drawer's History chart. */
export async function findEntitySeries(
  db: Db,
  scope: TenantScope,
  entityId: string,
  query: { from: string; to?: string | undefined; buckets: number },
  retentionDays: number,
) {
  return packetSeries(db, scope, await reportedEntity(db, scope, entityId), query, retentionDays);
}

/** GET v1/packets/{entityId}/logs: the Packet drawer's Logs tab. */
export async function findEntityLogs(db: Db, scope: TenantScope, entityId: string) {
  return entityLogs(db, scope, await reportedEntity(db, scope, entityId));
}
