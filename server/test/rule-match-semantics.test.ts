import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { ruleInputSchema, tenantCondition, type ConditionInput } from '@cfs/contracts/rules';
import { DEMO } from '../src/db/demo-ids.js';
import { ruleActionTask } from '../src/engines/rules/actions.js';
import { expireMatches } from '../src/engines/rules/matches.js';
import {
  replayExpiry,
  replayMatch,
  type MatchLifetime,
  type ReplayedMatch,
} from '../src/engines/rules/match-semantics.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import { testRule } from '../src/engines/rules/test-run.js';
import { windowTask } from '../src/engines/rules/window.js';
import type { TestPortal } from './harness.js';
import {
  green,
  liveMatch,
  metric,
  MINUTE,
  postPackets,
  red,
  runPendingJobs,
  testedSubject,
  withRulePortal,
} from './rule-factories.js';

let portal: TestPortal;
let token: string;
withRulePortal((opened) => ({ portal, token } = opened));

/** A packet batch of a scenario: when (after the previous one), which subjects report, and whether each matches. */
interface Batch {
  afterMs: number;
  /** The expiry sweep runs this long after the previous batch (at most `afterMs`), or not at all. */
  sweepAfterMs: number | null;
  packets: { subject: number; holds: boolean }[];
}
interface Scenario {
  /** A History rule (2 of the last 3 packets, evaluated by the worker) rather than an Ingestion rule. */
  history: boolean;
  lifetimeMinutes: number;
  sliding: boolean;
  batches: Batch[];
  /** How long after the last batch the Test looks (and the sweep closes what ran out). */
  tailMs: number;
}

// Times on whole minutes, like the lifetimes, with now and then a millisecond either side: a packet
// often comes exactly when a match expires, which is where open and raise part.
const jitter = fc.constantFrom(0, 0, 0, 1, -1);
const batch: fc.Arbitrary<Batch> = fc
  .record({
    minutes: fc.integer({ min: 1, max: 9 }),
    jitter,
    // Mostly without a sweep between, so that a packet often meets a match that ran out unclosed.
    sweep: fc.oneof(
      { arbitrary: fc.constant(null), weight: 2 },
      { arbitrary: fc.integer({ min: 0, max: 9 }), weight: 1 },
    ),
    packets: fc.uniqueArray(
      fc.record({ subject: fc.integer({ min: 0, max: 2 }), holds: fc.constantFrom(true, true, false) }),
      {
        selector: (packet) => packet.subject,
        minLength: 1,
        maxLength: 3,
      },
    ),
  })
  .map(({ minutes, jitter, sweep, packets }) => {
    const afterMs = minutes * MINUTE + jitter;
    return { afterMs, sweepAfterMs: sweep === null ? null : Math.min(sweep * MINUTE, afterMs), packets };
  });
const scenario: fc.Arbitrary<Scenario> = fc.record({
  history: fc.boolean(),
  lifetimeMinutes: fc.integer({ min: 5, max: 8 }),
  sliding: fc.boolean(),
  batches: fc.array(batch, { minLength: 1, maxLength: 12 }),
  tailMs: fc.tuple(fc.integer({ min: 0, max: 16 }), jitter).map(([minutes, ms]) => Math.max(0, minutes * MINUTE + ms)),
});

/** What the semantics say a scenario's subjects' matches are (match-semantics.ts, as the Test replays them). */
function replay(plan: Scenario, start: number, rule: MatchLifetime): { matches: ReplayedMatch[][]; end: number } {
  const matches: ReplayedMatch[][] = [[], [], []];
  let at = start;
  for (const { afterMs, sweepAfterMs, packets } of plan.batches) {
    if (sweepAfterMs !== null) for (const subject of matches) replayExpiry(subject, at + sweepAfterMs);
    at += afterMs;
    for (const packet of packets) if (packet.holds) replayMatch(matches[packet.subject]!, at, rule);
  }
  const end = at + plan.tailMs;
  for (const subject of matches) replayExpiry(subject, end);
  return { matches, end };
}

const post = (packets: unknown[]) => postPackets(portal, token, packets);

/**
 * Plays a scenario on the live path: each batch posted to ingestion at its own time (the clock set
 * to it: ingestion records matches as of now), with the expiry sweep run between batches when the
 * scenario says, and at the end.
 */
async function playLive(plan: Scenario, start: number, field: string, entities: readonly string[]): Promise<number> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    let at = start;
    for (const { afterMs, sweepAfterMs, packets } of plan.batches) {
      if (sweepAfterMs !== null) await expireMatches(portal.db, new Date(at + sweepAfterMs));
      at += afterMs;
      vi.setSystemTime(at);
      await post(
        packets.map(({ subject, holds }) => ({
          entityId: entities[subject],
          timestamp: new Date(at).toISOString(),
          message: { Properties: { BlockName: `Host ${subject}` }, Metrics: { [field]: holds ? 90 : 10 } },
        })),
      );
      // The window jobs, as a worker would run them (each as of the time of the batch that enqueued it).
      if (plan.history) await runPendingJobs(portal.db, [windowTask]);
    }
    const end = at + plan.tailMs;
    await expireMatches(portal.db, new Date(end));
    return end;
  } finally {
    vi.useRealTimers();
  }
}

async function liveMatches(ruleId: string) {
  const rows = await portal.db
    .selectFrom('rule_match')
    .select(['subject_id', 'first_match', 'last_match', 'match_count', 'expires', 'completion_processed', 'outcome'])
    .where('rule_id', '=', ruleId)
    .orderBy('subject_id')
    .orderBy('first_match')
    .execute();
  const jobs = await portal.db.selectFrom('job').select('payload').where('task', '=', ruleActionTask.name).execute();
  const phases = jobs.flatMap(({ payload }) => {
    const job = payload as { ruleId?: string; phase?: string };
    return job.ruleId === ruleId ? [job.phase] : [];
  });
  return { rows, phases };
}

describe('rule match semantics', () => {
  // 100 scenarios of up to 12 batches, over 1 to 3 subjects, half on an Ingestion rule (ingestion's
  // statement, its transaction, its retry after a match ran out) and half on a History rule (the
  // window worker); a failure prints the smallest scenario that shows it.
  it('the Test and the live path open, raise, slide and expire the same matches of Ingestion and History rules over random packet sequences', async () => {
    // Hours ago, so that every time a scenario reaches lies in the past of the Test's day.
    const start = Math.floor(Date.now() / MINUTE) * MINUTE - 6 * 60 * MINUTE;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (plan) => {
        runs += 1;
        // A field of its own per run: this run's rule matches this run's packets only.
        const field = `Load${randomUUID().replaceAll('-', '')}`;
        const entities: string[] = [randomUUID(), randomUUID(), randomUUID()];
        const condition: ConditionInput = {
          ...metric(field, OPERATORS.GreaterThan, 50),
          OccurrencePattern: plan.history ? '2/3' : null,
        };
        const ruleTypeId = plan.history ? RULE_TYPES.History : RULE_TYPES.Ingestion;
        const values = ruleInputSchema.parse({
          name: `Semantics ${runs}`,
          ruleTypeId,
          tenantId: DEMO.contoso,
          matchLifetime: `00:0${plan.lifetimeMinutes}:00`,
          useSlidingExpiration: plan.sliding,
          closesOn: 'expiry',
          conditions: [tenantCondition(DEMO.contoso), condition],
          matchActions: [red],
          expirationActions: [green],
        });
        const { rule_id: ruleId } = await portal.db
          .insertInto('rule')
          .values({
            tenant_id: DEMO.contoso,
            name: values.name,
            rule_type_id: ruleTypeId,
            match_lifetime_seconds: plan.lifetimeMinutes * 60,
            use_sliding_expiration: plan.sliding,
            conditions: JSON.stringify(values.conditions),
            match_actions: JSON.stringify(values.matchActions),
            expiration_actions: JSON.stringify(values.expirationActions),
          })
          .returning('rule_id')
          .executeTakeFirstOrThrow();
        forgetRules(portal.db);
        try {
          const end = await playLive(plan, start, field, entities);
          const expected = replay(plan, start, { lifetimeSeconds: plan.lifetimeMinutes * 60, sliding: plan.sliding });
          expect(end).toBe(expected.end);

          // The live path recorded the matches the semantics say, match by match (for an Ingestion
          // rule, whose packets match one by one as the scenario says).
          const live = await liveMatches(ruleId);
          if (!plan.history) {
            const want = entities
              .map((entityId, subject) => ({ entityId, matches: expected.matches[subject]! }))
              .sort((a, b) => a.entityId.localeCompare(b.entityId))
              .flatMap(({ entityId, matches }) =>
                matches.map((match) => ({ entityId, ...match, outcome: match.outcome ?? null })),
              );
            expect(live.rows.map(liveMatch)).toEqual(want);
          }

          // And the Test over the packets stored on the way tells what the live path did.
          const tested = await testRule(portal.db, { kind: 'all' }, values, 'day', new Date(end));
          const bySubject = new Map<string, typeof live.rows>();
          for (const row of live.rows) bySubject.set(row.subject_id, [...(bySubject.get(row.subject_id) ?? []), row]);
          const subjects = [...bySubject].map(([subjectId, rows]) =>
            testedSubject(subjectId, `Host ${entities.indexOf(subjectId)}`, rows),
          );
          expect(tested.subjects).toEqual(
            subjects.sort((a, b) => b.matchCount - a.matchCount || a.subjectId.localeCompare(b.subjectId)),
          );
          expect(tested.actions.map(({ phase, runs }) => ({ phase, runs }))).toEqual([
            { phase: 'match', runs: live.phases.filter((phase) => phase === 'match').length },
            { phase: 'expiration', runs: live.phases.filter((phase) => phase === 'expiration').length },
          ]);
        } finally {
          await portal.db.updateTable('rule').set({ enabled: false }).where('rule_id', '=', ruleId).execute();
          forgetRules(portal.db);
        }
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
