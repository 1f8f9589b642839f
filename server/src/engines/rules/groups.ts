import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { NOTIFICATION_GROUP_BY, type NotificationGroupBy } from '@cfs/contracts/notification-policy';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { enqueueMany } from '../jobs/queue.js';
import { defineTask } from '../jobs/task.js';
import type { RuleNotificationGroup } from '../actions/run.js';
import { ruleActionTask, type RuleActionJob } from './actions.js';
import type { CompiledRule } from './compile.js';
import { hasRunOutSql } from './match-semantics.js';
import { actionJobs } from './matches.js';
import { rulesFor } from './rule-cache.js';

/** How often held matches are looked at: a group's notification goes within this time of its wait's end. */
export const GROUP_EVERY_MS = 5000;
/** Held matches a sweep reads at most, the longest held first; the rest wait for the next sweep. */
export const GROUP_SWEEP_MAX = 5000;
/** The matches a group's notification names; its count tells of all of them. */
export const GROUP_MATCHES_NAMED = 200;

/** One sweep at a time across every worker: two sweeps would split a group between them. */
const GROUP_SWEEP_LOCK = 740_044;

/** Match actions that change state rather than tell someone: never held, grouped or repeated. */
const NOT_NOTIFYING = new Set<string>([BUILT_IN_ACTIONS.setColor.id, BUILT_IN_ACTIONS.createWorkUnit.id]);

/** Whether a rule action tells someone (Send Email, an HTTP call), and so is grouped and repeats. */
export const isNotifying = (actionDefinitionId: string): boolean => !NOT_NOTIFYING.has(actionDefinitionId);

const UUID_TEXT = '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$';

/**
 * The group of the match `m` under a policy's `groupBy` (SQL text 'rule', 'location' or
 * 'subscription'): its rule; its device's location; its device's subscription, else its rule's.
 * '' is "none" (a subject that is no device, a device without a location).
 */
export function groupKeySql(groupBy: RawBuilder<unknown>): RawBuilder<string> {
  const device = (column: 'location_id' | 'subscription_id') =>
    sql`(SELECT d.${sql.ref(column)}::text FROM device d
      WHERE d.device_id = (CASE WHEN m.subject_id ~ ${UUID_TEXT} THEN m.subject_id::uuid END) AND d.tenant_id = m.tenant_id)`;
  return sql<string>`CASE ${groupBy}
    WHEN 'rule' THEN m.rule_id::text
    WHEN 'location' THEN coalesce(${device('location_id')}, '')
    WHEN 'subscription' THEN coalesce(${device('subscription_id')}, (SELECT r.subscription_id::text FROM rule r WHERE r.rule_id = m.rule_id), '')
    ELSE '' END`;
}

/**
 * Holds a match action that would notify as its match opened, when the tenant's policy groups:
 * the match is marked held for its group (once; a second action of it finds it so), and the group
 * sweep sends the notification. A held match whose group already went was notified of every
 * notifying action of its rule: this action is dropped then too. True: do not run it now.
 */
export async function holdForGroup(db: Db, job: RuleActionJob): Promise<boolean> {
  if (job.sweep || job.phase !== 'match' || job.suppressed || !isNotifying(job.actionDefinitionId)) return false;
  // Raw SQL: the group key is computed where the match is (groupKeySql); the engine holds matches
  // of every tenant, each row named by its id and tenant.
  const { rows } = await sql`
    UPDATE rule_match m SET grouped = coalesce(m.grouped, now()), group_key = coalesce(m.group_key, ${groupKeySql(sql`p.group_by`)})
    FROM notification_policy p
    WHERE p.tenant_id = m.tenant_id AND p.group_by IS NOT NULL
      AND m.rule_match_id = ${job.ruleMatchId} AND m.tenant_id = ${job.tenantId}
    RETURNING m.rule_match_id`.execute(db);
  return rows.length > 0;
}

/** A match named in a notification. */
export interface NoticeMember {
  rule_match_id: string;
  rule_id: string;
  tenant_id: string;
  subject_id: string;
  label: string | null;
}

/** The same action with the same parameters: one notification for every match that names it. */
const actionIdentity = (action: CompiledRule['matchActions'][number]): string =>
  JSON.stringify([action.ActionDefinitionId, Object.entries(action.Parameters).sort(([a], [b]) => a.localeCompare(b))]);

/**
 * The jobs of one notification of `members` (matches of one tenant): without a group, each match's
 * notifying actions; with one, each distinct notifying action (its definition and parameters) of
 * the members' rules once, run for the first member that names it and telling of all that do. A
 * group of one sends as a match alone would. Keyed by that member, its occurrence and the action's
 * position: a notification is enqueued once.
 */
export function noticeJobs<Member extends NoticeMember>(
  group: { by: NotificationGroupBy; name: string } | null,
  members: readonly Member[],
  rules: ReadonlyMap<string, CompiledRule>,
  occurrence: (member: Member) => string,
): { jobs: { key: string; payload: RuleActionJob }[]; notified: Set<string> } {
  const notices = new Map<string, { member: Member; rule: CompiledRule; index: number; named: Member[] }>();
  for (const member of members) {
    const rule = rules.get(member.rule_id);
    if (!rule) continue;
    rule.matchActions.forEach((action, index) => {
      if (!isNotifying(action.ActionDefinitionId)) return;
      const identity = group ? actionIdentity(action) : `${member.rule_match_id} ${index}`;
      const known = notices.get(identity);
      if (!known) notices.set(identity, { member, rule, index, named: [member] });
      else if (!known.named.includes(member)) known.named.push(member);
    });
  }
  const notified = new Set<string>();
  const jobs = [...notices.values()].map(({ member, rule, index, named }) => {
    for (const each of named) notified.add(each.rule_match_id);
    const { payload } = actionJobs('match', { ...member, in_maintenance: false }, rule, rule.matchActions)[index]!;
    const together: RuleNotificationGroup | undefined =
      group && named.length > 1
        ? {
            by: group.by,
            name: group.name,
            count: named.length,
            matches: named.slice(0, GROUP_MATCHES_NAMED).map((each) => ({
              ruleMatchId: each.rule_match_id,
              ruleName: rules.get(each.rule_id)?.name ?? '',
              subjectId: each.subject_id,
              label: each.label,
            })),
          }
        : undefined;
    return {
      key: `${member.rule_match_id}:match${occurrence(member)}${together ? ':group' : ''}:${index}`,
      payload: { ...payload, sweep: true, ...(together ? { group: together } : {}) },
    };
  });
  return { jobs, notified };
}

/** The compiled rules of the tenants of `rows`, by rule id. */
export async function rulesOf(db: Db, trx: Tx, rows: readonly { tenant_id: string }[]) {
  const rules = new Map<string, CompiledRule>();
  for (const tenantId of new Set(rows.map((row) => row.tenant_id)))
    for (const rule of (await rulesFor(db, tenantId, trx)).all) rules.set(rule.ruleId, rule);
  return rules;
}

/** A group's name as a notification tells it: the rule's, the location's or the subscription's. */
export async function groupNames(
  trx: Tx,
  groups: readonly { by: NotificationGroupBy; key: string }[],
  rules: ReadonlyMap<string, CompiledRule>,
): Promise<(by: NotificationGroupBy, key: string) => string> {
  const ids = (by: NotificationGroupBy) => [
    ...new Set(groups.filter((group) => group.by === by && group.key !== '').map((group) => group.key)),
  ];
  const all = scoped(trx, ALL_TENANTS);
  const locations = ids('location');
  const subscriptions = ids('subscription');
  const names = new Map<string, string>([
    ...(locations.length
      ? await all.selectFrom('location').select(['location_id', 'name']).where('location_id', 'in', locations).execute()
      : []
    ).map((row): [string, string] => [`location ${row.location_id}`, row.name]),
    ...(subscriptions.length
      ? await all
          .selectFrom('subscription')
          .select(['subscription_id', 'name'])
          .where('subscription_id', 'in', subscriptions)
          .execute()
      : []
    ).map((row): [string, string] => [`subscription ${row.subscription_id}`, row.name]),
  ]);
  return (by, key) =>
    by === 'rule'
      ? (rules.get(key)?.name ?? 'A rule')
      : key === ''
        ? by === 'location'
          ? 'No location'
          : 'No subscription'
        : (names.get(`${by} ${key}`) ?? key);
}

export const groupByOf = (text: string | null): NotificationGroupBy | null =>
  NOTIFICATION_GROUP_BY.find((name) => name === text) ?? null;

interface Held extends NoticeMember {
  group_key: string;
  grouped: Date;
  /** Closed, ran out, acknowledged, silenced or in maintenance: named in no notification. */
  quiet: boolean;
  group_by: string | null;
  wait: number;
}

/**
 * Sends the notification of each group whose first held match has waited the policy's group wait
 * (docs/features/rules.md "Grouped notifications"): the held matches of one tenant and group key
 * that are still open, not acknowledged and not silenced, told of in one notification per distinct
 * action; the rest leave the group unnotified. The held rows are locked and marked `notified` in
 * the transaction that enqueues the notification's jobs, by one sweep at a time.
 */
export async function sendGroups(db: Db, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows: lock } = await sql<{
      got: boolean;
    }>`SELECT pg_try_advisory_xact_lock(${GROUP_SWEEP_LOCK}) AS got`.execute(trx);
    if (!lock[0]?.got) return 0;
    // Raw SQL: held matches of every tenant with their tenants' policies, locked; the engine sends
    // for every tenant (it answers nobody), so it is unscoped by design.
    const { rows } = await sql<Held>`
      SELECT m.rule_match_id, m.rule_id, m.tenant_id, m.subject_id, m.label, m.group_key, m.grouped,
        (m.completion_processed OR m.pending OR m.in_maintenance OR m.acknowledged IS NOT NULL OR ${hasRunOutSql(sql`m.expires`, now)}) AS quiet,
        p.group_by, CASE WHEN p.group_by IS NULL THEN 0 ELSE p.group_wait_seconds END AS wait
      FROM rule_match m LEFT JOIN notification_policy p ON p.tenant_id = m.tenant_id
      WHERE m.grouped IS NOT NULL AND m.notified IS NULL
      ORDER BY m.grouped
      LIMIT ${GROUP_SWEEP_MAX}
      FOR UPDATE OF m`.execute(trx);
    const groups = new Map<string, Held[]>();
    for (const row of rows) {
      const key = `${row.tenant_id} ${row.group_key}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    // A group is due once its first match waited long enough; a policy that stopped grouping sends at once.
    const due = [...groups.values()].filter(
      (members) => members[0]!.grouped.getTime() + members[0]!.wait * 1000 <= now.getTime(),
    );
    if (due.length === 0) return 0;
    const rules = await rulesOf(db, trx, due.flat());
    const byOf = (members: Held[]) => groupByOf(members[0]!.group_by);
    const nameOf = await groupNames(
      trx,
      due.flatMap((members) => {
        const by = byOf(members);
        return by ? [{ by, key: members[0]!.group_key }] : [];
      }),
      rules,
    );
    const jobs = due.flatMap((members) => {
      const by = byOf(members);
      const group = by ? { by, name: nameOf(by, members[0]!.group_key) } : null;
      return noticeJobs(
        group,
        members.filter((member) => !member.quiet),
        rules,
        // Keyed by when the match was held: one held again (after leaving maintenance) is told again.
        (member) => `:notify:${member.grouped.getTime()}`,
      ).jobs;
    });
    await enqueueMany(trx, ruleActionTask, jobs);
    await sql`UPDATE rule_match SET notified = ${now}
      WHERE rule_match_id = ANY(${due.flat().map((member) => member.rule_match_id)}::uuid[])`.execute(trx);
    return jobs.length;
  });
}

export const groupTask = defineTask({
  name: 'rules.group',
  payload: z.object({}),
  every: GROUP_EVERY_MS,
  perform: async (_payload, { db }) => {
    await sendGroups(db);
  },
});

/** A match as the rule Test replayed it: its group key, when it opened, and when it closed (null: still open). */
export interface ReplayedNotice {
  key: string;
  opened: number;
  closes: number | null;
}

/**
 * What a policy makes of replayed matches up to `end` (the rule Test): under grouping, the first
 * match of a key waits `groupWaitMs`; the matches of that key that opened meanwhile and are still
 * open then go in one notification (one due after `end` counts: its matches are open), and a later
 * one starts the next group. Without grouping each match notifies as it opens. A notification
 * repeats every `repeatMs` until `end` while one of its matches is open (nobody acknowledges in a
 * replay).
 */
export function replayNotifications(
  matches: readonly ReplayedNotice[],
  policy: { grouped: boolean; groupWaitMs: number; repeatMs: number | null },
  end: number,
): { sent: number; repeats: number } {
  const closed = (match: ReplayedNotice) => match.closes ?? Number.POSITIVE_INFINITY;
  const repeatsUntil = (sent: number, closes: number) =>
    policy.repeatMs ? Math.max(0, Math.ceil((Math.min(closes, end) - sent) / policy.repeatMs) - 1) : 0;
  if (!policy.grouped)
    return {
      sent: matches.length,
      repeats: matches.reduce((total, match) => total + repeatsUntil(match.opened, closed(match)), 0),
    };
  let sent = 0;
  let repeats = 0;
  const byKey = new Map<string, ReplayedNotice[]>();
  for (const match of matches) byKey.set(match.key, [...(byKey.get(match.key) ?? []), match]);
  for (const members of byKey.values()) {
    members.sort((a, b) => a.opened - b.opened);
    for (let start = 0; start < members.length;) {
      const sendAt = members[start]!.opened + policy.groupWaitMs;
      let next = start;
      while (next < members.length && members[next]!.opened <= sendAt) next += 1;
      const open = members.slice(start, next).filter((match) => closed(match) > sendAt);
      if (open.length > 0) {
        sent += 1;
        repeats += repeatsUntil(sendAt, Math.max(...open.map(closed)));
      }
      start = next;
    }
  }
  return { sent, repeats };
}
