import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RULE_MATCH_MESSAGES, type RuleMatchRow } from '@cfs/contracts/rule-matches';
import { SILENCE_MESSAGES } from '@cfs/contracts/silences';
import { DEMO } from '../src/db/demo-ids.js';
import { ruleActionTask } from '../src/engines/rules/actions.js';
import { releaseEndedMaintenance } from '../src/engines/rules/maintenance-end.js';
import { sweepRecovery } from '../src/engines/rules/recovery.js';
import { expireMatches } from '../src/engines/rules/matches.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import type { TestPortal } from './harness.js';
import { createMetricRule, green, postMetric, red, withRulePortal } from './rule-factories.js';

let portal: TestPortal;
let token: string;
withRulePortal((opened) => ({ portal, token } = opened));

/** A recovering Ingestion rule of Contoso on its own field: above 90 opens, 90 or below recovers. */
const rule = (field: string) =>
  createMetricRule(portal, DEMO.contoso, field, {
    name: `Silenced ${field}`,
    matchActions: [red],
    expirationActions: [green],
  });

const send = (entityId: string, field: string, value: number, name = 'Pump 7') =>
  postMetric(portal, token, { entityId, field, value, name });

async function matches(ruleId: string) {
  return portal.db.selectFrom('rule_match').selectAll().where('rule_id', '=', ruleId).orderBy('created').execute();
}

/** The action jobs of a match: phase and whether suppressed. */
async function jobsOf(ruleMatchId: string) {
  const jobs = await portal.db
    .selectFrom('job')
    .select(['key', 'payload'])
    .where('task', '=', ruleActionTask.name)
    .where('key', 'like', `${ruleMatchId}:%`)
    .orderBy('job_id')
    .execute();
  return jobs.map(({ key, payload }) => ({
    key: key.slice(ruleMatchId.length + 1),
    suppressed: (payload as { suppressed: boolean }).suppressed,
  }));
}

async function listed(user: string, ruleId: string) {
  const response = await portal.as(user, {
    method: 'GET',
    url: `/v1/rulematches?$filter=ruleId eq ${ruleId}&$orderby=created asc`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ value: RuleMatchRow[] }>().value;
}

describe('acknowledging matches', () => {
  it('records who took the open matches on, when and their note; refuses closed ones, other tenants’ and readers', async () => {
    const field = `Ack${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(field);
    const [first, second] = [randomUUID(), randomUUID()];
    await send(first, field, 95);
    await send(second, field, 96);
    const [a, b] = await matches(ruleId);
    const answer = await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/acknowledge',
      payload: { ruleMatchIds: [a!.rule_match_id, b!.rule_match_id], note: 'On it: pump room 2' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ count: 2, message: RULE_MATCH_MESSAGES.acknowledged(2) });
    const rows = await listed('operator', ruleId);
    expect(rows.map((row) => [row.acknowledgedBy, row.acknowledgement])).toEqual([
      ['operator', 'On it: pump room 2'],
      ['operator', 'On it: pump room 2'],
    ]);
    expect(rows[0]!.acknowledged).not.toBeNull();
    const audited = await portal.db
      .selectFrom('audit_event')
      .select('action')
      .where('entity_id', '=', a!.rule_match_id)
      .execute();
    expect(audited).toEqual([{ action: 'acknowledge' }]);

    // Another tenant's operator does not see them; a viewer without Rules edit may not; a closed match cannot be.
    const foreign = await portal.as('operator2', {
      method: 'POST',
      url: '/v1/rulematches/acknowledge',
      payload: { ruleMatchIds: [a!.rule_match_id] },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await portal.as('enduser', {
          method: 'POST',
          url: '/v1/rulematches/acknowledge',
          payload: { ruleMatchIds: [a!.rule_match_id] },
        })
      ).statusCode,
    ).toBe(403);
    await send(first, field, 50);
    await sweepRecovery(portal.db);
    const closed = await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/acknowledge',
      payload: { ruleMatchIds: [a!.rule_match_id] },
    });
    expect(closed.statusCode).toBe(400);
    expect(closed.json<{ message: string }>().message).toBe(RULE_MATCH_MESSAGES.notOpen);
    // The acknowledgement ends with its match: the subject's next match is not acknowledged.
    await send(first, field, 97);
    const next = (await matches(ruleId)).find((row) => row.subject_id === first && !row.completion_processed)!;
    expect(next.acknowledged).toBeNull();
    const empty = await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/acknowledge',
      payload: { ruleMatchIds: [], notes: 'x' },
    });
    expect(empty.statusCode).toBe(400);
  });
});

describe('silences', () => {
  it('a silence from a match holds back its closing and the next match of its subject, and runs the match actions once it ends if the problem is still there', async () => {
    const field = `Sil${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(field);
    const entityId = randomUUID();
    await send(entityId, field, 95);
    const [open] = await matches(ruleId);
    const answer = await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/silence',
      payload: { ruleMatchIds: [open!.rule_match_id], duration: '02:00:00', note: 'Known, vendor on site' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ count: 1, message: RULE_MATCH_MESSAGES.silenced(1) });
    const [shown] = await listed('operator', ruleId);
    expect(new Date(shown!.silencedUntil!).getTime()).toBeGreaterThan(Date.now() + 7_000_000);
    expect(shown!.inMaintenance).toBe(true);

    // It recovers while silenced: its expiration actions are recorded, suppressed.
    forgetRules(portal.db);
    await send(entityId, field, 40);
    await sweepRecovery(portal.db);
    expect(await jobsOf(open!.rule_match_id)).toEqual([
      { key: 'match:0', suppressed: false },
      { key: 'expiration:0', suppressed: true },
    ]);
    // Closed, it shows no silence, though one still covers its subject.
    expect((await listed('operator', ruleId))[0]).toMatchObject({ completionProcessed: true, silencedUntil: null });
    // The problem comes back under the silence: the new match opens held back.
    await send(entityId, field, 98);
    const reopened = (await matches(ruleId)).find((row) => !row.completion_processed)!;
    expect(reopened.in_maintenance).toBe(true);
    expect(await jobsOf(reopened.rule_match_id)).toEqual([{ key: 'match:0', suppressed: true }]);
    expect(await releaseEndedMaintenance(portal.db)).toBe(0);

    // Ended early from the silences list, with the problem still there: the match actions run now, once.
    const silences = await portal.as('operator', {
      method: 'GET',
      url: `/v1/silences?$filter=ruleId eq ${ruleId}&$expand=rule`,
    });
    expect(silences.statusCode, silences.body).toBe(200);
    const [silence] = silences.json<{
      value: { ruleSilenceId: string; subjectId: string; note: string; rule: { name: string } }[];
    }>().value;
    expect(silence).toMatchObject({
      subjectId: entityId,
      note: 'Known, vendor on site',
      rule: { name: `Silenced ${field}` },
    });
    const ended = await portal.as('operator', { method: 'DELETE', url: `/v1/silences/${silence!.ruleSilenceId}` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({ message: SILENCE_MESSAGES.ended });
    forgetRules(portal.db);
    expect(await releaseEndedMaintenance(portal.db)).toBe(1);
    expect(await jobsOf(reopened.rule_match_id)).toEqual([
      { key: 'match:0', suppressed: true },
      { key: expect.stringMatching(/^match:after-maintenance:\d+:0$/), suppressed: false },
    ]);
    expect((await listed('operator', ruleId)).at(-1)!.silencedUntil).toBeNull();
  });

  it('a silence made ahead, by label, holds back the matches of every entity of that label while it lasts, and none before it starts', async () => {
    const field = `Ahead${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(field);
    const label = `Pump ${randomUUID().slice(0, 4)}`;
    const now = Date.now();
    const create = (starts: number, ends: number, values: Record<string, unknown> = {}) =>
      portal.as('operator', {
        method: 'PUT',
        url: '/v1/silences',
        payload: {
          tenantId: DEMO.contoso,
          label,
          starts: new Date(starts).toISOString(),
          ends: new Date(ends).toISOString(),
          note: 'Pump overhaul',
          ...values,
        },
      });
    const later = await create(now + 3_600_000, now + 7_200_000);
    expect(later.statusCode, later.body).toBe(200);
    forgetRules(portal.db);
    const [before, other] = [randomUUID(), randomUUID()];
    await send(before, field, 95, label.toUpperCase());
    expect((await matches(ruleId))[0]!.in_maintenance).toBe(false);

    const current = await create(now - 60_000, now + 3_600_000);
    expect(current.statusCode, current.body).toBe(200);
    // The open match of that label is held back at once; a new one of the label opens held back; another label's does not.
    expect((await matches(ruleId))[0]!.in_maintenance).toBe(true);
    forgetRules(portal.db);
    const during = randomUUID();
    await send(during, field, 96, label.toLowerCase());
    await send(other, field, 97, 'Boiler 1');
    const bySubject = new Map((await matches(ruleId)).map((row) => [row.subject_id, row.in_maintenance]));
    expect(bySubject.get(during)).toBe(true);
    expect(bySubject.get(other)).toBe(false);

    // What a silence must be: an end after its start and in the future, a rule of its tenant; nothing unknown.
    const refused = async (response: Awaited<ReturnType<typeof create>>, field: string, message: string) => {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ errors: Record<string, string[]> }>().errors[field], response.body).toEqual([message]);
    };
    await refused(await create(now, now - 1000), 'ends', SILENCE_MESSAGES.endsAfterStarts);
    await refused(await create(now - 7_200_000, now - 3_600_000), 'ends', SILENCE_MESSAGES.endsPassed);
    // Times are ISO 8601 instants: no number, no bare year, no date in words, no year of six digits.
    for (const [name, text] of [
      ['starts', '1'],
      ['ends', '2030'],
      ['ends', 'December 2, 2030'],
      ['ends', '+275760-09-13T00:00:00Z'],
    ] as const)
      await refused(
        await create(now, now + 60_000, { [name]: text }),
        name,
        name === 'starts' ? SILENCE_MESSAGES.startsInvalid : SILENCE_MESSAGES.endsInvalid,
      );
    const fabrikamRule = await portal.db
      .insertInto('rule')
      .values({
        tenant_id: DEMO.fabrikam,
        name: 'Fabrikam only',
        rule_type_id: 1,
        match_lifetime_seconds: 300,
        conditions: '[]',
      })
      .returning('rule_id')
      .executeTakeFirstOrThrow();
    await refused(
      await create(now, now + 60_000, { ruleId: fabrikamRule.rule_id }),
      'ruleId',
      SILENCE_MESSAGES.ruleOfTenant,
    );
    const unknown = await create(now, now + 60_000, { matcher: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('matcher');
    // Fabrikam's operator neither sees Contoso's silences nor can make one for Contoso.
    const foreign = await portal.as('operator2', { method: 'GET', url: `/v1/silences?$filter=label eq '${label}'` });
    expect(foreign.json<{ value: unknown[] }>().value).toEqual([]);
    const made = await portal.as('operator2', {
      method: 'PUT',
      url: '/v1/silences',
      payload: {
        tenantId: DEMO.contoso,
        starts: new Date(now).toISOString(),
        ends: new Date(now + 60_000).toISOString(),
      },
    });
    expect(made.statusCode).toBe(400);

    // Ending a silence is in its change history once: asked again, the ended silence stays as it was.
    const { ruleSilenceId } = current.json<{ ruleSilenceId: string }>();
    for (let time = 0; time < 2; time += 1) {
      const ended = await portal.as('operator', { method: 'DELETE', url: `/v1/silences/${ruleSilenceId}` });
      expect(ended.json()).toEqual({ message: SILENCE_MESSAGES.ended });
    }
    const history = await portal.as('operator', {
      method: 'GET',
      url: `/v1/auditEvents?entityType=ruleSilence&entityId=${ruleSilenceId}`,
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json<{ value: { action: string }[] }>().value.map((event) => event.action)).toEqual([
      'delete',
      'create',
    ]);
    await expireMatches(portal.db);
  });
});
