import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/database.js';
import { enqueueMany } from '../jobs/queue.js';
import { holdsFor, labelOf, reasonFor, type CompiledRule, type PacketSubject } from './compile.js';
import { recordMatches, type MatchCandidate, type PacketKey } from './matches.js';
import { rulesFor } from './rule-cache.js';
import { silenced } from './silences.js';
import { windowTask } from './window.js';
import { metrics } from '../../observability/metrics.js';

/** A packet as ingestion hands it over: checked, its message parsed. */
export interface IncomingPacket {
  entityId: string;
  timestamp: string;
  at: number;
  /** The message as parsed from the request: an object (the packet contract refuses anything else). */
  parsed: Readonly<Record<string, unknown>>;
}

/** What the rules concluded about a batch before it was written. */
export interface BatchEvaluation {
  tenantId: string;
  /** Ingestion rules' matches, by the packet that made each (only new packets count). */
  candidates: { packetKey: PacketKey; candidate: MatchCandidate }[];
  /** Entities whose packets the worker must look at for History, Aggregation and Correlation rules. */
  windowEntities: Map<string, string>;
  windowRules: readonly CompiledRule[];
}

const packetKey = (entityId: string, at: number) => `${entityId}|${at}`;

/** Whether a Maintenance rule's window is open over the subject now. */
export function inMaintenance(maintenance: readonly CompiledRule[], subject: PacketSubject, at: Date): boolean {
  return maintenance.some((rule) => rule.inTime(at) && holdsFor(rule, subject));
}

/**
 * Evaluates a batch against the tenant's rules in memory, before it is written. Ingestion rules
 * (without occurrence patterns) are decided here per packet; the window rules (History,
 * Aggregation, Correlation) only note which entities reported, for the worker. Undefined when
 * the rules have nothing to record, so that the batch keeps its one-statement write.
 */
export async function evaluateBatch(
  db: Db,
  tenantId: string,
  batch: readonly IncomingPacket[],
  deviceOf: (entityId: string) => string | null,
): Promise<BatchEvaluation | undefined> {
  const rules = await rulesFor(db, tenantId);
  if (rules.packet.length === 0 && rules.window.length === 0) return undefined;
  const candidates: BatchEvaluation['candidates'] = [];
  const windowEntities = new Map<string, string>();
  for (let index = 0; index < batch.length; index++) {
    const packet = batch[index]!;
    const timestamp = new Date(packet.at);
    const message = packet.parsed;
    // The device is looked up only when a rule reads it: it is the one per-packet lookup the rest does without.
    const subject: PacketSubject = {
      kind: 'packet',
      tenantId,
      entityId: packet.entityId,
      deviceId: rules.readsDevice ? deviceOf(packet.entityId) : null,
      timestamp,
      message,
    };
    const matched = rules.packetMatches(subject);
    if (matched.length > 0) {
      // What the packet's matches share, worked out once for them all.
      const label = labelOf(subject);
      const maintained = inMaintenance(rules.maintenance, subject, timestamp);
      const key = { position: index + 1, entityId: packet.entityId, timestamp: packet.timestamp };
      const matchedPacket = { entityId: packet.entityId, timestamp: packet.timestamp, message };
      for (const rule of matched) {
        candidates.push({
          packetKey: key,
          candidate: {
            rule,
            tenantId,
            subjectId: packet.entityId,
            label,
            count: 1,
            first: timestamp,
            last: timestamp,
            packet: matchedPacket,
            reason: reasonFor(rule, subject),
            inMaintenance:
              maintained ||
              (rules.silences.length > 0 &&
                silenced(rules.silences, rule.ruleId, { subjectId: packet.entityId, label }, timestamp)),
          },
        });
      }
    }
    if (rules.window.length > 0 && rules.window.some((rule) => rule.inTime(timestamp)))
      windowEntities.set(packetKey(packet.entityId, packet.at), packet.entityId);
  }
  metrics.ruleEvaluations.inc({ kind: 'packet' }, rules.packet.length * batch.length);
  metrics.ruleMatches.inc({ kind: 'packet' }, candidates.length);
  if (candidates.length === 0 && windowEntities.size === 0) return undefined;
  return { tenantId, candidates, windowEntities, windowRules: rules.window };
}

/**
 * Records what a batch's evaluation concluded, in the batch's transaction, for its packets that
 * were new: Ingestion rules' matches, and one worker job for the window rules over the entities
 * that reported.
 */
export async function recordEvaluation(
  trx: Tx,
  evaluation: BatchEvaluation,
  stored: readonly { entity_id: string; timestamp: Date }[],
): Promise<void> {
  const storedKeys = new Set(stored.map((row) => packetKey(row.entity_id, row.timestamp.getTime())));
  await recordMatches(
    trx,
    evaluation.candidates
      .filter((entry) => storedKeys.has(packetKey(entry.packetKey.entityId, Date.parse(entry.packetKey.timestamp))))
      .map((entry) => entry.candidate),
  );
  const entities = [
    ...new Set([...evaluation.windowEntities].filter(([key]) => storedKeys.has(key)).map(([, entityId]) => entityId)),
  ];
  if (entities.length > 0 && evaluation.windowRules.length > 0) {
    await enqueueMany(trx, windowTask, [
      {
        key: randomUUID(),
        payload: {
          tenantId: evaluation.tenantId,
          ruleIds: evaluation.windowRules.map((rule) => rule.ruleId),
          entityIds: entities,
          at: new Date().toISOString(),
        },
      },
    ]);
  }
}
