import { sql, type RawBuilder } from 'kysely';
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

/** The expiry of a match that opens at `now` (ms), and the one a sliding rule's raise proposes. */
export function expiresAfter(now: number, rule: MatchLifetime): number {
  return now + rule.lifetimeSeconds * 1000;
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
  expires: number;
  /** Closed: it ran out and its expiration actions ran. */
  closed: boolean;
}

/**
 * The expiry sweep at `now` over one subject's matches (oldest first): closes its open match when
 * it ran out, as `expireMatches` does.
 */
export function replayExpiry(matches: ReplayedMatch[], now: number): void {
  const open = matches.at(-1);
  if (open && !open.closed && hasRunOut(open.expires, now)) open.closed = true;
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
