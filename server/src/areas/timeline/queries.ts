import { ACTION_RESULT_LABELS } from '@cfs/contracts/action-histories';
import { ACTION_RESULT_STATUSES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { MatchReason } from '@cfs/contracts/rules';
import { TIMELINE_LIMIT_PER_KIND, type Timeline, type TimelineEntry } from '@cfs/contracts/timeline';
import { HISTORY_TYPES, STATE_LABELS } from '@cfs/contracts/work-units';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { NotFoundError } from '../../http/errors.js';

const LIMIT = TIMELINE_LIMIT_PER_KIND;

interface MatchRow {
  rule_match_id: string;
  rule_id: string;
  subject_id: string;
  label: string | null;
  rule_packet: unknown;
  first_packet: unknown;
  reason: unknown;
  match_count: number;
  first_match: Date;
  created: Date;
  expires: Date;
  completion_processed: boolean;
  in_maintenance: boolean;
  rule_name: string | null;
}

interface RunRow {
  action_history_id: string | number;
  action_processed: Date;
  result_status_id: number;
  result_detail: string | null;
  rule_match_id: string | null;
  work_unit_id: number | null;
  reference_id: string | null;
  action_definition_id: string;
  protocol_action_id: string | null;
  request: unknown;
  response_status: number | null;
  duration_ms: number | null;
  action_name: string | null;
}

const outcomeOf = (status: number): TimelineEntry['outcome'] =>
  status === ACTION_RESULT_STATUSES.Success || status === ACTION_RESULT_STATUSES.EnqueueSuccess
    ? 'success'
    : status === ACTION_RESULT_STATUSES.Suppressed
      ? 'suppressed'
      : status === ACTION_RESULT_STATUSES.Unknown
        ? 'pending'
        : 'failure';

const isReason = (value: unknown): value is MatchReason =>
  typeof value === 'object' && value !== null && Array.isArray((value as { conditions?: unknown }).conditions);

/** A packet and the match it led to: two entries, the match caused by the packet. */
function matchEntries(match: MatchRow): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const reason = isReason(match.reason) ? match.reason : null;
  const matchKey = `ruleMatch:${match.rule_match_id}`;
  let packetKey: string | null = null;
  // What caused the match is the packet that opened it; a repeated match's newest packet came later.
  // Matches opened before the first packet was kept have only their newest.
  const opening = match.first_packet ?? match.rule_packet;
  if (opening !== null && opening !== undefined) {
    packetKey = `packet:${match.rule_match_id}`;
    const at =
      match.first_packet !== null ? match.first_match : reason?.timestamp ? new Date(reason.timestamp) : match.created;
    entries.push({
      key: packetKey,
      at,
      kind: 'packet',
      title: `Packet from ${match.label ?? match.subject_id}`,
      details: [JSON.stringify(opening).slice(0, 1000)],
      outcome: null,
      ref: { type: 'entity', id: match.subject_id },
      causedBy: null,
    });
  }
  entries.push({
    key: matchKey,
    at: match.created,
    kind: 'ruleMatch',
    title: `Rule "${match.rule_name ?? match.rule_id}" matched ${match.label ?? match.subject_id}${match.match_count > 1 ? ` (${match.match_count} times)` : ''}`,
    details: [
      ...(reason?.conditions ?? []).map(
        (held) =>
          `${held.leftOperand} ${held.operator}${held.rightOperand ? ` ${held.rightOperand}` : ''} held (seen: ${held.seen ?? 'empty'})`,
      ),
      ...(match.in_maintenance ? ['In maintenance: its actions were suppressed.'] : []),
      match.completion_processed
        ? `Expired ${match.expires.toISOString()}.`
        : `Open until ${match.expires.toISOString()}.`,
    ],
    outcome: null,
    ref: { type: 'ruleMatch', id: match.rule_match_id },
    causedBy: packetKey,
  });
  return entries;
}

function runEntry(run: RunRow, causedBy: string | null): TimelineEntry {
  const request =
    typeof run.request === 'object' && run.request !== null ? (run.request as { method?: string; url?: string }) : null;
  return {
    key: `actionRun:${run.action_history_id}`,
    at: run.action_processed,
    kind: run.protocol_action_id ? 'protocolAction' : 'actionRun',
    title: `${run.action_name ?? 'Action'}: ${ACTION_RESULT_LABELS[run.result_status_id] ?? run.result_status_id}`,
    details: [
      ...(request?.method && request.url ? [`${request.method} ${request.url}`] : []),
      ...(run.response_status !== null
        ? [`Response ${run.response_status}${run.duration_ms !== null ? ` in ${run.duration_ms} ms` : ''}`]
        : []),
      ...(run.result_detail ? [run.result_detail] : []),
    ],
    outcome: outcomeOf(run.result_status_id),
    ref: { type: 'actionHistory', id: String(run.action_history_id) },
    causedBy,
  };
}

const KIND_ORDER: Record<TimelineEntry['kind'], number> = {
  packet: 0,
  ruleMatch: 1,
  actionRun: 2,
  workUnit: 3,
  stateChange: 4,
  note: 5,
  protocolAction: 6,
  email: 7,
};

/**
 * Time order, an effect never before its cause: an entry is placed at its own time or its cause's,
 * whichever is later (a Create Work Unit run is recorded just after the unit it created), and
 * entries of one moment in the order of the chain.
 */
function byTime(entries: TimelineEntry[]): TimelineEntry[] {
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  const placed = new Map<string, number>();
  const placeOf = (entry: TimelineEntry, depth = 0): number => {
    const known = placed.get(entry.key);
    if (known !== undefined) return known;
    const cause = entry.causedBy && depth < 10 ? byKey.get(entry.causedBy) : undefined;
    const at = Math.max(entry.at.getTime(), cause ? placeOf(cause, depth + 1) : 0);
    placed.set(entry.key, at);
    return at;
  };
  return entries.sort(
    (a, b) => placeOf(a) - placeOf(b) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.key.localeCompare(b.key),
  );
}

function matchesQuery(db: Db, scope: TenantScope) {
  return scoped(db, scope)
    .selectFrom('rule_match')
    .leftJoin('rule', 'rule.rule_id', 'rule_match.rule_id')
    .select([
      'rule_match.rule_match_id',
      'rule_match.rule_id',
      'rule_match.subject_id',
      'rule_match.label',
      'rule_match.rule_packet',
      'rule_match.first_packet',
      'rule_match.reason',
      'rule_match.match_count',
      'rule_match.first_match',
      'rule_match.created',
      'rule_match.expires',
      'rule_match.completion_processed',
      'rule_match.in_maintenance',
      'rule.name as rule_name',
    ]);
}

function runsQuery(db: Db, scope: TenantScope) {
  return scoped(db, scope)
    .selectFrom('action_history')
    .leftJoin('action_definition', 'action_definition.action_definition_id', 'action_history.action_definition_id')
    .select([
      'action_history.action_history_id',
      'action_history.action_processed',
      'action_history.result_status_id',
      'action_history.result_detail',
      'action_history.rule_match_id',
      'action_history.work_unit_id',
      'action_history.reference_id',
      'action_history.action_definition_id',
      'action_history.protocol_action_id',
      'action_history.request',
      'action_history.response_status',
      'action_history.duration_ms',
      'action_definition.name as action_name',
    ]);
}

/** The emails and notes of some work units, as entries. */
async function unitRecords(
  db: Db,
  scope: TenantScope,
  workUnitIds: readonly number[],
  causes: ReadonlyMap<number, string>,
): Promise<{ entries: TimelineEntry[]; truncated: boolean }> {
  if (workUnitIds.length === 0) return { entries: [], truncated: false };
  const tx = scoped(db, scope);
  const [notes, emails] = await Promise.all([
    tx
      .selectFrom('work_unit_note')
      .select(['work_unit_note_id', 'work_unit_id', 'detail', 'history_type', 'created', 'created_by'])
      .where('work_unit_id', 'in', workUnitIds)
      .orderBy('created', 'desc')
      .limit(LIMIT + 1)
      .execute(),
    tx
      .selectFrom('email_outbox')
      .select(['email_id', 'work_unit_id', 'subject', 'to_addresses', 'transport', 'sent', 'error', 'created'])
      .where('work_unit_id', 'in', workUnitIds)
      .orderBy('created', 'desc')
      .limit(LIMIT + 1)
      .execute(),
  ]);
  const entries: TimelineEntry[] = [];
  for (const note of notes.slice(0, LIMIT)) {
    const kind =
      note.history_type === HISTORY_TYPES.WorkUnitStateChange
        ? 'stateChange'
        : note.history_type === HISTORY_TYPES.ProtocolActionActivity ||
            note.history_type === HISTORY_TYPES.ProtocolActionFailure
          ? 'protocolAction'
          : 'note';
    entries.push({
      key: `note:${note.work_unit_note_id}`,
      at: note.created,
      kind,
      // A plain note (no history type) is someone's words; the system's records read as their text.
      title: note.history_type === null ? `Note by ${note.created_by ?? 'someone'}` : note.detail.slice(0, 200),
      details: note.history_type === null ? [note.detail] : [],
      outcome: note.history_type === HISTORY_TYPES.ProtocolActionFailure ? 'failure' : null,
      ref: { type: 'note', id: String(note.work_unit_note_id) },
      causedBy: causes.get(note.work_unit_id) ?? null,
    });
  }
  for (const email of emails.slice(0, LIMIT)) {
    entries.push({
      key: `email:${email.email_id}`,
      at: email.sent ?? email.created,
      kind: 'email',
      title: `Email "${email.subject}" to ${email.to_addresses}`,
      details: [
        email.error
          ? `Not delivered: ${email.error}`
          : email.transport === 'smtp'
            ? email.sent
              ? 'Delivered over SMTP.'
              : 'Waiting for delivery.'
            : 'Kept in the outbox.',
      ],
      outcome: email.error ? 'failure' : email.transport === 'smtp' && !email.sent ? 'pending' : 'success',
      ref: { type: 'email', id: String(email.email_id) },
      causedBy: email.work_unit_id !== null ? (causes.get(email.work_unit_id) ?? null) : null,
    });
  }
  return { entries, truncated: notes.length > LIMIT || emails.length > LIMIT };
}

/**
 * A work unit's timeline: the rule match that created it (and its packet and the match's other
 * action runs), the unit's creation, its protocol action runs, notes and state changes, and its
 * emails. 404 when the caller cannot see the unit.
 */
export async function workUnitTimeline(db: Db, scope: TenantScope, workUnitId: number): Promise<Timeline> {
  const unit = await scoped(db, scope)
    .selectFrom('work_unit')
    .select(['work_unit_id', 'title', 'created', 'created_by', 'state_id'])
    .where('work_unit_id', '=', workUnitId)
    .executeTakeFirst();
  if (!unit) throw new NotFoundError('The work unit');
  // The match that created it: the Create Work Unit run that names this unit.
  const creators = await runsQuery(db, scope)
    .where('action_history.action_definition_id', '=', BUILT_IN_ACTIONS.createWorkUnit.id)
    .where('action_history.reference_id', '=', String(workUnitId))
    .where('action_history.rule_match_id', 'is not', null)
    .limit(5)
    .execute();
  const matchIds = [...new Set(creators.flatMap((run) => (run.rule_match_id ? [run.rule_match_id] : [])))];
  const [matches, matchRuns, unitRuns] = await Promise.all([
    matchIds.length
      ? matchesQuery(db, scope).where('rule_match.rule_match_id', 'in', matchIds).execute()
      : Promise.resolve([]),
    matchIds.length
      ? runsQuery(db, scope)
          .where('action_history.rule_match_id', 'in', matchIds)
          .orderBy('action_history.action_processed')
          .limit(LIMIT)
          .execute()
      : Promise.resolve([]),
    runsQuery(db, scope)
      .where('action_history.work_unit_id', '=', workUnitId)
      .orderBy('action_history.action_processed', 'desc')
      .limit(LIMIT + 1)
      .execute(),
  ]);
  const entries: TimelineEntry[] = matches.flatMap(matchEntries);
  const creatorKey = creators[0] ? `actionRun:${creators[0].action_history_id}` : null;
  for (const run of matchRuns) entries.push(runEntry(run, run.rule_match_id ? `ruleMatch:${run.rule_match_id}` : null));
  const unitKey = `workUnit:${unit.work_unit_id}`;
  entries.push({
    key: unitKey,
    at: unit.created,
    kind: 'workUnit',
    title: `Work unit ${unit.work_unit_id} created: ${unit.title}`,
    details: [`By ${unit.created_by ?? 'unknown'}; now ${STATE_LABELS[unit.state_id] ?? unit.state_id}.`],
    outcome: null,
    ref: { type: 'workUnit', id: String(unit.work_unit_id) },
    causedBy: creatorKey,
  });
  for (const run of unitRuns.slice(0, LIMIT)) entries.push(runEntry(run, unitKey));
  const records = await unitRecords(db, scope, [workUnitId], new Map([[workUnitId, unitKey]]));
  entries.push(...records.entries);
  return { entries: byTime(entries), truncated: records.truncated || unitRuns.length > LIMIT };
}

/**
 * An entity's timeline (a block's or a device's): its newest rule matches with their packets, the
 * matches' action runs, the work units they created, and those units' notes, protocol actions and
 * emails. Only what the caller's tenants own is read.
 */
export async function entityTimeline(db: Db, scope: TenantScope, entityId: string): Promise<Timeline> {
  // An entity the caller's tenants know: a block, a device, or one that reported packets. Else 404.
  const tx = scoped(db, scope);
  const known = await tx
    .selectFrom('block')
    .select('block_id as id')
    .where('block_id', '=', entityId)
    .unionAll(tx.selectFrom('device').select('device_id as id').where('device_id', '=', entityId))
    .unionAll(tx.selectFrom('packet_latest').select('entity_id as id').where('entity_id', '=', entityId))
    .limit(1)
    .executeTakeFirst();
  if (!known) throw new NotFoundError('The entity');
  const matches = await matchesQuery(db, scope)
    .where('rule_match.subject_id', '=', entityId)
    .orderBy('rule_match.expires', 'desc')
    .limit(LIMIT + 1)
    .execute();
  const shown = matches.slice(0, LIMIT);
  const matchIds = shown.map((match) => match.rule_match_id);
  const runs: RunRow[] = matchIds.length
    ? await runsQuery(db, scope)
        .where('action_history.rule_match_id', 'in', matchIds)
        .orderBy('action_history.action_processed')
        .limit(LIMIT)
        .execute()
    : [];
  const entries: TimelineEntry[] = shown.flatMap(matchEntries);
  const causes = new Map<number, string>();
  for (const run of runs) {
    const entry = runEntry(run, run.rule_match_id ? `ruleMatch:${run.rule_match_id}` : null);
    entries.push(entry);
    if (
      run.action_definition_id === BUILT_IN_ACTIONS.createWorkUnit.id &&
      run.result_status_id === ACTION_RESULT_STATUSES.Success &&
      run.reference_id &&
      /^\d+$/.test(run.reference_id)
    )
      causes.set(Number(run.reference_id), entry.key);
  }
  const unitIds = [...causes.keys()];
  let truncated = matches.length > LIMIT;
  if (unitIds.length > 0) {
    const [units, unitRuns] = await Promise.all([
      scoped(db, scope)
        .selectFrom('work_unit')
        .select(['work_unit_id', 'title', 'created', 'created_by', 'state_id'])
        .where('work_unit_id', 'in', unitIds)
        .execute(),
      runsQuery(db, scope)
        .where('action_history.work_unit_id', 'in', unitIds)
        .orderBy('action_history.action_processed', 'desc')
        .limit(LIMIT)
        .execute(),
    ]);
    for (const unit of units) {
      const key = `workUnit:${unit.work_unit_id}`;
      entries.push({
        key,
        at: unit.created,
        kind: 'workUnit',
        title: `Work unit ${unit.work_unit_id} created: ${unit.title}`,
        details: [`Now ${STATE_LABELS[unit.state_id] ?? unit.state_id}.`],
        outcome: null,
        ref: { type: 'workUnit', id: String(unit.work_unit_id) },
        causedBy: causes.get(unit.work_unit_id) ?? null,
      });
      causes.set(unit.work_unit_id, key);
    }
    for (const run of unitRuns)
      entries.push(runEntry(run, run.work_unit_id !== null ? (causes.get(run.work_unit_id) ?? null) : null));
    const records = await unitRecords(
      db,
      scope,
      units.map((unit) => unit.work_unit_id),
      causes,
    );
    entries.push(...records.entries);
    truncated ||= records.truncated;
  }
  return { entries: byTime(entries), truncated };
}
