import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { PACKET_LIMITS, PACKET_MESSAGES, packetInputSchema, type IngestResult, type PacketInput } from '@cfs/contracts/packets';
import type { MachineCaller } from '../../auth/machine-callers.js';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { HttpError } from '../../http/errors.js';
import { ensurePacketPartitions, utcDay } from './partitions.js';

/** One packet that passed validation, ready to store. */
interface Accepted {
  entityId: string;
  /** As sent: the database parses it, so sub-millisecond digits survive and a re-send matches exactly. */
  timestamp: string;
  at: number;
  message: string;
  hash: string;
}

/** The packets of one batch that were new (a re-sent packet is not): what the rules engine reads. */
export interface StoredBatch {
  tenantId: string;
  packets: readonly { entityId: string; timestamp: Date }[];
}

export interface IngestOptions {
  retentionDays: number;
  now?: Date;
}

const DAY_MS = 86_400_000;

/**
 * JSON with object keys in sorted order, so that the content hash of a message does not depend on
 * the order an agent happened to write its keys in (jsonb forgets that order too).
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function refuse(status: number, problems: { item: number; field: string; problem: string }[]): never {
  const errors: Record<string, string[]> = {};
  for (const { item, field, problem } of problems) (errors[`${item}.${field}`] ??= []).push(PACKET_MESSAGES.itemProblem(item, problem));
  const first = problems[0]!;
  throw new HttpError(status, PACKET_MESSAGES.itemProblem(first.item, first.problem), errors);
}

/** Parses and checks a request body: one packet or an array of them. Items are numbered from 1 in messages. */
export function validateBatch(body: unknown, { retentionDays, now = new Date() }: IngestOptions): Accepted[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0 || body === undefined || body === null) throw new HttpError(400, PACKET_MESSAGES.batchEmpty, { request: [PACKET_MESSAGES.batchEmpty] });
  if (items.length > PACKET_LIMITS.maxBatch) {
    const text = PACKET_MESSAGES.batchTooLarge(PACKET_LIMITS.maxBatch);
    throw new HttpError(413, text, { request: [text] });
  }
  const oldest = now.getTime() - retentionDays * DAY_MS;
  const newest = now.getTime() + PACKET_LIMITS.futureToleranceMs;
  const problems: { item: number; field: string; problem: string }[] = [];
  const accepted: Accepted[] = [];
  items.forEach((raw: unknown, index) => {
    const item = index + 1;
    const parsed = packetInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.') || 'packet';
      const named = issue.path.length === 0 || issue.message.startsWith(String(issue.path[0]));
      problems.push({ item, field, problem: named ? issue.message : `${field} ${issue.message}` });
      return;
    }
    const packet: PacketInput = parsed.data;
    const at = Date.parse(packet.timestamp);
    if (at < oldest) problems.push({ item, field: 'timestamp', problem: PACKET_MESSAGES.tooOld(retentionDays) });
    else if (at > newest) problems.push({ item, field: 'timestamp', problem: PACKET_MESSAGES.tooNew });
    const message = canonicalJson(packet.message);
    if (message.length > PACKET_LIMITS.maxMessageChars) problems.push({ item, field: 'message', problem: `message is longer than ${PACKET_LIMITS.maxMessageChars} characters` });
    const hash = createHash('sha256').update(message).digest('hex');
    accepted.push({ entityId: packet.entityId, timestamp: packet.timestamp, at, message, hash });
  });
  if (problems.length > 0) refuse(400, problems);
  return accepted;
}

/**
 * Which entities of the batch the caller may report (spec 002 §3 Packet). A device credential
 * speaks for its own device and that device's operations. A tenant token speaks for its tenant's
 * devices and device operations, and for any other entity no other tenant has reported: the first
 * tenant to report an entity owns it (packet_latest holds its tenant). Ownership is decided across
 * all tenants — an entity of another tenant must be seen to be refused — so these reads are
 * unscoped; nothing read here is answered to the caller.
 *
 * Returns the entity ids nobody owned yet, which the caller claims by storing them.
 */
async function checkOwnership(trx: Tx, caller: MachineCaller, batch: readonly Accepted[]): Promise<string[]> {
  const ids = [...new Set(batch.map((packet) => packet.entityId))];
  const all = scoped(trx, ALL_TENANTS);
  const [devices, operations, latest] = await Promise.all([
    all.selectFrom('device').select(['device_id as id', 'tenant_id', 'device_id']).where('device_id', 'in', ids).execute(),
    all.selectFrom('device_operation').select(['device_operation_id as id', 'tenant_id', 'device_id']).where('device_operation_id', 'in', ids).execute(),
    caller.kind === 'token' ? all.selectFrom('packet_latest').select(['entity_id as id', 'tenant_id']).where('entity_id', 'in', ids).execute() : Promise.resolve([]),
  ]);
  const fleet = new Map<string, { tenant_id: string; device_id: string }>();
  for (const row of [...devices, ...operations]) fleet.set(row.id, row);
  const reported = new Map(latest.map((row) => [row.id, row.tenant_id]));
  const allowed = (id: string): boolean => {
    const known = fleet.get(id);
    if (caller.kind === 'device') return known !== undefined && known.tenant_id === caller.tenantId && known.device_id === caller.deviceId;
    if (known) return known.tenant_id === caller.tenantId;
    const owner = reported.get(id);
    return owner === undefined || owner === caller.tenantId;
  };
  const problems = batch.flatMap((packet, index) => (allowed(packet.entityId) ? [] : [{ item: index + 1, field: 'entityId', problem: PACKET_MESSAGES.entityNotAllowed }]));
  if (problems.length > 0) refuse(403, problems);
  return ids.filter((id) => !fleet.has(id) && !reported.has(id));
}

/**
 * The rules engine's place: each stored batch (only the packets that were new) is handed here,
 * inside the transaction that stores it, so that what the rules conclude commits with the packets
 * or not at all. Until the rules engine exists there is nothing to evaluate.
 */
async function evaluateStoredBatch(_trx: Tx, _batch: StoredBatch): Promise<void> {}

/**
 * Stores one batch of packets for a machine caller: validates every item, checks the caller may
 * report every entity, then in one transaction appends the history (one multi-row insert; a packet
 * re-sent with the same entity, timestamp and content is kept once) and moves each entity's latest
 * packet once (the newest timestamp wins; an older packet never replaces a newer latest). The
 * answer comes after the commit, so an acknowledged packet is durable.
 *
 * The latest-row upsert is the costly part of ingestion (DESIGN: stack notes), so it is one
 * statement per batch with one row per entity, not one per packet.
 */
export async function ingestPackets(db: Db, caller: MachineCaller, body: unknown, options: IngestOptions): Promise<IngestResult> {
  const batch = validateBatch(body, options);
  try {
    return await storeBatch(db, caller, batch);
  } catch (error) {
    // A day without a partition yet (the maintenance task has not run since the range moved):
    // make the batch's days and store again; the failed transaction wrote nothing.
    if (!isMissingPartition(error)) throw error;
    const days = batch.map((packet) => packet.at);
    await ensurePacketPartitions(db, utcDay(new Date(Math.min(...days))), utcDay(new Date(Math.max(...days))));
    return storeBatch(db, caller, batch);
  }
}

function isMissingPartition(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === '23514' && /no partition of relation/.test(error.message);
}

async function storeBatch(db: Db, caller: MachineCaller, batch: readonly Accepted[]): Promise<IngestResult> {
  const tenantId = caller.tenantId;
  const newest = new Map<string, Accepted>();
  for (const packet of batch) {
    const known = newest.get(packet.entityId);
    if (!known || packet.at >= known.at) newest.set(packet.entityId, packet);
  }
  const latest = [...newest.values()];
  return db.transaction().execute(async (trx) => {
    const claimed = await checkOwnership(trx, caller, batch);
    // Raw statements: the query builder cannot express an insert from unnest(); every row carries
    // the caller's own tenant, checked above for every entity of the batch.
    const stored = await sql<{ entity_id: string; timestamp: Date }>`
      INSERT INTO packet (entity_id, tenant_id, timestamp, content_hash, message)
      SELECT p.entity_id, ${tenantId}::uuid, p.ts, decode(p.hash, 'hex'), p.message::jsonb
      FROM unnest(${batch.map((p) => p.entityId)}::uuid[], ${batch.map((p) => p.timestamp)}::timestamptz[], ${batch.map((p) => p.hash)}::text[], ${batch.map((p) => p.message)}::text[])
        AS p(entity_id, ts, hash, message)
      ON CONFLICT DO NOTHING
      RETURNING entity_id, timestamp`.execute(trx);
    await sql`
      INSERT INTO packet_latest AS l (entity_id, tenant_id, timestamp, message)
      SELECT p.entity_id, ${tenantId}::uuid, p.ts, p.message::jsonb
      FROM unnest(${latest.map((p) => p.entityId)}::uuid[], ${latest.map((p) => p.timestamp)}::timestamptz[], ${latest.map((p) => p.message)}::text[]) AS p(entity_id, ts, message)
      ON CONFLICT (entity_id) DO UPDATE SET timestamp = excluded.timestamp, message = excluded.message, received = now()
      WHERE l.tenant_id = excluded.tenant_id AND l.timestamp < excluded.timestamp`.execute(trx);
    if (claimed.length > 0) {
      // Two tenants reporting one new entity at once: the second upsert waited for the first
      // commit and left its row alone; the second tenant's batch is refused whole.
      const taken = await scoped(trx, ALL_TENANTS).selectFrom('packet_latest').select('entity_id').where('entity_id', 'in', claimed).where('tenant_id', '<>', tenantId).execute();
      if (taken.length > 0) {
        const lost = new Set(taken.map((row) => row.entity_id));
        refuse(403, batch.flatMap((packet, index) => (lost.has(packet.entityId) ? [{ item: index + 1, field: 'entityId', problem: PACKET_MESSAGES.entityNotAllowed }] : [])));
      }
    }
    await evaluateStoredBatch(trx, { tenantId, packets: stored.rows.map((row) => ({ entityId: row.entity_id, timestamp: row.timestamp })) });
    return { accepted: batch.length, stored: stored.rows.length };
  });
}
