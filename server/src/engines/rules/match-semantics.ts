import { sql, type RawBuilder } from 'kysely';
import type { MatchOutcome } from '@cfs/contracts/rules';
import type { CompiledRule } from './compile.js';

/**
 * How a rule match lives (spec 002 §3 Rule: matchLifetime, useSlidingExpiration; §4: "a rule match
 * is active until its expires time, then inactive"), written once for the two that play it: the
 * engine, which records matches in SQL (matches.ts: one upsert per batch, and the expiry sweep),
 * and the rule's Test, which replays stored packets in memory (test-run.ts). Each decision has its
 * TypeScript form and, beside it, the SQL fragment the engine's statements are built from; the
 * engine stays one statement per batch. `server/test/rule-match-semantics.test.ts` runs random
 * packet sequences through both and asserts the same matches.
 *
 * - open: a subject without an open match opens one, which expires a lifetime after it matched;
 * - raise: a match of a subject whose match is open counts on that match; its expiry moves to a
 *   lifetime after this match when the rule slides (never earlier), and stays when it does not;
 * - expire: a match is open until its expiry, exclusive: at `expires` it has run out, it is closed
 *   (its expiration actions run) and the subject's next match opens a new one.
 *
 * For example, with a 5-minute lifetime, matches at 0:00 and 0:04 raise one match that expires at
 * 0:05 (0:09 when the rule slides); a match at 0:05 then opens a second one (the sliding rule's is
 * raised).
 */
export type MatchLifetime = Pick<CompiledRule, 'lifetimeSeconds' | 'sliding'>;

/**
 * The expiry of a match that opens at `now` (ms), and the one a sliding rule's raise proposes: a
 * lifetime later, up to the next whole second (never earlier). Raises of one second propose the
 * same expiry, so a match raised many times a second keeps its `expires`: its row is rewritten in
 * place (a heap-only update, no index touched) instead of once more in each of its indexes.
 */
export function expiresAfter(now: number, rule: Pick<MatchLifetime, 'lifetimeSeconds'>): number {
  return Math.ceil((now + rule.lifetimeSeconds * 1000) / 1000) * 1000;
}

/**
 * The earliest time within a lifetime of `now` (inclusive), over which the window rules (History,
 * Aggregation, Correlation) look back at packets.
 */
export function lifetimeStart(now: number, rule: MatchLifetime): number {
  return now - rule.lifetimeSeconds * 1000;
}

/** Whether a packet of `time` is within the window a rule looks back over at `now`. */
export function withinLifetime(time: number, now: number, rule: MatchLifetime): boolean {
  return time >= lifetimeStart(now, rule);
}

/** Whether a match that expires at `expires` has run out at `now`: its expiry is exclusive. */
export function hasRunOut(expires: number, now: number): boolean {
  return expires <= now;
}

/** `hasRunOut` in SQL, of an `expires` column. */
export function hasRunOutSql(expires: RawBuilder<unknown>, now: Date): RawBuilder<boolean> {
  return sql<boolean>`${expires} <= ${now}`;
}

/** `!hasRunOut` in SQL, of an `expires` column (written as the range an index on expires reads). */
export function isOpenSql(expires: RawBuilder<unknown>, now: Date): RawBuilder<boolean> {
  return sql<boolean>`${expires} > ${now}`;
}

/** The expiry of an open match raised at `now`. */
export function raisedExpires(expires: number, now: number, rule: MatchLifetime): number {
  return rule.sliding ? Math.max(expires, expiresAfter(now, rule)) : expires;
}

/**
 * `raisedExpires` in SQL: `proposed` is `expiresAfter` the raise (computed before the statement),
 * `sliding` whether the row's rule slides.
 */
export function raisedExpiresSql(
  expires: RawBuilder<unknown>,
  proposed: RawBuilder<unknown>,
  sliding: RawBuilder<boolean>,
): RawBuilder<Date> {
  return sql<Date>`CASE WHEN ${sliding} THEN greatest(${expires}, ${proposed}) ELSE ${expires} END`;
}

/** One match of a subject as a replay holds it (times in ms). */
export interface ReplayedMatch {
  first: number;
  last: number;
  count: number;
  /** When it closes (or closed): its lifetime's end, its "no data" time, or when it recovered. */
  expires: number;
  /** Closed: it ran out or recovered, and its expiration actions ran. */
  closed: boolean;
  /** A recovering rule's match whose conditions have not held for its pending period yet. */
  pending?: boolean;
  /** How it closed. */
  outcome?: MatchOutcome;
}

/**
 * The expiry sweep at `now` over one subject's matches (oldest first): closes its open match when
 * it ran out, as `expireMatches` does.
 */
export function replayExpiry(matches: ReplayedMatch[], now: number): void {
  const open = matches.at(-1);
  if (open && !open.closed && hasRunOut(open.expires, now)) {
    open.closed = true;
    open.outcome = 'expired';
  }
}

/*
 * Matches that close on recovery (a rule's `closesOn: 'recovery'`; docs/features/rules.md "A match's
 * life"), played by ingestion and the recovery sweep (recovery.ts) and by the Test's replay below:
 * - a packet whose conditions hold opens a match, or raises the open one and moves its "no data"
 *   time to a lifetime after it (it always slides); with a pending period the match opens pending;
 * - pending: once the conditions have held for the period (no newer packet said otherwise) it
 *   opens and its match actions run; a newer packet whose conditions do not hold, or no packet for
 *   the lifetime, ends it with nothing run;
 * - open: a newer packet that recovers it (its recovery conditions hold; without them, its
 *   conditions do not) closes it as `recovered`; one that neither holds nor recovers keeps it open
 *   and moves its "no data" time; no packet for the lifetime closes it as `noData`.
 */
export type RecoveringRule = Pick<CompiledRule, 'lifetimeSeconds' | 'pendingSeconds'>;
export type PendingDecision = 'open' | 'cancel' | 'wait';

/**
 * A pending match first matched at `first`, at `now`: `holds` is whether its subject's packet newer
 * than its last match holds (undefined: no newer packet).
 */
export function pendingDecision(
  first: number,
  now: number,
  rule: Pick<RecoveringRule, 'pendingSeconds'>,
  holds: boolean | undefined,
): PendingDecision {
  if (holds === false) return 'cancel';
  return first + rule.pendingSeconds * 1000 <= now ? 'open' : 'wait';
}

/** What time alone does to a subject's recovering match by `now`: a pending one opens or ends, an open one runs out of data. */
export function replayRecoveringDue(matches: ReplayedMatch[], now: number, rule: RecoveringRule): void {
  const current = matches.at(-1);
  if (!current || current.closed) return;
  if (current.pending) {
    const opensAt = current.first + rule.pendingSeconds * 1000;
    if (opensAt < current.expires && pendingDecision(current.first, now, rule, undefined) === 'open')
      current.pending = false;
    else if (hasRunOut(current.expires, now)) {
      matches.pop();
      return;
    }
  }
  if (!current.pending && hasRunOut(current.expires, now)) {
    current.closed = true;
    current.outcome = 'noData';
  }
}

/**
 * A packet of the subject at `at`, for a recovering rule: `holds` whether the rule matches it
 * (its conditions, within its time limitations), `conditionsHold` whether its conditions hold
 * (whatever the time), `recovered` whether it recovers an open match.
 */
export function replayRecovering(
  matches: ReplayedMatch[],
  at: number,
  rule: RecoveringRule,
  packet: { holds: boolean; conditionsHold: boolean; recovered: boolean },
): void {
  replayRecoveringDue(matches, at, rule);
  const current = matches.at(-1);
  const live = current && !current.closed ? current : undefined;
  if (packet.holds) {
    if (live) {
      live.count += 1;
      live.last = Math.max(live.last, at);
      live.expires = Math.max(live.expires, expiresAfter(at, rule));
    } else
      matches.push({
        first: at,
        last: at,
        count: 1,
        expires: expiresAfter(at, rule),
        closed: false,
        pending: rule.pendingSeconds > 0,
      });
    return;
  }
  if (!live) return;
  if (live.pending) {
    if (pendingDecision(live.first, at, rule, packet.conditionsHold) === 'cancel') matches.pop();
  } else if (packet.recovered) {
    live.closed = true;
    live.outcome = 'recovered';
    live.expires = at;
  } else live.expires = Math.max(live.expires, expiresAfter(at, rule));
}

/**
 * The subject matched at `now` (`count` times): its open match is raised, or, when it has none or
 * the one it had ran out (closed first), a match opens — as `recordMatches` records it.
 */
export function replayMatch(matches: ReplayedMatch[], now: number, rule: MatchLifetime, count = 1): void {
  replayExpiry(matches, now);
  const open = matches.at(-1);
  if (open && !open.closed) {
    open.count += count;
    open.last = Math.max(open.last, now);
    open.expires = raisedExpires(open.expires, now, rule);
  } else matches.push({ first: now, last: now, count, expires: expiresAfter(now, rule), closed: false });
}
