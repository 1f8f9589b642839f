import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ACTIONS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { NOTIFICATION_POLICY_MESSAGES, type NotificationPolicyInput } from '@cfs/contracts/notification-policy';
import { ruleInputSchema, tenantCondition } from '@cfs/contracts/rules';
import { DEMO } from '../src/db/demo-ids.js';
import { ruleActionTask } from '../src/engines/rules/actions.js';
import { replayNotifications, sendGroups } from '../src/engines/rules/groups.js';
import { releaseEndedMaintenance } from '../src/engines/rules/maintenance-end.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import { testRule } from '../src/engines/rules/test-run.js';
import { repeatNotifications } from '../src/engines/rules/repeat.js';
import { createDevice } from './factories.js';
import type { TestPortal } from './harness.js';
import { createMetricRule, metricAbove, postMetric, red, withRulePortal } from './rule-factories.js';

let portal: TestPortal;
let token: string;
withRulePortal((opened) => ({ portal, token } = opened));

const SECOND = 1000;
const later = (seconds: number) => new Date(Date.now() + seconds * SECOND);
const email = {
  ActionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
  Parameters: { Template: 'Rule', IsImportant: 'false' },
};

async function policy(input: NotificationPolicyInput) {
  const answer = await portal.as('operator', {
    method: 'PUT',
    url: `/v1/notificationpolicy/${DEMO.contoso}`,
    payload: input,
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

/** A Contoso rule on its own field (above 90) that colours and mails. */
const rule = (field: string) =>
  createMetricRule(portal, DEMO.contoso, field, {
    name: `Group ${field}`,
    lifetimeSeconds: 86_400,
    matchActions: [red, email],
  });

const send = (entityId: string, field: string, value: number, timestamp?: Date) =>
  postMetric(portal, token, { entityId, field, value, ...(timestamp ? { timestamp } : {}) });

async function matchesOf(...ruleIds: string[]) {
  return portal.db
    .selectFrom('rule_match')
    .selectAll()
    .where('rule_id', 'in', ruleIds)
    .where('completion_processed', '=', false)
    .orderBy('created')
    .execute();
}

/** Runs the pending rule action jobs of these matches as a worker would, each once; their keys after the match id. */
async function runJobs(ruleMatchIds: readonly string[]): Promise<string[]> {
  const jobs = await portal.db
    .selectFrom('job')
    .select(['job_id', 'key', 'payload'])
    .where('task', '=', ruleActionTask.name)
    .where('state', '=', 'pending')
    .where((eb) => eb.or(ruleMatchIds.map((id) => eb('key', 'like', `${id}:%`))))
    .orderBy('job_id')
    .execute();
  for (const job of jobs) {
    await ruleActionTask.perform(ruleActionTask.payload.parse(job.payload), {
      db: portal.db,
      jobId: Number(job.job_id),
      key: job.key,
      attempt: 1,
    });
    await portal.db
      .updateTable('job')
      .set({ state: 'done', finished: new Date() })
      .where('job_id', '=', job.job_id)
      .execute();
  }
  // A group's notification is keyed by when its match was held (`:notify:<ms>`), left out here.
  return jobs.map((job) => job.key.replace(/^[0-9a-f-]{36}:/, '').replace(/:notify:\d+/, ':notify'));
}

/** The emails the matches' actions wrote, oldest first. */
async function emailsOf(ruleMatchIds: readonly string[]) {
  return portal.db
    .selectFrom('email_outbox')
    .select(['subject', 'body', 'to_addresses', 'job_key'])
    .where((eb) => eb.or(ruleMatchIds.map((id) => eb('job_key', 'like', `${id}:%`))))
    .orderBy('email_id')
    .execute();
}

describe('what a policy makes of replayed matches', () => {
  const MINUTE = 60 * SECOND;
  const policy = { grouped: true, groupWaitMs: 30 * SECOND, repeatMs: 5 * MINUTE };
  it('groups the matches of a key that open within the wait, leaves out those closed by then, repeats while one is open', () => {
    const matches = [
      { key: 'a', opened: 0, closes: 2 * MINUTE },
      { key: 'a', opened: 10 * SECOND, closes: 12 * MINUTE },
      { key: 'a', opened: 20 * SECOND, closes: 25 * SECOND },
      { key: 'b', opened: 5 * SECOND, closes: null },
      { key: 'a', opened: 40 * SECOND, closes: 50 * SECOND },
    ];
    // a: one notification at 30 s (12 min open: repeats at 5:30 and 10:30), the match of 40 s closed before its own;
    // b: one at 35 s, open to the end (20 min): repeats at 5:35, 10:35, 15:35.
    expect(replayNotifications(matches, policy, 20 * MINUTE)).toEqual({ sent: 2, repeats: 5 });
    // Alone, each match notifies as it opens and repeats while it is open.
    expect(replayNotifications(matches, { ...policy, grouped: false }, 20 * MINUTE)).toEqual({ sent: 5, repeats: 5 });
    expect(replayNotifications(matches, { ...policy, repeatMs: null }, 20 * MINUTE)).toEqual({ sent: 2, repeats: 0 });
  });
});

describe('grouped notifications', () => {
  it('the policy names what matches are grouped by and how long the first waits; bad values are refused by name', async () => {
    await policy({ repeatEvery: null, groupBy: 'location', groupWait: '00:01:00' });
    const read = await portal.as('operator', { method: 'GET', url: `/v1/notificationpolicy/${DEMO.contoso}` });
    expect(read.json()).toMatchObject({ repeatEvery: null, groupBy: 'location', groupWait: '00:01:00' });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ repeatEvery: null, groupBy: 'device' }, 'groupBy', NOTIFICATION_POLICY_MESSAGES.groupByInvalid],
      [
        { repeatEvery: null, groupBy: 'rule', groupWait: '00:00:05' },
        'groupWait',
        NOTIFICATION_POLICY_MESSAGES.groupWaitInvalid,
      ],
      [
        { repeatEvery: null, groupBy: 'rule', groupWait: '02:00:00' },
        'groupWait',
        NOTIFICATION_POLICY_MESSAGES.groupWaitInvalid,
      ],
    ];
    for (const [payload, field, message] of cases) {
      const refused = await portal.as('operator', {
        method: 'PUT',
        url: `/v1/notificationpolicy/${DEMO.contoso}`,
        payload,
      });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors[field]).toEqual([message]);
    }
    const unknown = await portal.as('operator', {
      method: 'PUT',
      url: `/v1/notificationpolicy/${DEMO.contoso}`,
      payload: { repeatEvery: null, groupInterval: '00:05:00' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('groupInterval');
    // Left out, the grouping is off and the wait its default.
    await policy({ repeatEvery: null });
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/notificationpolicy/${DEMO.contoso}` })).json(),
    ).toMatchObject({ groupBy: null, groupWait: '00:00:30' });
  });

  it('by rule: the colour at once, one email for the matches that opened within the wait, sent once by several workers', async () => {
    await policy({ repeatEvery: null, groupBy: 'rule', groupWait: '00:00:30' });
    const field = `Grp${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(field);
    const entities = [randomUUID(), randomUUID(), randomUUID()];
    for (const entity of entities) await send(entity, field, 95);
    const opened = await matchesOf(ruleId);
    expect(opened).toHaveLength(3);
    const ids = opened.map((match) => match.rule_match_id);
    // Each match's colour runs as it opens; its email is held for the group.
    await runJobs(ids);
    expect(await emailsOf(ids)).toEqual([]);
    const colours = await portal.db
      .selectFrom('entity_color')
      .select('entity_id')
      .where('entity_id', 'in', entities)
      .execute();
    expect(colours).toHaveLength(3);
    const held = await matchesOf(ruleId);
    expect(held.every((match) => match.grouped !== null && match.group_key === ruleId && match.notified === null)).toBe(
      true,
    );

    // Not before the wait is over; then one notification, though two sweeps ran at once.
    expect(await sendGroups(portal.db, later(20))).toBe(0);
    await Promise.all([sendGroups(portal.db, later(31)), sendGroups(portal.db, later(31))]);
    expect(await sendGroups(portal.db, later(40))).toBe(0);
    expect(await runJobs(ids)).toEqual(['match:notify:group:1']);
    const emails = await emailsOf(ids);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      subject: `Rule notification: Group ${field}: 3 matches`,
      to_addresses: 'noc@contoso.example',
    });
    for (const entity of entities) expect(emails[0]!.body).toContain(entity);
    const history = await portal.db
      .selectFrom('action_history')
      .select(['rule_match_id', 'result_detail'])
      .where('action_definition_id', '=', BUILT_IN_ACTIONS.sendEmail.id)
      .where('rule_match_id', 'in', ids)
      .execute();
    expect(history).toHaveLength(1);
    expect(history[0]!.result_detail).toContain(`One notification for 3 matches of rule "Group ${field}".`);
    expect((await matchesOf(ruleId)).every((match) => match.notified !== null)).toBe(true);

    // A match that opens after the group went starts a group of its own: alone, it notifies as a match alone does.
    const late = randomUUID();
    await send(late, field, 97);
    const lateMatch = (await matchesOf(ruleId)).find((match) => match.subject_id === late)!;
    await runJobs([lateMatch.rule_match_id]);
    await sendGroups(portal.db, later(31));
    expect(await runJobs([lateMatch.rule_match_id])).toEqual(['match:notify:1']);
    const alone = await emailsOf([lateMatch.rule_match_id]);
    expect(alone.map((each) => each.subject)).toEqual([`Rule notification: Group ${field}: ${late}`]);
  });

  it('by location: matches of several rules at one site in one email, each site its own, the subjects of no device under "No location"; an acknowledged match is left out', async () => {
    await policy({ repeatEvery: null, groupBy: 'location', groupWait: '00:00:10' });
    const sites = await portal.db
      .insertInto('location')
      .values([
        { tenant_id: DEMO.contoso, name: `North ${randomUUID().slice(0, 4)}` },
        { tenant_id: DEMO.contoso, name: `South ${randomUUID().slice(0, 4)}` },
      ])
      .returning(['location_id', 'name'])
      .execute();
    const [north, south] = sites;
    const northDevices = [
      await createDevice(portal, DEMO.contoso, DEMO.contosoProduction, { locationId: north!.location_id }),
      await createDevice(portal, DEMO.contoso, DEMO.contosoProduction, { locationId: north!.location_id }),
    ];
    const southDevice = await createDevice(portal, DEMO.contoso, DEMO.contosoProduction, {
      locationId: south!.location_id,
    });
    const acknowledgedDevice = await createDevice(portal, DEMO.contoso, DEMO.contosoProduction, {
      locationId: north!.location_id,
    });
    const [cpu, disk] = [`Cpu${randomUUID().slice(0, 8)}`, `Dsk${randomUUID().slice(0, 8)}`];
    const rules = [await rule(cpu), await rule(disk)];
    await send(northDevices[0]!.deviceId, cpu, 95);
    await send(northDevices[1]!.deviceId, disk, 95);
    await send(acknowledgedDevice.deviceId, cpu, 95);
    await send(southDevice.deviceId, cpu, 95);
    const nowhere = [randomUUID(), randomUUID()];
    await send(nowhere[0]!, disk, 95);
    await send(nowhere[1]!, cpu, 95);
    const opened = await matchesOf(...rules);
    expect(opened).toHaveLength(6);
    const ids = opened.map((match) => match.rule_match_id);
    await runJobs(ids);
    const byDevice = new Map(opened.map((match) => [match.subject_id, match]));
    await portal.as('operator', {
      method: 'POST',
      url: '/v1/rulematches/acknowledge',
      payload: { ruleMatchIds: [byDevice.get(acknowledgedDevice.deviceId)!.rule_match_id], note: 'On it' },
    });
    await sendGroups(portal.db, later(11));
    await runJobs(ids);
    const emails = await emailsOf(ids);
    const subjects = emails.map((each) => each.subject).sort();
    expect(subjects).toEqual(
      [
        `Rule notification: ${north!.name}: 2 matches`,
        `Rule notification: Group ${cpu}: ${southDevice.deviceId}`,
        'Rule notification: No location: 2 matches',
      ].sort(),
    );
    const northEmail = emails.find((each) => each.subject.includes(north!.name))!;
    expect(northEmail.body).toContain(`${northDevices[0]!.deviceId}: Group ${cpu}`);
    expect(northEmail.body).toContain(`${northDevices[1]!.deviceId}: Group ${disk}`);
    expect(northEmail.body).not.toContain(acknowledgedDevice.deviceId);
    // Every held match left its group, the acknowledged one without a notification.
    expect((await matchesOf(...rules)).every((match) => match.notified !== null)).toBe(true);
  });

  it('the rule Test tells how many notifications and repeats the tenant’s policy would have made of the matches', async () => {
    await policy({ repeatEvery: '00:05:00', groupBy: 'rule', groupWait: '00:00:30' });
    const field = `Tst${randomUUID().slice(0, 8)}`;
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60 * SECOND);
    await send(a, field, 95, ago(20));
    await send(b, field, 95, new Date(ago(20).getTime() + 10 * SECOND));
    await send(a, field, 20, ago(15));
    await send(c, field, 95, ago(10));
    const values = ruleInputSchema.parse({
      name: `Test ${field}`,
      ruleTypeId: RULE_TYPES.Ingestion,
      tenantId: DEMO.contoso,
      matchLifetime: '24:00:00',
      closesOn: 'recovery',
      conditions: [tenantCondition(DEMO.contoso), metricAbove(field)],
      matchActions: [red, email],
    });
    const grouped = await testRule(portal.db, { kind: 'all' }, values, 'hour');
    // a and b in one notification (repeated at 5, 10 and 15 minutes on while b is open), c in its own (repeated once).
    expect(grouped.notifications).toEqual({
      groupBy: 'rule',
      groupWait: '00:00:30',
      repeatEvery: '00:05:00',
      matches: 3,
      sent: 2,
      repeats: 4,
    });
    expect(grouped.actions.map((action) => [action.actionDefinitionId, action.runs])).toEqual([
      [red.ActionDefinitionId, 3],
      [email.ActionDefinitionId, 6],
    ]);
    await policy({ repeatEvery: null });
    const alone = await testRule(portal.db, { kind: 'all' }, values, 'hour');
    expect(alone.notifications).toMatchObject({ groupBy: null, repeatEvery: null, matches: 3, sent: 3, repeats: 0 });
  });

  it('repeats a group as one notification, and a policy that stops grouping sends what it held at once', async () => {
    await policy({ repeatEvery: '00:05:00', groupBy: 'rule', groupWait: '00:00:30' });
    const field = `Rpt${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(field);
    for (const entity of [randomUUID(), randomUUID()]) await send(entity, field, 95);
    const ids = (await matchesOf(ruleId)).map((match) => match.rule_match_id);
    await runJobs(ids);
    // Held matches are not due for a repeat while they wait for their group.
    await repeatNotifications(portal.db, later(6 * 60));
    expect(await runJobs(ids)).toEqual([]);
    await sendGroups(portal.db, later(31));
    expect(await runJobs(ids)).toEqual(['match:notify:group:1']);
    await repeatNotifications(portal.db, later(6 * 60));
    expect(await runJobs(ids)).toEqual(['match:repeat:1:group:1']);
    expect(await emailsOf(ids)).toHaveLength(2);

    // Grouping turned off while a match is held: the next sweep sends it, alone.
    const another = `Off${randomUUID().slice(0, 8)}`;
    const offRule = await rule(another);
    await send(randomUUID(), another, 99);
    const [held] = await matchesOf(offRule);
    await runJobs([held!.rule_match_id]);
    await policy({ repeatEvery: null });
    await sendGroups(portal.db);
    expect(await runJobs([held!.rule_match_id])).toEqual(['match:notify:1']);
  });
  it('a match that leaves a silence with its problem still there is held for its group again and told of with it, each time it was silenced', async () => {
    await policy({ repeatEvery: null, groupBy: 'rule', groupWait: '00:00:30' });
    const field = `Rel${randomUUID().slice(0, 8)}`;
    const ruleId = await rule(field);
    await send(randomUUID(), field, 95);
    const [match] = await matchesOf(ruleId);
    const id = match!.rule_match_id;
    await runJobs([id]);
    await sendGroups(portal.db, later(31));
    await runJobs([id]);
    expect(await emailsOf([id])).toHaveLength(1);
    for (let time = 1; time <= 2; time += 1) {
      const silenced = await portal.as('operator', {
        method: 'POST',
        url: '/v1/rulematches/silence',
        payload: { ruleMatchIds: [id], duration: '00:30:00' },
      });
      expect(silenced.statusCode, silenced.body).toBe(200);
      forgetRules(portal.db);
      // Past the silence's end, the problem still there: it leaves maintenance, held for its group.
      const releasedAt = later(31 * 60 * time);
      await releaseEndedMaintenance(portal.db, releasedAt);
      const released = (await matchesOf(ruleId))[0]!;
      expect(released).toMatchObject({ in_maintenance: false, notified: null, group_key: ruleId });
      expect(released.grouped).toEqual(releasedAt);
      // Its colour runs again at once; its email waits for the group, then goes with it.
      expect(await runJobs([id])).toEqual([
        `match:after-maintenance:${releasedAt.getTime()}:0`,
        `match:after-maintenance:${releasedAt.getTime()}:1`,
      ]);
      expect(await emailsOf([id])).toHaveLength(time);
      await sendGroups(portal.db, new Date(releasedAt.getTime() + 31 * SECOND));
      expect(await runJobs([id])).toEqual(['match:notify:1']);
      expect(await emailsOf([id])).toHaveLength(time + 1);
    }
  });
});
