import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { NOTIFICATION_POLICY_MESSAGES } from '@cfs/contracts/notification-policy';
import { DEMO } from '../src/db/demo-ids.js';
import { ruleActionTask } from '../src/engines/rules/actions.js';
import { sweepRecovery } from '../src/engines/rules/recovery.js';
import { releaseEndedMaintenance } from '../src/engines/rules/maintenance-end.js';
import { repeatNotifications } from '../src/engines/rules/repeat.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import { holdUnderStartedSilences } from '../src/engines/rules/silences.js';
import { createTokenAs } from './factories.js';
import type { TestPortal } from './harness.js';
import { createMetricRule, MINUTE, postMetric, red, withRulePortal } from './rule-factories.js';

let portal: TestPortal;
const tokens = new Map<string, string>();
withRulePortal(async (opened) => {
  portal = opened.portal;
  tokens.set(DEMO.contoso, opened.token);
  tokens.set(DEMO.fabrikam, (await createTokenAs(portal, 'admin', DEMO.fabrikam)).generatedToken);
});

const email = {
  ActionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
  Parameters: { Template: 'Rule', IsImportant: 'true' },
};

/** A recovering rule of the tenant on its own field (above 90), that colours and mails. */
const rule = (tenantId: string, field: string) =>
  createMetricRule(portal, tenantId, field, {
    name: `Repeat ${field}`,
    lifetimeSeconds: 86_400,
    matchActions: [red, email],
  });

const send = (tenantId: string, entityId: string, field: string, value: number) =>
  postMetric(portal, tokens.get(tenantId)!, { entityId, field, value });

async function openMatch(ruleId: string) {
  return portal.db
    .selectFrom('rule_match')
    .selectAll()
    .where('rule_id', '=', ruleId)
    .where('completion_processed', '=', false)
    .executeTakeFirstOrThrow();
}

/** The keys of a match's action jobs, after its id. */
async function jobKeys(ruleMatchId: string): Promise<string[]> {
  const jobs = await portal.db
    .selectFrom('job')
    .select('key')
    .where('task', '=', ruleActionTask.name)
    .where('key', 'like', `${ruleMatchId}:%`)
    .orderBy('job_id')
    .execute();
  return jobs.map((job) => job.key.slice(ruleMatchId.length + 1));
}

const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE);

/** Contoso's policy repeats every `span` (HH:mm:ss), or not at all. */
const contosoRepeats = (span: string | null) =>
  portal.as('operator', {
    method: 'PUT',
    url: `/v1/notificationpolicy/${DEMO.contoso}`,
    payload: { repeatEvery: span },
  });

describe('repeat notifications', () => {
  it('the tenant’s policy, read and set through the API: none at first, a span from a minute to a week, audited', async () => {
    const first = await portal.as('operator2', { method: 'GET', url: `/v1/notificationpolicy/${DEMO.fabrikam}` });
    expect(first.json()).toMatchObject({ tenantId: DEMO.fabrikam, repeatEvery: null, modified: null });
    const saved = await portal.as('operator2', {
      method: 'PUT',
      url: `/v1/notificationpolicy/${DEMO.fabrikam}`,
      payload: { repeatEvery: '00:30:00' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ repeatEvery: '00:30:00', modifiedBy: 'operator2' });
    for (const repeatEvery of ['00:00:30', '200:00:00', '30 minutes']) {
      const refused = await portal.as('operator2', {
        method: 'PUT',
        url: `/v1/notificationpolicy/${DEMO.fabrikam}`,
        payload: { repeatEvery },
      });
      expect(refused.statusCode, repeatEvery).toBe(400);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors.repeatEvery).toEqual([
        NOTIFICATION_POLICY_MESSAGES.repeatInvalid,
      ]);
    }
    // Another tenant's policy is not there for Contoso's operator; a reader may not change it.
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/notificationpolicy/${DEMO.fabrikam}` })).statusCode,
    ).toBe(404);
    expect(
      (
        await portal.as('enduser', {
          method: 'PUT',
          url: `/v1/notificationpolicy/${DEMO.contoso}`,
          payload: { repeatEvery: null },
        })
      ).statusCode,
    ).toBe(403);
    const audited = await portal.db
      .selectFrom('audit_event')
      .select(['action', 'entity_type'])
      .where('entity_id', '=', DEMO.fabrikam)
      .where('entity_type', '=', 'notificationPolicy')
      .execute();
    expect(audited).toEqual([{ action: 'create', entity_type: 'notificationPolicy' }]);
    await portal.as('operator2', {
      method: 'PUT',
      url: `/v1/notificationpolicy/${DEMO.fabrikam}`,
      payload: { repeatEvery: null },
    });
  });

  it('runs the notifying actions of an unacknowledged open match again every period, once each with several workers, and stops when it is acknowledged', async () => {
    const set = await contosoRepeats('00:05:00');
    expect(set.statusCode, set.body).toBe(200);
    const field = `Rep${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(DEMO.contoso, field);
    await send(DEMO.contoso, randomUUID(), field, 95);
    const match = await openMatch(ruleId);
    expect(await jobKeys(match.rule_match_id)).toEqual(['match:0', 'match:1']);

    const mine = async (at: Date) => {
      await Promise.all([repeatNotifications(portal.db, at), repeatNotifications(portal.db, at)]);
      return jobKeys(match.rule_match_id);
    };
    // Not before the period; then the email again (not the colour), once though two workers swept.
    expect(await mine(later(4))).toEqual(['match:0', 'match:1']);
    expect(await mine(later(5.5))).toEqual(['match:0', 'match:1', 'match:repeat:1:1']);
    expect(await mine(later(6))).toEqual(['match:0', 'match:1', 'match:repeat:1:1']);
    expect(await mine(later(11))).toEqual(['match:0', 'match:1', 'match:repeat:1:1', 'match:repeat:2:1']);
    expect((await openMatch(ruleId)).repeats).toBe(2);
    // Each repeat's notification says which reminder it is.
    const repeats = await portal.db
      .selectFrom('job')
      .select(['key', 'payload'])
      .where('task', '=', ruleActionTask.name)
      .where('key', 'like', `${match.rule_match_id}:match:repeat:%`)
      .orderBy('job_id')
      .execute();
    expect(repeats.map((job) => (job.payload as { repeat?: number }).repeat)).toEqual([1, 2]);

    // Acknowledged: no more repeats.
    const acknowledged = await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/acknowledge',
      payload: { ruleMatchIds: [match.rule_match_id] },
    });
    expect(acknowledged.statusCode).toBe(200);
    expect(await mine(later(30))).toHaveLength(4);
  });

  it('does not repeat a silenced match, a closed one, or one of a tenant whose policy does not repeat', async () => {
    await contosoRepeats('00:05:00');
    const field = `Hold${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(DEMO.contoso, field);
    const [silencedEntity, closedEntity] = [randomUUID(), randomUUID()];
    await send(DEMO.contoso, silencedEntity, field, 95);
    await send(DEMO.contoso, closedEntity, field, 95);
    const matches = await portal.db.selectFrom('rule_match').selectAll().where('rule_id', '=', ruleId).execute();
    const silenced = matches.find((row) => row.subject_id === silencedEntity)!;
    const closed = matches.find((row) => row.subject_id === closedEntity)!;
    const answer = await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/silence',
      payload: { ruleMatchIds: [silenced.rule_match_id], duration: '04:00:00' },
    });
    expect(answer.statusCode).toBe(200);
    await send(DEMO.contoso, closedEntity, field, 20);
    await sweepRecovery(portal.db);
    await repeatNotifications(portal.db, later(10));
    expect(await jobKeys(silenced.rule_match_id)).toEqual(['match:0', 'match:1']);
    expect(await jobKeys(closed.rule_match_id)).toEqual(['match:0', 'match:1']);

    // Fabrikam's policy does not repeat: its open match is left alone.
    await portal.as('operator2', {
      method: 'PUT',
      url: `/v1/notificationpolicy/${DEMO.fabrikam}`,
      payload: { repeatEvery: null },
    });
    const fabrikamField = `Fab${randomUUID().slice(0, 8)}`;
    const fabrikamRule = await rule(DEMO.fabrikam, fabrikamField);
    await send(DEMO.fabrikam, randomUUID(), fabrikamField, 99);
    const fabrikamMatch = await openMatch(fabrikamRule);
    await repeatNotifications(portal.db, later(60));
    expect(await jobKeys(fabrikamMatch.rule_match_id)).toEqual(['match:0', 'match:1']);
  });

  it('a silence made ahead holds the open match it covers once it starts: no repeat from then, held by the sweep, told of again after each silence', async () => {
    await contosoRepeats('00:05:00');
    const field = `Ahead${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(DEMO.contoso, field);
    const entityId = randomUUID();
    await send(DEMO.contoso, entityId, field, 95);
    const match = await openMatch(ruleId);
    const made = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/silences',
      payload: {
        tenantId: DEMO.contoso,
        subjectId: entityId,
        starts: later(1).toISOString(),
        ends: later(60).toISOString(),
        note: 'Planned work',
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    // Not started when it was made: the match is not held yet.
    expect((await openMatch(ruleId)).in_maintenance).toBe(false);
    // Its repeat falls due under the silence, before the sweep holds the match: none goes.
    await repeatNotifications(portal.db, later(10));
    expect(await jobKeys(match.rule_match_id)).toEqual(['match:0', 'match:1']);
    // The sweep holds it from the silence's start, once.
    expect(await holdUnderStartedSilences(portal.db, later(0.5))).toBe(0);
    expect(await holdUnderStartedSilences(portal.db, later(2))).toBe(1);
    expect(await holdUnderStartedSilences(portal.db, later(2))).toBe(0);
    expect((await openMatch(ruleId)).in_maintenance).toBe(true);
    // Over, the problem still there: its actions run once; silenced again and over again, once more.
    forgetRules(portal.db);
    const first = later(61);
    await releaseEndedMaintenance(portal.db, first);
    expect((await openMatch(ruleId)).in_maintenance).toBe(false);
    const again = await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/silence',
      payload: { ruleMatchIds: [match.rule_match_id], duration: '00:30:00' },
    });
    expect(again.statusCode, again.body).toBe(200);
    forgetRules(portal.db);
    const second = later(62);
    await releaseEndedMaintenance(portal.db, second);
    expect(await jobKeys(match.rule_match_id)).toEqual([
      'match:0',
      'match:1',
      `match:after-maintenance:${first.getTime()}:0`,
      `match:after-maintenance:${first.getTime()}:1`,
      `match:after-maintenance:${second.getTime()}:0`,
      `match:after-maintenance:${second.getTime()}:1`,
    ]);
    await contosoRepeats(null);
  });
});
