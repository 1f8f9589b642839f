import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { RULE_MESSAGES, ruleInputSchema, tenantCondition, type Rule, type RuleValues } from '@cfs/contracts/rules';
import { DEMO } from '../src/db/demo-ids.js';
import { ruleActionTask } from '../src/engines/rules/actions.js';
import { expireMatches } from '../src/engines/rules/matches.js';
import {
  replayRecovering,
  replayRecoveringDue,
  type RecoveringRule,
  type ReplayedMatch,
} from '../src/engines/rules/match-semantics.js';
import { sweepRecovery } from '../src/engines/rules/recovery.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import { testRule } from '../src/engines/rules/test-run.js';
import type { TestPortal } from './harness.js';
import { green, liveMatch, metric, MINUTE, postPackets, red, testedSubject, withRulePortal } from './rule-factories.js';

let portal: TestPortal;
let token: string;
withRulePortal((opened) => ({ portal, token } = opened));

interface RecoveringSpec {
  lifetimeMinutes: number;
  pendingMinutes: number;
  /** Recovery below this value (hysteresis); none: the condition (above 90) no longer holding. */
  recoverBelow: number | null;
}

/** A recovering rule on its own field: above 90 matches, as the spec says it recovers and pends. */
function recoveringValues(field: string, spec: RecoveringSpec, name = `Recovering ${field}`): RuleValues {
  const clock = (minutes: number) => `00:${String(minutes).padStart(2, '0')}:00`;
  return ruleInputSchema.parse({
    name,
    ruleTypeId: RULE_TYPES.Ingestion,
    tenantId: DEMO.contoso,
    matchLifetime: clock(spec.lifetimeMinutes),
    closesOn: 'recovery',
    pendingFor: spec.pendingMinutes > 0 ? clock(spec.pendingMinutes) : null,
    recoveryConditions: spec.recoverBelow === null ? null : [metric(field, OPERATORS.LessThan, spec.recoverBelow)],
    conditions: [tenantCondition(DEMO.contoso), metric(field, OPERATORS.GreaterThan, 90)],
    matchActions: [red],
    expirationActions: [green],
  });
}

async function insertRule(values: RuleValues, spec: RecoveringSpec): Promise<string> {
  const { rule_id: ruleId } = await portal.db
    .insertInto('rule')
    .values({
      tenant_id: DEMO.contoso,
      name: values.name,
      rule_type_id: values.ruleTypeId,
      match_lifetime_seconds: spec.lifetimeMinutes * 60,
      conditions: JSON.stringify(values.conditions),
      match_actions: JSON.stringify(values.matchActions),
      expiration_actions: JSON.stringify(values.expirationActions),
      closes_on: 'recovery',
      pending_seconds: spec.pendingMinutes * 60,
      recovery_conditions: values.recoveryConditions ? JSON.stringify(values.recoveryConditions) : null,
    })
    .returning('rule_id')
    .executeTakeFirstOrThrow();
  forgetRules(portal.db);
  return ruleId;
}

const post = (packets: unknown[]) => postPackets(portal, token, packets);

/** The engine's every-few-seconds work at `at`: the recovery sweep, then the expiry sweep (as the worker's task runs them). */
async function sweep(at: number) {
  await sweepRecovery(portal.db, new Date(at));
  await expireMatches(portal.db, new Date(at));
}

async function matchesOf(ruleId: string) {
  return portal.db
    .selectFrom('rule_match')
    .select([
      'rule_match_id',
      'subject_id',
      'first_match',
      'last_match',
      'match_count',
      'expires',
      'completion_processed',
      'pending',
      'outcome',
    ])
    .where('rule_id', '=', ruleId)
    .orderBy('subject_id')
    .orderBy('first_match')
    .execute();
}

async function phasesOf(ruleId: string): Promise<string[]> {
  const jobs = await portal.db
    .selectFrom('job')
    .select('payload')
    .where('task', '=', ruleActionTask.name)
    .orderBy('job_id')
    .execute();
  return jobs.flatMap(({ payload }) => {
    const job = payload as { ruleId?: string; phase?: string };
    return job.ruleId === ruleId ? [job.phase!] : [];
  });
}

/**
 * A story on one entity, on the live path: each step posts a packet of `value` at its minute (the
 * clock set to it) and runs the sweeps every minute in between and right after, as the worker
 * would; `check` looks at the matches after each step.
 */
async function play(
  ruleId: string,
  field: string,
  entityId: string,
  start: number,
  steps: readonly { minute: number; value: number | null }[],
) {
  vi.useFakeTimers({ toFake: ['Date'] });
  const seen: Awaited<ReturnType<typeof matchesOf>>[] = [];
  let minute = 0;
  try {
    for (const step of steps) {
      for (; minute < step.minute; minute += 1) await sweep(start + minute * MINUTE);
      const at = start + step.minute * MINUTE;
      vi.setSystemTime(at);
      await sweep(at);
      if (step.value !== null)
        await post([
          { entityId, timestamp: new Date(at).toISOString(), message: { Metrics: { [field]: step.value } } },
        ]);
      await sweep(at);
      seen.push(await matchesOf(ruleId));
    }
  } finally {
    vi.useRealTimers();
  }
  return seen;
}

const hoursAgo = (hours: number) => Math.floor(Date.now() / MINUTE) * MINUTE - hours * 60 * MINUTE;

describe('matches that close on recovery', () => {
  it('pending: opens only once the condition has held for the pending period; a packet below ends a pending match with nothing run', async () => {
    const field = `Cpu${randomUUID().slice(0, 8)}`;
    const spec = { lifetimeMinutes: 10, pendingMinutes: 3, recoverBelow: null };
    const values = recoveringValues(field, spec);
    const ruleId = await insertRule(values, spec);
    const entityId = randomUUID();
    const start = hoursAgo(5);
    const seen = await play(ruleId, field, entityId, start, [
      { minute: 0, value: 95 },
      { minute: 1, value: 95 },
      { minute: 2, value: 40 }, // before 3 minutes: the pending match goes
      { minute: 4, value: 96 },
      { minute: 6, value: 97 },
      { minute: 7, value: null }, // 3 minutes after it began to hold: it opens
    ]);
    expect(seen[0]).toEqual([expect.objectContaining({ pending: true, completion_processed: false })]);
    expect(seen[1]).toEqual([expect.objectContaining({ pending: true, match_count: 2 })]);
    expect(seen[2]).toEqual([]);
    expect(seen[4]).toEqual([expect.objectContaining({ pending: true, match_count: 2 })]);
    expect(seen[5]).toEqual([
      expect.objectContaining({ pending: false, match_count: 2, first_match: new Date(start + 4 * MINUTE) }),
    ]);
    // The cancelled pending match ran nothing; the one that opened ran its match action once.
    expect(await phasesOf(ruleId)).toEqual(['match']);

    // The Test tells the same: one match, opened, not closed.
    const tested = await testRule(portal.db, { kind: 'all' }, values, 'day', new Date(start + 7 * MINUTE));
    expect(tested.subjects).toEqual([
      expect.objectContaining({ subjectId: entityId, matchCount: 2, expirations: [], outcomes: [] }),
    ]);
    expect(tested.actions.map(({ phase, runs }) => [phase, runs])).toEqual([
      ['match', 1],
      ['expiration', 0],
    ]);
  });

  it('hysteresis and staying open: fires above 90, stays open at 85 and past its lifetime while it holds, recovers below 80 once', async () => {
    const field = `Cpu${randomUUID().slice(0, 8)}`;
    const spec = { lifetimeMinutes: 5, pendingMinutes: 0, recoverBelow: 80 };
    const values = recoveringValues(field, spec);
    const ruleId = await insertRule(values, spec);
    const entityId = randomUUID();
    const start = hoursAgo(4);
    const steps = [
      { minute: 0, value: 95 },
      { minute: 4, value: 85 }, // between the thresholds: still open
      { minute: 8, value: 93 }, // 8 minutes: past a lifetime of 5, it holds, one match
      { minute: 12, value: 92 },
      { minute: 16, value: 79 }, // below 80: recovered
      { minute: 17, value: 81 },
    ];
    const seen = await play(ruleId, field, entityId, start, steps);
    expect(seen[1]).toEqual([
      expect.objectContaining({
        completion_processed: false,
        match_count: 1,
        // The packet between the thresholds moved its "no data" time.
        expires: new Date(start + 9 * MINUTE),
      }),
    ]);
    expect(seen[3]).toEqual([expect.objectContaining({ completion_processed: false, match_count: 3 })]);
    const recovered = [
      expect.objectContaining({
        completion_processed: true,
        outcome: 'recovered',
        match_count: 3,
        expires: new Date(start + 16 * MINUTE),
      }),
    ];
    expect(seen[4]).toEqual(recovered);
    // 81 is below the condition, above the recovery: nothing opens, nothing closes again.
    expect(seen[5]).toEqual(recovered);
    expect(await phasesOf(ruleId)).toEqual(['match', 'expiration']);

    // Closing on expiry (not sliding), the same packets open two matches, and the second expires while the value is 92.
    const tested = await testRule(portal.db, { kind: 'all' }, values, 'day', new Date(start + 17 * MINUTE));
    expect(tested.subjects).toEqual([
      expect.objectContaining({
        matchCount: 3,
        outcomes: ['recovered'],
        expirations: [new Date(start + 16 * MINUTE).toISOString()],
      }),
    ]);
    const asBefore = await testRule(
      portal.db,
      { kind: 'all' },
      { ...values, closesOn: 'expiry', recoveryConditions: null },
      'day',
      new Date(start + 17 * MINUTE),
    );
    expect(asBefore.subjects[0]?.outcomes).toEqual(['expired', 'expired']);
  });

  it('no data: a subject that sends nothing for the lifetime closes its match as no data, which is not a recovery', async () => {
    const field = `Cpu${randomUUID().slice(0, 8)}`;
    const spec = { lifetimeMinutes: 5, pendingMinutes: 0, recoverBelow: null };
    const values = recoveringValues(field, spec);
    const ruleId = await insertRule(values, spec);
    const entityId = randomUUID();
    const start = hoursAgo(3);
    const seen = await play(ruleId, field, entityId, start, [
      { minute: 0, value: 99 },
      { minute: 3, value: 98 },
      { minute: 7, value: null },
      { minute: 8, value: null },
    ]);
    expect(seen[2]).toEqual([expect.objectContaining({ completion_processed: false })]);
    expect(seen[3]).toEqual([
      expect.objectContaining({ completion_processed: true, outcome: 'noData', expires: new Date(start + 8 * MINUTE) }),
    ]);
    expect(await phasesOf(ruleId)).toEqual(['match', 'expiration']);
    const tested = await testRule(portal.db, { kind: 'all' }, values, 'day', new Date(start + 8 * MINUTE));
    expect(tested.subjects[0]?.outcomes).toEqual(['noData']);
  });

  it('a sweep reaches every recovering match, a batch at a time', async () => {
    const field = `Cpu${randomUUID().slice(0, 8)}`;
    const spec = { lifetimeMinutes: 10, pendingMinutes: 0, recoverBelow: null };
    const ruleId = await insertRule(recoveringValues(field, spec), spec);
    const entities = Array.from({ length: 5 }, () => randomUUID());
    const at = (value: number, secondsAgo: number) =>
      entities.map((entityId) => ({
        entityId,
        timestamp: new Date(Date.now() - secondsAgo * 1000).toISOString(),
        message: { Metrics: { [field]: value } },
      }));
    await post(at(95, 2));
    await post(at(10, 0));
    // Batches of two over five matches (and every other recovering match there is): all five recover.
    await sweepRecovery(portal.db, new Date(), 2);
    const rows = await matchesOf(ruleId);
    expect(rows.map((row) => row.outcome)).toEqual(['recovered', 'recovered', 'recovered', 'recovered', 'recovered']);
  });

  it('the Test and the live path agree on pending, recovery, hysteresis and no data over random packet sequences', async () => {
    const start = hoursAgo(8);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          lifetimeMinutes: fc.integer({ min: 5, max: 7 }),
          pendingMinutes: fc.integer({ min: 0, max: 3 }),
          recoverBelow: fc.constantFrom(null, 80),
          batches: fc.array(
            fc.record({
              minutes: fc.integer({ min: 1, max: 4 }),
              packets: fc.uniqueArray(
                fc.record({ subject: fc.integer({ min: 0, max: 1 }), value: fc.constantFrom(95, 95, 85, 50) }),
                { selector: (packet) => packet.subject, minLength: 1, maxLength: 2 },
              ),
            }),
            { minLength: 1, maxLength: 10 },
          ),
          tailMinutes: fc.integer({ min: 0, max: 10 }),
        }),
        async (plan) => {
          runs += 1;
          const field = `Load${randomUUID().replaceAll('-', '')}`;
          const entities = [randomUUID(), randomUUID()];
          const values = recoveringValues(field, plan, `Recovery ${runs}`);
          const ruleId = await insertRule(values, plan);
          const rule: RecoveringRule = {
            lifetimeSeconds: plan.lifetimeMinutes * 60,
            pendingSeconds: plan.pendingMinutes * 60,
          };
          const expected: ReplayedMatch[][] = [[], []];
          vi.useFakeTimers({ toFake: ['Date'] });
          let at = start;
          try {
            for (const batch of plan.batches) {
              const next = at + batch.minutes * MINUTE;
              for (let minute = at + MINUTE; minute <= next; minute += MINUTE) await sweep(minute);
              at = next;
              vi.setSystemTime(at);
              await post(
                batch.packets.map(({ subject, value }) => ({
                  entityId: entities[subject],
                  timestamp: new Date(at).toISOString(),
                  message: { Metrics: { [field]: value } },
                })),
              );
              await sweep(at);
              for (const { subject, value } of batch.packets)
                replayRecovering(expected[subject]!, at, rule, {
                  holds: value > 90,
                  conditionsHold: value > 90,
                  recovered: plan.recoverBelow === null ? value <= 90 : value < plan.recoverBelow,
                });
            }
            const end = at + plan.tailMinutes * MINUTE;
            for (let minute = at + MINUTE; minute <= end; minute += MINUTE) await sweep(minute);
            for (const matches of expected) replayRecoveringDue(matches, end, rule);

            // The live path holds the matches the semantics say, match by match.
            const live = await matchesOf(ruleId);
            const want = entities
              .map((entityId, subject) => ({ entityId, matches: expected[subject]! }))
              .sort((a, b) => a.entityId.localeCompare(b.entityId))
              .flatMap(({ entityId, matches }) =>
                matches.map((match) => ({
                  entityId,
                  first: match.first,
                  last: match.last,
                  count: match.count,
                  expires: match.expires,
                  closed: match.closed,
                  pending: match.pending ?? false,
                  outcome: match.outcome ?? null,
                })),
              );
            expect(live.map((row) => ({ ...liveMatch(row), pending: row.pending }))).toEqual(want);

            // The Test over the stored packets tells what the live path did (a pending match has not opened).
            const tested = await testRule(portal.db, { kind: 'all' }, values, 'day', new Date(end));
            const opened = live.filter((row) => !row.pending);
            const subjects = entities
              .map((subjectId) => ({ subjectId, rows: opened.filter((row) => row.subject_id === subjectId) }))
              .filter(({ rows }) => rows.length > 0)
              .map(({ subjectId, rows }) => testedSubject(subjectId, null, rows))
              .sort((a, b) => b.matchCount - a.matchCount || a.subjectId.localeCompare(b.subjectId));
            expect(tested.subjects).toEqual(subjects);
            const phases = await phasesOf(ruleId);
            expect(tested.actions.map(({ phase, runs }) => ({ phase, runs }))).toEqual([
              { phase: 'match', runs: phases.filter((phase) => phase === 'match').length },
              { phase: 'expiration', runs: phases.filter((phase) => phase === 'expiration').length },
            ]);
          } finally {
            vi.useRealTimers();
            await portal.db.updateTable('rule').set({ enabled: false }).where('rule_id', '=', ruleId).execute();
            forgetRules(portal.db);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 180_000);

  it("the demo's CPU rule, as `npm start` seeds it: red over 80, still red at 75, green once under 70", async () => {
    const { rule_id: ruleId } = await portal.db
      .selectFrom('rule')
      .select('rule_id')
      .where('tenant_id', '=', DEMO.contoso)
      .where('name', '=', 'Demo agent CPU over 80%')
      .executeTakeFirstOrThrow();
    const start = hoursAgo(2);
    const seen = await play(ruleId, 'CpuPercent', DEMO.demoAgentCpu, start, [
      { minute: 0, value: 95 },
      { minute: 3, value: 75 },
      { minute: 6, value: 82 }, // past its five-minute lifetime: still the one match
      { minute: 7, value: 69 },
    ]);
    expect(seen[2]).toEqual([expect.objectContaining({ match_count: 2, completion_processed: false })]);
    expect(seen[3]).toEqual([
      expect.objectContaining({ match_count: 2, completion_processed: true, outcome: 'recovered' }),
    ]);
    // Its two match actions (red, the incident) once, and its expiration action (green) once.
    expect(await phasesOf(ruleId)).toEqual(['match', 'match', 'expiration']);
  });
});

describe('closing on recovery through the API', () => {
  const body = (values: Record<string, unknown> = {}) => ({
    name: `Recovery API ${randomUUID().slice(0, 6)}`,
    ruleTypeId: RULE_TYPES.Ingestion,
    tenantId: DEMO.contoso,
    matchLifetime: '00:05:00',
    conditions: [metric('CpuPercent', OPERATORS.GreaterThan, 90)],
    ...values,
  });
  const save = (payload: Record<string, unknown>, ruleId?: string) =>
    portal.as('admin', {
      method: ruleId ? 'POST' : 'PUT',
      url: ruleId ? `/v1/rules/${ruleId}` : '/v1/rules',
      payload,
    });

  it('a new Ingestion rule closes on recovery; a rule of before keeps closing on expiry when changed without saying', async () => {
    const created = await save(
      body({ pendingFor: '00:02:00', recoveryConditions: [metric('CpuPercent', OPERATORS.LessThan, 80)] }),
    );
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json<Rule>()).toMatchObject({
      closesOn: 'recovery',
      pendingFor: '00:02:00',
      recoveryConditions: [expect.objectContaining({ LeftOperandFieldName: 'CpuPercent', RightOperand: '80' })],
    });
    const history = await save(
      body({
        ruleTypeId: RULE_TYPES.History,
        conditions: [{ ...metric('CpuPercent', OPERATORS.GreaterThan, 90), OccurrencePattern: '2/3' }],
      }),
    );
    expect(history.json<Rule>().closesOn).toBe('expiry');

    // A rule written before this choice existed (the column's default) keeps it through a save that does not name it.
    const { rule_id: before } = await portal.db
      .insertInto('rule')
      .values({
        tenant_id: DEMO.contoso,
        name: 'Written before',
        rule_type_id: RULE_TYPES.Ingestion,
        match_lifetime_seconds: 300,
        conditions: JSON.stringify([tenantCondition(DEMO.contoso), metric('CpuPercent', OPERATORS.GreaterThan, 90)]),
      })
      .returning('rule_id')
      .executeTakeFirstOrThrow();
    const kept = await save(body({ name: 'Written before, renamed' }), before);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<Rule>()).toMatchObject({ closesOn: 'expiry', pendingFor: null, recoveryConditions: null });
    const switched = await save(body({ closesOn: 'recovery', pendingFor: '00:01:30' }), before);
    expect(switched.json<Rule>()).toMatchObject({ closesOn: 'recovery', pendingFor: '00:01:30' });
    // And a save that leaves the three out keeps what the rule now holds.
    const again = await save(body({ name: 'Written before, again' }), before);
    expect(again.json<Rule>()).toMatchObject({ closesOn: 'recovery', pendingFor: '00:01:30' });
  });

  it('refuses what cannot close on recovery, with the field and the message', async () => {
    const refused = async (payload: Record<string, unknown>, field: string, message: string) => {
      const response = await save(payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ errors: Record<string, string[]> }>().errors[field]).toEqual([message]);
    };
    await refused(
      body({
        ruleTypeId: RULE_TYPES.History,
        closesOn: 'recovery',
        conditions: [{ ...metric('CpuPercent', OPERATORS.GreaterThan, 90), OccurrencePattern: '2/3' }],
      }),
      'closesOn',
      RULE_MESSAGES.recoveryOnlyIngestion,
    );
    await refused(
      body({ closesOn: 'expiry', pendingFor: '00:05:00' }),
      'pendingFor',
      RULE_MESSAGES.pendingNeedsRecovery,
    );
    await refused(
      body({ closesOn: 'expiry', recoveryConditions: [metric('CpuPercent', OPERATORS.LessThan, 80)] }),
      'recoveryConditions',
      RULE_MESSAGES.recoveryConditionsNeedRecovery,
    );
    await refused(body({ pendingFor: '5 minutes' }), 'pendingFor', RULE_MESSAGES.pendingFormat);
    await refused(body({ closesOn: 'whenever' }), 'closesOn', expect.any(String) as unknown as string);
    const unknown = await save(body({ recoveryCondition: [] }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('recoveryCondition');
  });
});
