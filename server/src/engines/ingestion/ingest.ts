import { hash as digest } from 'node:crypto';
import { sql } from 'kysely';
import {
  PACKET_LIMITS,
  PACKET_MESSAGES,
  packetInputSchema,
  type IngestResult,
  type PacketInput,
} from '@cfs/contracts/packets';
import type { MachineCaller } from '../../auth/machine-callers.js';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import { retryOnConflict, type Db, type Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { HttpError } from '../../http/errors.js';
import { strictInput } from '../../http/strict-bodies.js';
import { evaluateBatch, recordEvaluation, type BatchEvaluation } from '../rules/evaluate-batch.js';
import { isMatchRanOut, matchesInStatement } from '../rules/matches.js';
import { prepared } from '../../db/prepared.js';
import { claimEntities } from './entity-owners.js';
import { ensurePacketPartitions, utcDay } from './partitions.js';
import { metrics } from '../../observability/metrics.js';
import { keepBounded } from '../../bounded-map.js';

/** One packet that passed validation, ready to store. */
interface Accepted {
  entityId: string;
  /** As sent: the database parses it, so sub-millisecond digits survive and a re-send matches exactly. */
  timestamp: string;
  at: number;
  message: string;
  /** The message as parsed from the request (an object: the contract refuses anything else), which the rules read. */
  parsed: PacketInput['message'];
  hash: string;
}

export interface IngestOptions {
  retentionDays: number;
  now?: Date;
}

const DAY_MS = 86_400_000;
// The one-shot digest: a third of createHash's cost per packet.
const sha256Hex = (text: string): string => digest('sha256', text, 'hex');
const NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;

/**
 * JSON with every object's keys in one order whatever order an agent wrote them in, so that the
 * content hash of a message does not depend on it (jsonb forgets that order too). JSON.stringify
 * does the writing; an object whose keys are out of order is copied with them sorted (JavaScript
 * then puts integer-like keys first, in numeric order: still one order for one set of keys).
 * Every packet passes here, so objects already in order, the usual case, are not copied.
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const keys = Object.keys(item);
      let ordered = true;
      for (let i = 1; i < keys.length && ordered; i++) ordered = keys[i - 1]! < keys[i]!;
      if (ordered) return item;
      const sorted: Record<string, unknown> = {};
      for (const key of keys.sort()) sorted[key] = (item as Record<string, unknown>)[key];
      return sorted;
    }) ?? 'null'
  );
}

function refuse(status: number, problems: { item: number; field: string; problem: string }[]): never {
  const errors: Record<string, string[]> = {};
  for (const { item, field, problem } of problems)
    (errors[`${item}.${field}`] ??= []).push(PACKET_MESSAGES.itemProblem(item, problem));
  const first = problems[0]!;
  throw new HttpError(status, PACKET_MESSAGES.itemProblem(first.item, first.problem), errors);
}

/**
 * A packet as a request may send it: a member the packet or its message does not declare is
 * refused, as in any request body.
 */
const strictPacket = strictInput(packetInputSchema);

/** Parses and checks a request body: one packet or an array of them. Items are numbered from 1 in messages. */
export function validateBatch(body: unknown, { retentionDays, now = new Date() }: IngestOptions): Accepted[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0 || body === undefined || body === null)
    throw new HttpError(400, PACKET_MESSAGES.batchEmpty, { request: [PACKET_MESSAGES.batchEmpty] });
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
    const parsed = strictPacket.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const field = [...issue.path, key].join('.');
          problems.push({ item, field, problem: `unknown field "${field}"` });
        }
        return;
      }
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
    if (message.length > PACKET_LIMITS.maxMessageChars)
      problems.push({
        item,
        field: 'message',
        problem: `message is longer than ${PACKET_LIMITS.maxMessageChars} characters`,
      });
    // PostgreSQL's jsonb cannot hold the character U+0000 (written \u0000 in JSON text, after an
    // even run of backslashes); refused here, it is the item's problem, not a failed statement.
    if (NUL_ESCAPE.test(message))
      problems.push({ item, field: 'message', problem: 'message may not contain the character U+0000' });
    const hash = sha256Hex(message);
    accepted.push({
      entityId: packet.entityId,
      timestamp: packet.timestamp,
      at,
      message,
      parsed: packet.message,
      hash,
    });
  });
  if (problems.length > 0) refuse(400, problems);
  return accepted;
}

/**
 * Which entities of the batch the caller may report (spec 002 §3 Packet). A device credential
 * speaks for its own device and that device's operations. A tenant token speaks for the entities
 * its tenant owns (entity-owners.ts: the blocks, devices and device operations it created, the
 * entities it reported first) and for any entity nobody owns yet. Ownership is decided across all
 * tenants — an entity of another tenant must be seen to be refused — so these reads are unscoped;
 * nothing read here is answered to the caller.
 *
 * Returns the entity ids nobody owned yet, which the caller claims before storing them.
 */
async function checkOwnership(db: Db, caller: MachineCaller, batch: readonly Accepted[]): Promise<string[]> {
  const ids = [...new Set(batch.map((packet) => packet.entityId))];
  const known = ownersOf(db);
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) {
    const all = scoped(db, ALL_TENANTS);
    // One round trip: the entities that are devices, device operations, or owned. The ids go as one
    // array parameter, not a hundred placeholders per table.
    const among = (column: string) => sql<boolean>`${sql.ref(column)} = ANY(${missing}::uuid[])`;
    const rows = await all
      .selectFrom('device')
      .select([sql.lit('fleet').as('kind'), 'device_id as id', 'tenant_id', 'device_id'])
      .where(among('device_id'))
      .unionAll(
        all
          .selectFrom('device_operation')
          .select([sql.lit('fleet').as('kind'), 'device_operation_id as id', 'tenant_id', 'device_id'])
          .where(among('device_operation_id')),
      )
      .unionAll(
        all
          .selectFrom('entity_owner')
          .select([
            sql.lit('owned').as('kind'),
            'entity_id as id',
            'tenant_id',
            sql<string>`NULL::uuid`.as('device_id'),
          ])
          .where(among('entity_id')),
      )
      .execute();
    // A device or device operation says more than an owner row (whose device, not only whose tenant).
    for (const row of rows)
      if (row.kind === 'owned') keepBounded(known, row.id, { tenantId: row.tenant_id, deviceId: null }, OWNERS_KEPT);
    for (const row of rows)
      if (row.kind === 'fleet')
        keepBounded(known, row.id, { tenantId: row.tenant_id, deviceId: row.device_id }, OWNERS_KEPT);
  }
  const allowed = (id: string): boolean => {
    const owner = known.get(id);
    if (caller.kind === 'device')
      return owner !== undefined && owner.tenantId === caller.tenantId && owner.deviceId === caller.deviceId;
    return owner === undefined || owner.tenantId === caller.tenantId;
  };
  const problems = batch.flatMap((packet, index) =>
    allowed(packet.entityId) ? [] : [{ item: index + 1, field: 'entityId', problem: PACKET_MESSAGES.entityNotAllowed }],
  );
  if (problems.length > 0) refuse(403, problems);
  return ids.filter((id) => !known.has(id));
}

/**
 * Who owns an entity, as the database said: its tenant, and for a device or device operation
 * the device. These facts never change — a device keeps its tenant and an operation its device,
 * an entity its owner (entity-owners.ts), ids are never reused — so every instance
 * may keep them: agents report the same entities again and again, and their batches then skip
 * the ownership query. An entity nobody owns is not kept (someone may claim it next).
 */
interface Owner {
  tenantId: string;
  /** The device, for a device or a device operation; null for any other entity (a block, or one known only by its packets). */
  deviceId: string | null;
}

/** Entities kept per database; the first learned are forgotten first beyond it. */
const OWNERS_KEPT = 200_000;
const owners = new WeakMap<Db, Map<string, Owner>>();

function ownersOf(db: Db): Map<string, Owner> {
  let known = owners.get(db);
  if (!known) owners.set(db, (known = new Map()));
  return known;
}

/**
 * Stores one batch of packets for a machine caller: validates every item, checks the caller may
 * report every entity, then atomically appends the history (one multi-row insert; a packet
 * re-sent with the same entity, timestamp and content is kept once) and moves each entity's latest
 * packet once (the newest timestamp wins; an older packet never replaces a newer latest). The
 * answer comes after the commit, so an acknowledged packet is durable.
 *
 * The latest-row upsert is the costly part of ingestion (DESIGN: stack notes), so it is one
 * statement per batch with one row per entity, not one per packet.
 */
export async function ingestPackets(
  db: Db,
  caller: MachineCaller,
  body: unknown,
  options: IngestOptions,
): Promise<IngestResult> {
  const batch = validateBatch(body, options);
  // Two instances storing packets of one entity with matches to record can deadlock (the latest row
  // and the match are locked in either order within one statement): the loser wrote nothing and
  // stores again.
  const store = () => retryOnConflict(() => storeBatch(db, caller, batch)).then(counted);
  try {
    return await store();
  } catch (error) {
    // A day without a partition yet (the maintenance task has not run since the range moved):
    // make the batch's days and store again; the failed transaction wrote nothing.
    if (!isMissingPartition(error)) throw error;
    const days = batch.map((packet) => packet.at);
    await ensurePacketPartitions(db, utcDay(new Date(Math.min(...days))), utcDay(new Date(Math.max(...days))));
    return store();
  }
}

function counted(result: IngestResult): IngestResult {
  metrics.ingestBatchSize.observe(result.accepted);
  metrics.ingestedPackets.inc(result.stored);
  return result;
}

function isMissingPartition(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === '23514' &&
    /no partition of relation/.test(error.message)
  );
}

/**
 * History and latest in one statement: the batch goes to the database as one JSON parameter, the
 * history takes every packet (a re-sent one is skipped by its key) and each entity's newest packet
 * of the batch (flagged `l`) moves its latest row when it is newer. One statement is atomic on its
 * own, so a batch is stored whole or not at all even outside a transaction.
 */
function writeBatch(executor: Db | Tx, tenantId: string, batch: readonly Accepted[], newest: ReadonlySet<Accepted>) {
  return sql<{
    entity_id: string;
    timestamp: Date;
  }>`${batchHead(batchRows([{ tenantId, batch }], newest))} ${historyInsert}`.execute(executor);
}

/** Each entity's newest packet of a batch (the later one of equal times): the one that may move its latest row. */
function newestOf(batch: readonly Accepted[]): Set<Accepted> {
  const newest = new Map<string, Accepted>();
  for (const packet of batch) {
    const known = newest.get(packet.entityId);
    if (!known || packet.at >= known.at) newest.set(packet.entityId, packet);
  }
  return new Set(newest.values());
}

/** Batches of one or more callers as the record set's JSON text: each packet with its tenant and batch number (`r`). */
function batchRows(
  batches: readonly { tenantId: string; batch: readonly Accepted[] }[],
  newest: ReadonlySet<Accepted>,
) {
  // Each message embedded as the JSON it already is (canonical, checked): not a string inside the
  // text, which the database would read twice (as text, then as jsonb).
  return `[${batches
    .flatMap(({ tenantId, batch }, r) =>
      batch.map(
        (packet) =>
          `{"e":${JSON.stringify(packet.entityId)},"c":"${tenantId}","r":${r},"t":${JSON.stringify(packet.timestamp)},"h":"${packet.hash}","m":${packet.message},"l":${newest.has(packet)}}`,
      ),
    )
    .join(',')}]`;
}

/** The batch as a record set (`n` each packet's position, from 1), and each entity's latest packet moved when the batch's is newer. */
function batchHead(rows: string) {
  // Raw SQL: the query builder cannot insert from a record set; every row carries its caller's
  // own tenant, and the caller's right to every entity was checked before this runs.
  return sql`
    WITH input AS (
      SELECT p.e, p.c, p.r, p.t, p.h, p.m, p.l, p.n
      FROM ROWS FROM (jsonb_to_recordset(${rows}::jsonb) AS (e uuid, c uuid, r integer, t timestamptz, h text, m jsonb, l boolean)) WITH ORDINALITY AS p(e, c, r, t, h, m, l, n)
    ), latest AS (
      INSERT INTO packet_latest AS l (entity_id, tenant_id, timestamp, message)
      SELECT e, c, t, m FROM input WHERE l
      ON CONFLICT (entity_id) DO UPDATE SET timestamp = excluded.timestamp, message = excluded.message, received = now()
      WHERE l.tenant_id = excluded.tenant_id AND l.timestamp < excluded.timestamp
      RETURNING 1
    )`;
}

/** The history: every packet of the batch, a re-sent one skipped by its key; the new ones returned. */
const historyInsert = sql`
    INSERT INTO packet (entity_id, tenant_id, timestamp, content_hash, message)
    SELECT e, c, t, decode(h, 'hex'), m FROM input
    ON CONFLICT DO NOTHING
    RETURNING entity_id, timestamp, content_hash`;

interface Waiting {
  tenantId: string;
  batch: readonly Accepted[];
  /** The Ingestion rules' matches of the batch's packets (positions within the batch). */
  candidates: BatchEvaluation['candidates'];
  resolve: (stored: number) => void;
  reject: (error: unknown) => void;
}

/**
 * The usual batches of callers posting at once, in one statement and one commit: each batch
 * waiting while statements are in flight is written by the next one, and every request is answered
 * after that commit, with the packets of its own batch that were new. Writes nothing more than
 * each batch alone would (a packet sent in two batches at once is stored once, and counted new
 * in both); a statement that fails writes nothing, and its batches are then written one by one, so
 * that each request meets its own error.
 */
class GroupWriter {
  private readonly waiting: Waiting[] = [];
  private running = 0;

  constructor(
    private readonly db: Db,
    /** Statements in flight at once: one being committed while the next is built and sent. */
    private readonly parallel = 2,
    /** Packets one statement takes at most, so that none grows past what a batch may hold many times over. */
    private readonly maxPackets = 5 * PACKET_LIMITS.maxBatch,
  ) {}

  /**
   * Stores the batch, and the matches of `candidates`, with those waiting beside it; resolves with
   * how many of its packets were new. Rejects with MATCH_RAN_OUT, having kept nothing of it, when a
   * matched subject's match ran out unclosed.
   */
  write(tenantId: string, batch: readonly Accepted[], candidates: Waiting['candidates'] = []): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ tenantId, batch, candidates, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.parallel && this.waiting.length > 0) {
      let packets = this.waiting[0]!.batch.length;
      let take = 1;
      while (take < this.waiting.length && packets + this.waiting[take]!.batch.length <= this.maxPackets)
        packets += this.waiting[take++]!.batch.length;
      const group = this.waiting.splice(0, take);
      this.running += 1;
      void this.flush(group).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }

  /**
   * One statement for the group's batches: each batch's new packets counted by its number, and the
   * matches of them all recorded as for one batch (engines/rules/matches.ts), each candidate's packet
   * named by its position in the whole group. The check runs in a branch of its own, which the
   * statement always reads: it stops the statement when a subject's match ran out unclosed.
   */
  private async writeGroup(group: readonly Waiting[]): Promise<Map<number, number>> {
    const newest = newestOf(group.flatMap((item) => item.batch));
    let offset = 0;
    const candidates = group.flatMap((item) => {
      const before = offset;
      offset += item.batch.length;
      return item.candidates.map(({ packetKey, candidate }) => ({
        packetKey: { ...packetKey, position: packetKey.position + before },
        candidate,
      }));
    });
    const counts = sql`SELECT i.r, count(*)::int AS stored FROM input i
      JOIN stored s ON s.entity_id = i.e AND s.timestamp = i.t AND s.content_hash = decode(i.h, 'hex') GROUP BY i.r`;
    const matches = candidates.length > 0 ? matchesInStatement(candidates) : undefined;
    const { rows } = await prepared(
      matches
        ? sql<{
            r: number | null;
            stored: number;
          }>`${batchHead(batchRows(group, newest))}, stored AS (${historyInsert}), ${matches.ctes}
          SELECT NULL::int AS r, 0 AS stored WHERE ${matches.check} UNION ALL ${counts}`
        : sql<{
            r: number | null;
            stored: number;
          }>`${batchHead(batchRows(group, newest))}, stored AS (${historyInsert}) ${counts}`,
    ).execute(this.db);
    metrics.ingestCommitBatches.observe(group.length);
    return new Map(rows.flatMap((row) => (row.r === null ? [] : [[row.r, row.stored] as const])));
  }

  private async flush(group: readonly Waiting[]): Promise<void> {
    try {
      const stored = await this.writeGroup(group);
      group.forEach((item, r) => item.resolve(stored.get(r) ?? 0));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      await Promise.all(
        group.map((item) => this.writeGroup([item]).then((stored) => item.resolve(stored.get(0) ?? 0), item.reject)),
      );
    }
  }
}

const groupWriters = new WeakMap<Db, GroupWriter>();

function groupWriterOf(db: Db): GroupWriter {
  let writer = groupWriters.get(db);
  if (!writer) groupWriters.set(db, (writer = new GroupWriter(db)));
  return writer;
}

async function storeBatch(db: Db, caller: MachineCaller, batch: readonly Accepted[]): Promise<IngestResult> {
  const tenantId = caller.tenantId;
  const newest = newestOf(batch);
  // Ownership first: it also tells which entities are devices (or their operations), which rules read.
  const claimed = await checkOwnership(db, caller, batch);
  const known = ownersOf(db);
  // The rules: compiled once per change and evaluated here, in memory, on the whole batch before
  // it is written; what they conclude is recorded with the batch (in its statement, or its
  // transaction), for its new packets only (a re-sent packet matches nothing twice).
  const evaluation = await evaluateBatch(db, tenantId, batch, (entityId) => known.get(entityId)?.deviceId ?? null);
  const done = (stored: readonly unknown[]) => ({ accepted: batch.length, stored: stored.length });
  // The usual batch: entities the caller already owns, and nothing the rules must record. Ownership
  // never moves (a device keeps its tenant, an entity its owner), so the check stays true and one atomic statement stores the batch, without a transaction's
  // extra round trips.
  if (claimed.length === 0 && !evaluation)
    return { accepted: batch.length, stored: await groupWriterOf(db).write(tenantId, batch) };
  // Ingestion rules' matches only: in the statement of the batches written together too.
  if (claimed.length === 0 && evaluation && evaluation.windowEntities.size === 0) {
    try {
      return {
        accepted: batch.length,
        stored: await groupWriterOf(db).write(tenantId, batch, evaluation.candidates),
      };
    } catch (error) {
      // A matched subject's match ran out unclosed: stored again below, closing it first.
      if (!isMatchRanOut(error)) throw error;
    }
  }
  return db.transaction().execute(async (trx) => {
    if (claimed.length > 0) {
      // Claimed before anything is written: another tenant claiming one of these entities at once
      // (its packets, or a block it creates) is met on the owner's key, and when it won, this batch
      // is refused whole, having written nothing.
      const lost = new Set(await claimEntities(trx, tenantId, claimed));
      if (lost.size > 0)
        refuse(
          403,
          batch.flatMap((packet, index) =>
            lost.has(packet.entityId)
              ? [{ item: index + 1, field: 'entityId', problem: PACKET_MESSAGES.entityNotAllowed }]
              : [],
          ),
        );
    }
    const stored = await writeBatch(trx, tenantId, batch, newest);
    if (evaluation) await recordEvaluation(trx, evaluation, stored.rows);
    return done(stored.rows);
  });
}
